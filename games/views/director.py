"""Director pages for results: an event's games, disputes, versions and corrections."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core.errors import DomainError
from games import replays, selectors, services
from games.forms import ConfirmForm, CorrectionForm, SheetForm, sheet_initial
from games.models import Submission
from games.views.paper_form import paper_form
from games.views.table import sheet_check_response, words_for
from league.models import Event, Game
from league.permissions import check_directs_event, signed_in
from league.time_zones import club_zone_activate
from web.http import refusal_status


def _directed_game(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("table__rotation__event__club"), pk=game_id)
    check_directs_event(request.user, selectors.game_event(game=game))
    club_zone_activate(selectors.game_event(game=game).club)
    return game


@login_required
def event_results(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    check_directs_event(request.user, event)
    club_zone_activate(event.club)
    rows = selectors.event_result_rows(event=event)
    return render(
        request,
        "games/director_results.html",
        {
            "event": event,
            "rows": rows,
            "disputed": [r for r in rows if r["game"].status == Game.Status.DISPUTED],
            "player_disputes": selectors.event_open_disputes(event=event),
        },
    )


def _correction_forms(game: Game, data: Any = None) -> list[SheetForm]:
    sides = selectors.game_sides(game=game)
    rules = services.game_table(game=game).rules
    base = selectors.game_correction_base(game=game)
    # A result of scores only has no sheet to start from: the form starts empty.
    initial = {r["round"]: sheet_initial(r) for r in (base.rounds if base and base.detail else [])}
    return [
        SheetForm(
            data,
            sides=sides,
            rules=rules,
            prefix=f"r{n}",
            initial={**initial.get(n, {"round": n}), "round": n},
        )
        for n in range(1, rules.rounds + 1)
    ]


def _page(
    request: HttpRequest, game: Game, *, status: int = 200, details: str = "", **forms: Any
) -> HttpResponse:
    return render(
        request,
        "games/director_game.html",
        {
            "game": game,
            "event": selectors.game_event(game=game),
            "seats": selectors.game_seats(game=game),
            "sides": selectors.game_sides(game=game),
            "versions": selectors.game_version_rows(game=game),
            "open_versions": selectors.game_open_versions(game=game),
            "submissions": selectors.game_submission_rows(game=game),
            "flags": selectors.game_flag_lines(game=game),
            "comparison": replays.dispute_with_log(
                game=game, comparison=selectors.dispute_comparison(game=game)
            ),
            "sheet_forms": forms.get("sheet_forms") or _correction_forms(game),
            "correction_form": forms.get("correction_form")
            or CorrectionForm(initial={"revision": services.result_revision(game=game)}),
            "paper_form": forms.get("paper_form") or paper_form(game),
            "details": details,
            "revision": services.result_revision(game=game),
            **replays.game_story_context(game=game),
        },
        status=status,
    )


@login_required
def game_result(request: HttpRequest, game_id: int) -> HttpResponse:
    return _page(request, _directed_game(request, game_id))


@login_required
@require_POST
def confirm_version(request: HttpRequest, game_id: int) -> HttpResponse:
    """A director chooses one version of a dispute (or confirms an entered one)."""
    game = _directed_game(request, game_id)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a version to confirm.")
        return redirect("director-result", game_id=game.pk)
    # A director of the club (checked above) always enters as themselves.
    entrant = services.entrant_for(game=game, user=request.user)
    if entrant is None:
        raise PermissionDenied("Only a director of this club may do this.")
    try:
        services.result_confirm(
            game=game, version_number=form.cleaned_data["version"], entrant=entrant
        )
    except DomainError as refused:
        messages.error(request, words_for(game, refused).text)
    else:
        messages.success(request, f"Version {form.cleaned_data['version']} is now the result.")
    return redirect("director-result", game_id=game.pk)


@login_required
@require_POST
def settle_by_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """The director settles the dispute as the move log says, in one click (the page's
    revision guards against a result that changed meanwhile)."""
    game = _directed_game(request, game_id)
    form = CorrectionForm({"revision": request.POST.get("revision"), "reason": replays.LOG_REASON})
    if not form.is_valid():
        messages.error(request, "Reload the page and settle again.")
        return redirect("director-result", game_id=game.pk)
    try:
        version = services.dispute_settle_by_log(
            game=game, user=request.user, expected_revision=form.cleaned_data["revision"]
        )
    except DomainError as refused:
        messages.error(request, words_for(game, refused).text)
    else:
        messages.success(
            request,
            f"Settled as the move log says: version {version.number} "
            f"({' to '.join(map(str, version.totals))}) is now the result.",
        )
    return redirect("director-result", game_id=game.pk)


@login_required
@require_POST
def correct_result(request: HttpRequest, game_id: int) -> HttpResponse:
    """The director's figures for every round, with a reason; refused if the result changed
    since the page was loaded (hidden revision)."""
    game = _directed_game(request, game_id)
    correction = CorrectionForm(request.POST)
    sheet_forms = _correction_forms(game, request.POST)
    if not correction.is_valid() or not all(f.is_valid() for f in sheet_forms):
        return _page(request, game, status=400, sheet_forms=sheet_forms, correction_form=correction)
    try:
        version = services.result_correct(
            game=game,
            user=signed_in(request.user),  # a director (checked above) is signed in
            reason=correction.cleaned_data["reason"],
            expected_revision=correction.cleaned_data["revision"],
            documents=[f.sheet() for f in sheet_forms],
        )
    except DomainError as refused:
        words = words_for(game, refused)
        correction.add_error(None, words.text)
        return _page(
            request,
            game,
            status=refusal_status(refused),
            sheet_forms=sheet_forms,
            correction_form=correction,
            details=words.details,
        )
    messages.success(request, f"Saved as version {version.number}.")
    return redirect("director-result", game_id=game.pk)


@login_required
@require_POST
def check_sheet(request: HttpRequest, game_id: int) -> JsonResponse:
    """Live scores of one round of the correction form (`prefix` names the round's fields)."""
    game = _directed_game(request, game_id)
    prefix = request.POST.get("prefix", "")
    if not prefix.startswith("r") or not prefix[1:].isdigit():
        return JsonResponse({"valid": False}, status=400)
    return sheet_check_response(game, request.POST, prefix=prefix)


def _entry_action(service: Any, done: str) -> Any:
    """A director withdraws (or restores) one sheet or log of the game; refusals in words."""

    @login_required
    @require_POST
    def view(request: HttpRequest, game_id: int, submission_id: int) -> HttpResponse:
        game = _directed_game(request, game_id)
        submission = get_object_or_404(Submission, pk=submission_id, game=game)
        try:
            service(submission=submission, by=request.user)
        except DomainError as refused:
            messages.error(request, words_for(game, refused).text)
        else:
            what = (
                f"The round {submission.round_number} score sheet"
                if submission.kind == Submission.Kind.SHEET
                else "The move log"
            )
            messages.success(request, f"{what} {done}")
        return redirect("director-result", game_id=game.pk)

    return view


withdraw_entry = _entry_action(
    services.submission_withdraw,
    "is withdrawn: it no longer counts, and the table can enter that round again.",
)
restore_entry = _entry_action(services.submission_restore, "counts again.")
