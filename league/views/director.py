"""Director pages: my clubs and events, create an event, run it (registrations and rotations).

Every action is a POST form that redirects back with a message; refusals from the services are
shown as error messages and change nothing.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.errors import DomainError
from league import selectors, services
from league.forms import (
    ClubForm,
    ClubTimeZoneForm,
    DealerForm,
    EntrantForm,
    EventForm,
    LeagueForm,
    MemberForm,
    SeasonForm,
    StatusForm,
    SwapForm,
)
from league.models import Club, Event, Membership, Registration, Rotation, Season
from league.permissions import check_directs_club, directed_clubs
from league.services.clubs import club_ladder_share
from league.services.seating_plans import draft_seating_check
from league.time_zones import club_today, club_zone_activate, zone_words
from league.views import room, substitutes
from league.views.common import attempt, directed_event, form_valid


def _back(event: Event, anchor: str = "") -> HttpResponse:
    response = redirect("director-event", slug=event.slug)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


@login_required
def landing(request: HttpRequest) -> HttpResponse:
    """Where a login lands: the invitations waiting for an answer if any, else the director's
    dashboard for directors and the home page for others."""
    if selectors.invitations_for(user=request.user).exists():
        return redirect("invitations")
    return redirect("director-home" if directed_clubs(request.user).exists() else "home")


@login_required
def home(request: HttpRequest) -> HttpResponse:
    clubs = directed_clubs(request.user)
    context = {
        "clubs": clubs,
        "events": selectors.director_events(user=request.user),
        "club_form": ClubForm(),
    }
    return render(request, "league/director/home.html", context)


@login_required
@require_POST
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST)
    if form_valid(request, form, "A club needs a name and a time zone from the list."):
        club = attempt(request, "Club created; you are its director. Add its leagues, "
                        "seasons and scorers here.", services.club_create,
                        name=form.cleaned_data["name"], director=request.user,
                        time_zone=form.cleaned_data["time_zone"] or None)
        if club is not None:
            return redirect("director-club", slug=club.slug)
    return redirect("director-home")


def _directed_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    club_zone_activate(club)
    return club


@login_required
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _directed_club(request, slug)
    context = {
        "club": club,
        "memberships": club.memberships.select_related("user").order_by("role", "user__username"),
        "invitations": selectors.club_invitations(club=club),
        "leagues": club.leagues.prefetch_related("seasons"),
        "member_form": MemberForm(),
        "league_form": LeagueForm(),
        "season_form": SeasonForm(club=club),
        "time_zone_form": ClubTimeZoneForm(initial={"time_zone": club.time_zone}),
        "time_zone_words": zone_words(club.time_zone),
    }
    return render(request, "league/director/club.html", context)


@login_required
@require_POST
def club_time_zone(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's time zone: its nights keep their typed dates and times, read in the new zone."""
    club = _directed_club(request, slug)
    form = ClubTimeZoneForm(request.POST)
    if form_valid(request, form, "Choose a time zone from the list."):
        zone = form.cleaned_data["time_zone"]
        attempt(request, f"{club} now plays on {zone_words(zone)}: its nights, reminders, "
                 "calendars and mail are in it.", services.club_update, club=club, time_zone=zone)
    return redirect("director-club", slug=club.slug)


@login_required
@require_POST
def club_ladder(request: HttpRequest, slug: str) -> HttpResponse:
    """Share the club's players' ratings on the cross-club ladder, or stop (the form's `share`:
    "yes" or "no")."""
    club = _directed_club(request, slug)
    share = {"yes": True, "no": False}.get(request.POST.get("share", ""))
    if share is None:
        messages.error(request, "Choose whether to share the ratings on the ladder.")
    else:
        done = (f"{club} now shares its players' ratings on the cross-club ladder; they appear "
                "there within a minute." if share else
                f"{club} no longer shares its players' ratings: they are off the ladder.")
        attempt(request, done, club_ladder_share, club=club, share=share, by=request.user)
    return redirect(reverse("director-club", kwargs={"slug": club.slug}) + "#ladder-heading")


