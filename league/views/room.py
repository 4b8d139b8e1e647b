"""Director pages for running the room: the club's players (match, rename, merge, retire),
entering a pasted list, checking everyone in, house rules as a form, undo and the audit log.

Actions answer htmx requests (header HX-Request) with the fragment they changed and plain form
posts with a redirect, so every page also works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import DomainError
from league import house_rules, selectors, services
from league.forms import EntrantForm, HouseRulesForm
from league.forms.house_rules import rules_from_text
from league.models import AuditEntry, Club, Event, Player, Registration
from league.names import (
    MAX_PASTED_NAMES,
    BadPair,
    TooManyNames,
    names_parse_report,
    pairs_parse_report,
)
from league.permissions import check_directs_club, signed_in
from league.presets import preset_name, rules_text
from league.time_zones import club_zone_activate
from league.views.common import attempt, directed_event


def _directed_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    club_zone_activate(club)
    return club


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"



def _event_url(event: Event, anchor: str = "") -> str:
    url = reverse("director-event", args=[event.slug])
    return f"{url}#{anchor}" if anchor else url


# Registrations --------------------------------------------------------------------------------


def registrations_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """What the registrations fragment (`_registrations.html`) draws."""
    registrations = list(
        event.registrations.select_related("player", "partnership__player_a", "partnership__player_b")
        .order_by("created_at", "pk")
    )
    entrants = [r for r in registrations if r.withdrawn_after_rotation is None]
    return {
        "event": event,
        "registrations": registrations,
        "entrant_count": len(entrants),
        "checked_in_count": sum(1 for r in entrants if r.checked_in),
        "can_enter": event.status != Event.Status.FINISHED,
        "entrant_form": EntrantForm(event=event),
        "paste_form": PasteForm(partnerships=event.is_fixed_partnerships),
    }


def _registrations_fragment(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "league/director/_registrations.html",
                  registrations_context(request, event))


@login_required
@require_POST
def registration_toggle(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Check an entrant in or out; htmx swaps the registrations list in place."""
    event = directed_event(request, slug)
    registration = get_object_or_404(Registration, pk=pk, event=event)
    checked_in = request.POST.get("checked_in") == "1"
    name = selectors.registration_name(registration=registration)
    done = f"{name} {'checked in' if checked_in else 'no longer checked in'}."
    attempt(request, "" if _is_htmx(request) else done, services.registration_check_in,
             registration=registration, checked_in=checked_in, by=request.user)
    if _is_htmx(request):
        return _registrations_fragment(request, event)
    return redirect(_event_url(event, "registrations"))


@login_required
@require_POST
def registration_check_in_all(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    ids = attempt(request, "", services.registration_check_in_all, event=event, by=request.user)
    if ids:
        messages.success(request, f"Checked in {len(ids)} entrant{'s' if len(ids) != 1 else ''}.")
    if _is_htmx(request):
        return _registrations_fragment(request, event)
    return redirect(_event_url(event, "registrations"))


class PasteForm(forms.Form):
    """A pasted list: names one per line (rotating partners), or partnerships one per line, two
    names joined by "&" (fixed partnerships)."""

    names = forms.CharField(
        label="Names, one per line", max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off"}),
        help_text="Names the club already knows are matched (accents, capitals and small "
        "misspellings do not matter); you choose for the close ones.",
    )

    def __init__(self, *args: Any, partnerships: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if partnerships:
            field = self.fields["names"]
            field.label = "Partnerships, one per line"
            field.help_text = ("Two names per line joined by &, e.g. \u201cAnn Lee & Bob Ray\u201d. "
                               + str(field.help_text))


MAX_REPEATS_TOLD = 10  # repeated names told one by one; more are counted


@login_required
def registration_paste(request: HttpRequest, slug: str) -> HttpResponse:
    """Enter a pasted list of names (or of partnerships, two names a line): exact matches and
    new names at once, close ones after the director has chosen (an existing player, or a new
    one)."""
    event = directed_event(request, slug)
    if request.method != "POST":
        return redirect(_event_url(event, "registrations"))
    if "resolved" in request.POST:
        return _paste_resolved(request, event)
    partnerships = event.is_fixed_partnerships
    form = PasteForm(request.POST, partnerships=partnerships)
    if not form.is_valid():
        messages.error(request, "Paste at least one partnership (two names a line)." if partnerships
                       else "Paste at least one name (one per line).")
        return redirect(_event_url(event, "registrations"))
    try:
        text = form.cleaned_data["names"]
        if partnerships:
            pairs, repeats = pairs_parse_report(text)
            names = [n for pair in pairs for n in pair]
        else:
            names, repeats = names_parse_report(text)
    except (TooManyNames, BadPair) as error:
        messages.error(request, str(error))
        return redirect(_event_url(event, "registrations"))
    for repeat in repeats[:MAX_REPEATS_TOLD]:
        messages.warning(request, "Pasted more than once: " + repeat.words())
    if len(repeats) > MAX_REPEATS_TOLD:
        messages.warning(request, f"{len(repeats) - MAX_REPEATS_TOLD} more names were pasted more "
                         "than once; each is entered once.")
    rows = selectors.names_match(club=event.club, names=names)
    if any(row.needs_choice for row in rows):
        return render(request, "league/director/paste_review.html",
                      {"event": event, "rows": rows, "partnerships": partnerships})
    return _enter(request, event, [row.exact or row.typed for row in rows])


def _paste_resolved(request: HttpRequest, event: Event) -> HttpResponse:
    """The choices of the review page, in the order pasted (None where nothing was chosen)."""
    choices: list[Player | str | None] = []
    club_players = {p.pk: p for p in event.club.players.all()}
    count = request.POST.get("count", "0")
    for index in range(min(int(count) if count.isdigit() else 0, MAX_PASTED_NAMES)):
        choice = request.POST.get(f"choice-{index}", "new")
        typed = request.POST.get(f"name-{index}", "").strip()[:120]
        if choice.isdigit() and int(choice) in club_players:
            choices.append(club_players[int(choice)])
        elif choice == "new" and typed:
            choices.append(typed)
        else:
            choices.append(None)
    return _enter(request, event, choices)


def _enter(request: HttpRequest, event: Event, choices: list[Player | str | None]) -> HttpResponse:
    if event.is_fixed_partnerships:
        if len(choices) % 2 or None in choices:
            messages.error(request, "Each partnership needs two players; paste the list again.")
            return redirect(_event_url(event, "registrations"))
        pairs = list(zip(choices[::2], choices[1::2], strict=True))
        created = attempt(request, "", services.registration_add_partnerships, event=event,
                           pairs=pairs, by=request.user)
        what, asked = "partnership", len(pairs)
    else:
        wanted = [c for c in choices if c is not None]
        created = attempt(request, "", services.registration_add_players, event=event,
                           choices=wanted, by=request.user)
        what, asked = "player", len(wanted)
    if created is not None:
        skipped = asked - len(created)
        note = f" ({skipped} already entered)" if skipped else ""
        messages.success(request, f"Entered {len(created)} {what}{'s' if len(created) != 1 else ''}{note}.")
    return redirect(_event_url(event, "registrations"))


# Players --------------------------------------------------------------------------------------


class NameForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name")


@login_required
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players: add one (close names offered first), possible duplicates flagged."""
    club = _directed_club(request, slug)
    form = NameForm(request.POST or None)
    offer: list[selectors.NameMatch] = []
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        offer = selectors.player_matches(club=club, name=name)
        if not offer or request.POST.get("create") == "anyway":
            player = attempt(request, f"{name} added.", services.player_add, club=club, name=name,
                              by=request.user)
            if player:
                return redirect("director-players", slug=club.slug)
    context = {
        "club": club,
        "players": club.players.order_by("retired_at", "name"),
        "duplicates": selectors.player_possible_duplicates(club=club),
        "form": form,
        "offer": offer,
        "log": selectors.audit_entries(club=club, limit=20),
    }
    return render(request, "league/director/players.html", context)


def _club_player(request: HttpRequest, slug: str, player_slug: str) -> Player:
    club = _directed_club(request, slug)
    return get_object_or_404(Player.objects.select_related("club"), club=club, slug=player_slug)


@login_required
def player_page(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    player = _club_player(request, slug, player_slug)
    close = selectors.player_matches(club=player.club, name=player.name, exclude=player)
    others = player.club.players.exclude(pk__in=[player.pk, *(m.player.pk for m in close)])
    context = {
        "club": player.club,
        "player": player,
        "rename_form": NameForm(initial={"name": player.name}),
        "others": others.order_by("name"),
        "close": close,
        "events": Event.objects.filter(registrations__player=player).distinct().order_by("-date"),
        "log": selectors.audit_entries(player=player, limit=30),
    }
    return render(request, "league/director/player.html", context)


@login_required
@require_POST
def player_rename(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    player = _club_player(request, slug, player_slug)
    form = NameForm(request.POST)
    if form.is_valid():
        attempt(request, "Renamed.", services.player_rename, player=player,
                 name=form.cleaned_data["name"], by=request.user)
    else:
        messages.error(request, "Type the new name (up to 120 characters).")
    return redirect("director-player", slug=slug, player_slug=player.slug)


@login_required
@require_POST
def player_retire(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    player = _club_player(request, slug, player_slug)
    if request.POST.get("retire") == "0":
        attempt(request, f"{player.name} is back.", services.player_reinstate, player=player,
                 by=request.user)
    else:
        attempt(request, f"{player.name} retired: their results stay, they are no longer offered.",
                 services.player_retire, player=player, by=request.user)
    return redirect("director-player", slug=slug, player_slug=player.slug)


@login_required
@require_POST
def player_merge(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    """Merge this player (a duplicate) into the chosen one, who keeps everything."""
    source = _club_player(request, slug, player_slug)
    target = source.club.players.filter(pk=request.POST.get("into") or 0).first() \
        if (request.POST.get("into") or "").isdigit() else None
    if target is None:
        messages.error(request, "Choose the player to keep.")
        return redirect("director-player", slug=slug, player_slug=source.slug)
    name = source.name
    merged = attempt(request, f"{name} merged into {target.name}: their results, ratings and "
                      "history now count for one player.", services.player_merge,
                      source=source, target=target, by=request.user)
    if merged is None:
        return redirect("director-player", slug=slug, player_slug=source.slug)
    return redirect("director-player", slug=slug, player_slug=merged.slug)


# Undo -----------------------------------------------------------------------------------------


def _rotation_undo(service: Callable[..., Any], done: str) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        event = directed_event(request, slug)
        rotation = get_object_or_404(event.rotations, number=number)
        attempt(request, done.format(number=number), service, rotation=rotation, by=request.user)
        return redirect(_event_url(event, f"rotation-{number}"))

    return view


rotation_reopen = _rotation_undo(services.rotation_reopen,
                                 "Rotation {number} reopened: results can change until you close it again.")
rotation_close = _rotation_undo(services.rotation_close, "Rotation {number} closed.")


@login_required
@require_POST
def event_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    attempt(request, "The event runs again.", services.event_reopen, event=event, by=request.user)
    return redirect(_event_url(event))


@login_required
@require_POST
def event_call_off(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    off = request.POST.get("off") == "yes"
    attempt(request, "The night is called off: calendars and reminders say so." if off
             else "The night is on again.", services.event_call_off, event=event, off=off,
             by=request.user)
    return redirect(_event_url(event))


@login_required
@require_POST
def audit_undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = directed_event(request, slug)
    entry = get_object_or_404(AuditEntry, pk=pk, event=event)
    refusal = services.audit_undo_refusal(entry=entry)
    if refusal and entry.action not in UNDO_CHECKED_BY_SERVICE:
        messages.error(request, f"Not undone: {refusal}")
    else:
        attempt(request, f"Undone: {entry.summary}", services.audit_undo, entry=entry,
                 by=request.user)
    if request.POST.get("back") == "history":
        return redirect("director-event-history", slug=event.slug)
    return redirect(_event_url(event, "history"))


# Undos whose own service gives the more precise refusal (it names what is in the way).
UNDO_CHECKED_BY_SERVICE = ("rotation_start", "result_enter", "result_withdraw", "result_restore",
                           "registration_add", "event_status")


# House rules ----------------------------------------------------------------------------------


class AdvancedRulesForm(forms.Form):
    rules_json = forms.CharField(
        required=False, max_length=10_000, label="House rules as JSON",
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text='The rules as a move log names them, e.g. {"preset": "classic", "overrides": '
        '{"going_out_bonus": 250}}: the same text a log\'s "rules" and "simulate --rules" take. '
        'Just the changes, e.g. {"going_out_bonus": 250}, also do.',
    )


@login_required
def house_rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every parameter of the event's preset, with its preset value and range; save the changed
    ones as the event's house rules."""
    event = directed_event(request, slug)
    advanced = "advanced" in request.POST
    data = request.POST if request.method == "POST" and not advanced else None
    form = HouseRulesForm(data, preset=event.rules_preset, overrides=event.rules_overrides)
    json_form = AdvancedRulesForm(request.POST if advanced else None, initial={
        "rules_json": rules_text(preset=event.rules_preset, overrides=event.rules_overrides)})
    if request.method == "POST":
        submitted = _submitted_overrides(form, json_form, advanced, event.rules_preset)
        if submitted is not None:
            preset, overrides = submitted
            try:
                services.event_update(event=event, rules_preset=preset, rules_overrides=overrides,
                                      by=signed_in(request.user))
            except DomainError as error:
                (json_form if advanced else form).add_error(None, _rules_error_words(error))
            else:
                changes = house_rules.rules_summary_changes(preset, overrides)
                messages.success(request, "House rules saved: " + (
                    f"{len(changes)} change{'s' if len(changes) != 1 else ''} from the preset ("
                    + "; ".join(f"{label}: {now} instead of {base}" for label, base, now in changes)
                    + ")." if changes else "the preset as it is."))
                return redirect(_event_url(event))
    context = {
        "event": event,
        "form": form,
        "json_form": json_form,
        "advanced": advanced,
        "preset_label": preset_name(event.rules_preset),
        "locked": event.rotations.exists() or event.status == Event.Status.FINISHED,
    }
    return render(request, "league/director/house_rules.html", context)


def _submitted_overrides(form: HouseRulesForm, json_form: AdvancedRulesForm,
                         advanced: bool, preset: str) -> tuple[str, dict[str, Any]] | None:
    """(preset, overrides) from the form of every rule, or from the JSON box."""
    if not advanced:
        return (preset, form.cleaned_data["overrides"]) if form.is_valid() else None
    if not json_form.is_valid():
        return None
    try:
        return rules_from_text(json_form.cleaned_data["rules_json"], preset=preset)
    except forms.ValidationError as error:
        json_form.add_error("rules_json", error)
        return None


def _rules_error_words(error: DomainError) -> str:
    """The engine names parameters by their code names: name them by their labels."""
    message = error.message
    for p in house_rules.PARAMETERS:
        message = message.replace(f"house rule {p.name}", p.label).replace(p.name, p.label.lower())
    return message[:1].upper() + message[1:]