@login_required
@require_POST
def club_member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite an account by username; it becomes a member only when it accepts. The answer is
    the same whether or not the username exists."""
    club = _directed_club(request, slug)
    form = MemberForm(request.POST)
    if form_valid(request, form, "Give a username and a role."):
        username, role = form.cleaned_data["username"].strip(), form.cleaned_data["role"]
        attempt(request, f"Invitation sent to {username}: once they accept it (signed in, they "
                 f"see it on their own page), they are a {Membership.Role(role).label.lower()} "
                 f"of {club}.", services.membership_invite, club=club, username=username,
                 role=role, by=request.user)
    return redirect("director-club", slug=club.slug)


@login_required
@require_POST
def club_invitation_withdraw(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    club = _directed_club(request, slug)
    attempt(request, "Invitation withdrawn.", services.invitation_withdraw, club=club,
             invitation_id=invitation_id, by=request.user)
    return redirect("director-club", slug=club.slug)


@login_required
@require_POST
def club_league_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = _directed_club(request, slug)
    form = LeagueForm(request.POST)
    if form_valid(request, form, "A league needs a name."):
        attempt(request, "League created.", services.league_create, club=club, name=form.cleaned_data["name"])
    return redirect("director-club", slug=club.slug)


@login_required
@require_POST
def club_season_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = _directed_club(request, slug)
    form = SeasonForm(request.POST, club=club)
    if form.is_valid():
        attempt(request, "Season created.", services.season_create, **form.cleaned_data)
    else:
        for field, errors in form.errors.items():
            label = form[field].label if field in form.fields else "Season"
            messages.error(request, f"{label}: {' '.join(map(str, errors))}")
    return redirect("director-club", slug=club.slug)


def _event_defaults(request: HttpRequest, clubs: Any) -> dict[str, Any]:
    """A new event's starting values: today, and the club, season and kind of the page it was
    opened from (`?season=<id>` from a league's season makes a league night of that season)."""
    initial: dict[str, Any] = {"table_sizes": [4], "is_public": True, "tie_break_1": "total_points",
                               "date": timezone.localdate()}
    season = Season.objects.filter(league__club__in=clubs, pk=_int_param(request, "season")).first()
    club = clubs.filter(slug=request.GET.get("club", "")).first()
    if season is not None:
        initial.update(season=season, club=season.league.club, kind=Event.Kind.LEAGUE_NIGHT)
    elif club is not None:
        initial["club"] = club
    if request.GET.get("kind") in Event.Kind.values:
        initial["kind"] = request.GET["kind"]
    if "club" in initial:
        initial["date"] = club_today(initial["club"])  # the club's today, not the site's
    return initial


def _int_param(request: HttpRequest, name: str) -> int:
    value = request.GET.get(name, "")
    return int(value) if value.isdigit() and len(value) < 10 else 0


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    clubs = directed_clubs(request.user)
    if not clubs.exists():
        messages.error(request, "Start a club first: only a club's directors create its events.")
        return redirect("director-home")
    form = EventForm(request.POST or None, clubs=clubs, initial=_event_defaults(request, clubs))
    if request.method == "POST" and form.is_valid():
        event = _form_service(request, form, services.event_create, **form.service_kwargs(),
                              by=request.user)
        if event:
            messages.success(request, f"{event.name} created as a draft.")
            return _back(event)
    return render(request, "league/director/event_form.html", {"form": form, "event": None})


@login_required
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    clubs = directed_clubs(request.user).filter(pk=event.club_id)
    form = EventForm(request.POST or None, clubs=clubs, initial=EventForm.initial_for(event))
    form.fields["club"].disabled = True
    if request.method == "POST" and form.is_valid():
        changes = form.service_kwargs()
        changes.pop("club")
        if _form_service(request, form, services.event_update, event=event, by=request.user,
                         **changes):
            messages.success(request, "Settings saved.")
            return _back(event)
    return render(request, "league/director/event_form.html", {"form": form, "event": event})


def _form_service(request: HttpRequest, form: EventForm, service: Callable[..., Any], **kwargs: Any) -> Any:
    """Run a service for a form; a refusal is attached to the field it names."""
    try:
        return service(**kwargs)
    except DomainError as error:
        field = error.field if error.field in form.fields else None
        if field is None and error.field == "tie_breaks":
            field = "tie_break_1"
        form.add_error(field, error.message)
        return None


@login_required
def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    directed_event(request, slug)
    event = selectors.event_detail(slug=slug, user=request.user)
    rotations = [selectors.rotation_plan(rotation=r) for r in event.rotations.all()]
    finished = event.status == Event.Status.FINISHED
    last = rotations[-1].rotation if rotations else None
    for view in rotations:
        if view.rotation.status == Rotation.Status.DRAFT:
            view.repeated_partners = selectors.repeated_partners(rotation=view.rotation)
            view.sit_out_reasons = selectors.sit_out_reasons(rotation=view.rotation)
            view.seating_check = draft_seating_check(rotation=view.rotation)
    entries = history_rows(event, limit=HISTORY_ON_EVENT_PAGE)
    context = {
        **room.registrations_context(request, event),
        "next_status": services.NEXT_STATUS.get(event.status),
        "rotations": rotations,
        "quality": selectors.seating_quality(event=event) if rotations else None,
        "finished": finished,
        "can_seat_next": _can_seat_next(event, last, len(rotations)),
        "reopenable": last.number if last and last.status == Rotation.Status.CLOSED and not finished
        else None,
        "history": entries,
        "history_more": len(entries) == HISTORY_ON_EVENT_PAGE,
        **substitutes.substitutes_context(event),
    }
    return render(request, "league/director/event.html", context)


HISTORY_ON_EVENT_PAGE = 10
HISTORY_PAGE_SIZE = 100


def history_rows(event: Event, limit: int, offset: int = 0) -> list[Any]:
    """The event's history lines, newest first, each with whether it can be undone now."""
    finished = event.status == Event.Status.FINISHED
    # AuditEntry rows with two words for the page: `can_undo` and `who`.
    entries: list[Any] = list(selectors.audit_entries(event=event, limit=offset + limit)[offset:])
    for entry in entries:
        entry.can_undo = services.audit_undoable(entry=entry) and (
            not finished or entry.action == "event_status")
        entry.who = (entry.user.get_full_name() or entry.user.username) if entry.user else (
            entry.data.get("who") or "someone")
    return entries


@login_required
def event_history(request: HttpRequest, slug: str) -> HttpResponse:
    """Everything a director or scorer did to the event, newest first, 100 lines a page."""
    event = directed_event(request, slug)
    page = _int_param(request, "page") or 1
    entries = history_rows(event, limit=HISTORY_PAGE_SIZE + 1, offset=(page - 1) * HISTORY_PAGE_SIZE)
    context = {"event": event, "history": entries[:HISTORY_PAGE_SIZE], "page": page,
               "next_page": page + 1 if len(entries) > HISTORY_PAGE_SIZE else None,
               "previous_page": page - 1 if page > 1 else None}
    return render(request, "league/director/history.html", context)


def _can_seat_next(event: Event, last: Rotation | None, seated: int) -> bool:
    """"Seat the next rotation" is offered only when it can work."""
    return (
        event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
        and (last is None or last.status == Rotation.Status.CLOSED)
        and seated < event.planned_rotations
    )


STATUS_DONE = {
    Event.Status.REGISTRATION: "Registration is open: enter the players.",
    Event.Status.RUNNING: "The event has started: seat and start the first rotation.",
    Event.Status.FINISHED: "The event is finished: its results are final.",
}


@login_required
@require_POST
def event_status(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    form = StatusForm(request.POST)
    if not form_valid(request, form, "Unknown status."):
        return _back(event)
    status = form.cleaned_data["status"]
    attempt(request, STATUS_DONE.get(status, "Done."), services.event_set_status,
             event=event, status=status, by=request.user)
    return _back(event)


@login_required
@require_POST
def registration_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    form = EntrantForm(request.POST, event=event)
    if not form.is_valid():
        for error in form.errors.get("__all__", []) or ["Choose a player."]:
            messages.error(request, str(error))
        return _back(event, "registrations")
    entrants = form.cleaned_data["entrants"]
    offers = [] if request.POST.get("create") == "anyway" else _name_offers(event, entrants)
    if offers:
        return render(request, "league/director/name_offer.html",
                      {"event": event, "offers": offers, "entrants": entrants, "form": form})
    registration = attempt(request, "", services.registration_add_entrant, event=event,
                            players=entrants, by=request.user)
    if registration:
        messages.success(request, f"{selectors.registration_name(registration=registration)} is entered.")
    return _back(event, "registrations")


def _name_offers(event: Event, entrants: list[Any]) -> list[tuple[str, list[Any]]]:
    """For each typed (new) name, the club's players with the same or a close name."""
    offers = []
    for entrant in entrants:
        if isinstance(entrant, str):
            matches = selectors.player_matches(club=event.club, name=entrant)
            if matches:
                offers.append((entrant, matches))
    return offers


def _registration(event: Event, pk: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("event"), pk=pk, event=event)


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _registration_change(request, slug, pk, services.registration_withdraw, "withdrawn")


@login_required
@require_POST
def registration_reinstate(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _registration_change(request, slug, pk, services.registration_reinstate, "plays again")


def _registration_change(request: HttpRequest, slug: str, pk: int,
                         service: Callable[..., Registration], done: str) -> HttpResponse:
    """One entrant's withdrawal or its undo: `done` says what became of them."""
    event = directed_event(request, slug)
    registration = _registration(event, pk)
    attempt(request, f"{selectors.registration_name(registration=registration)} {done}.",
            service, registration=registration, by=request.user)
    return _back(event, "registrations")


@login_required
@require_POST
def rotation_generate(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    rotation = attempt(request, "Rotation seated as a draft: check it, then start it.",
                        services.rotation_generate, event=event, by=request.user)
    return _back(event, f"rotation-{rotation.number}" if rotation else "rotations")


def _rotation(event: Event, number: int) -> Rotation:
    return get_object_or_404(Rotation, event=event, number=number)


@login_required
@require_POST
def rotation_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = directed_event(request, slug)
    rotation = _rotation(event, number)
    form = SwapForm(request.POST, players=event.club.players.all())
    if form_valid(request, form, "Choose the two players to swap."):
        before = {(a, b) for a, b, _ in selectors.repeated_partners(rotation=rotation)}
        if attempt(request, "Players swapped.", services.rotation_swap_players, rotation=rotation,
                    by=request.user, **form.cleaned_data):
            for a, b, numbers in selectors.repeated_partners(rotation=rotation):
                if (a, b) not in before:
                    rounds = ", ".join(map(str, numbers))
                    messages.warning(request, f"Warning: {a} and {b} are partners again (they were "
                                     f"partners in rotation {rounds}).")
    return _back(event, f"rotation-{number}")


@login_required
@require_POST
def rotation_first_dealer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = directed_event(request, slug)
    rotation = _rotation(event, number)
    form = DealerForm(request.POST)
    if form_valid(request, form, "Choose a table and a player."):
        attempt(request, f"First dealer at table {form.cleaned_data['table']} changed.",
                 services.rotation_set_first_dealer, rotation=rotation,
                 table_number=form.cleaned_data["table"], player=form.cleaned_data["player"],
                 by=request.user)
    return _back(event, f"rotation-{number}")


def _rotation_action(service: Callable[..., Any], done: str) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        event = directed_event(request, slug)
        attempt(request, done.format(number=number), service, rotation=_rotation(event, number),
                 by=request.user)
        return _back(event, "rotations")

    return view


rotation_start = _rotation_action(services.rotation_start, "Rotation {number} started: good luck!")
rotation_delete = _rotation_action(services.rotation_delete, "Draft rotation {number} deleted.")
