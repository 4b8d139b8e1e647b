"""Table-side result entry, no account needed: /play/ (code), /play/<token>/ (the game's page).

The entrant is the signed-in scorer or director, a signed-in player of the game (their side), or
the side the visitor chose on this game's page (kept in the session). Links work only for their own game and only while the event runs.
"""

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import DomainError, Gone, Invalid
from core.http import refusal_status
from core.throttling import page_lookup_throttled
from games import selectors, services
from games.engine.checking import parse_document
from games.engine.errors import EngineError
from games.forms import CodeForm, ConfirmForm, LogUploadForm, SheetForm, SideForm
from games.services import Entrant
from league.models import Game
from league.permissions import is_scorer

MAX_LOG_BYTES = 2_000_000


@page_lookup_throttled
def play_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.POST or None)
    if form.is_valid():
        game = selectors.game_by_code(code=form.cleaned_data["code"])
        if game is not None:
            return redirect("play-game", token=game.entry_token)
        request.lookup_failed = True  # a guess: counted by the lookup throttle
        form.add_error("code", "No game has this code. Check the table card.")
    return render(request, "games/play_home.html", {"form": form})


def _session_key(game: Game) -> str:
    return f"entry_side:{game.pk}"


def _entrant(request: HttpRequest, game: Game) -> Entrant | None:
    if is_scorer(request.user, selectors.game_event(game=game).club_id):
        return Entrant.for_user(request.user)
    side = services.seated_side(game=game, user=request.user)
    if side is None:
        side = request.session.get(_session_key(game))
    return services.table_entrant(game=game, side=side) if side is not None else None


def _game_or_early(request: HttpRequest, token: str) -> Game | HttpResponse:
    game = selectors.game_by_token(token=token)
    if game is None:
        raise Http404("No game has this link.")
    try:
        services.table_link_check(game=game)
    except Gone as closed:
        if not is_scorer(request.user, selectors.game_event(game=game).club_id):
            return render(
                request, "games/closed.html", {"game": game, "message": closed.message}, status=410
            )
    return game


def _page(request: HttpRequest, game: Game, *, status: int = 200, **forms: Any) -> HttpResponse:
    sides = selectors.game_sides(game=game)
    rules = services.game_table(game=game)
    entrant = _entrant(request, game)
    context = {
        "game": game,
        "event": selectors.game_event(game=game),
        "seats": selectors.game_seats(game=game),
        "sides": sides,
        "entrant": entrant,
        "entrant_label": selectors.entrant_label(game=game, entrant=entrant.key) if entrant else "",
        "entered_rounds": selectors.entry_rounds(game=game, entrant=entrant.key) if entrant else [],
        "versions": selectors.game_version_rows(game=game),
        "to_confirm": [
            v for v in selectors.game_open_versions(game=game) if entrant and v.entered_by != entrant.key
        ],
        "side_form": forms.get("side_form") or SideForm(sides=sides),
        "sheet_form": forms.get("sheet_form") or SheetForm(sides=sides, rounds=rules.rules.rounds),
        "log_form": forms.get("log_form") or LogUploadForm(),
        "rules_spec": rules.rules_spec,
        "players": len(rules.players),
        "flagged": selectors.game_flagged_submissions(game=game),
    }
    return render(request, "games/game.html", context, status=status)


@page_lookup_throttled
def play_game(request: HttpRequest, token: str) -> HttpResponse:
    game = _game_or_early(request, token)
    if isinstance(game, HttpResponse):
        return game
    return _page(request, game)


@require_POST
@page_lookup_throttled
def choose_side(request: HttpRequest, token: str) -> HttpResponse:
    game = _game_or_early(request, token)
    if isinstance(game, HttpResponse):
        return game
    form = SideForm(request.POST, sides=selectors.game_sides(game=game))
    if not form.is_valid():
        return _page(request, game, status=400, side_form=form)
    request.session[_session_key(game)] = form.cleaned_data["side"]
    return redirect("play-game", token=token)


def _submit(request: HttpRequest, game: Game, document: Any, key: str) -> HttpResponse | None:
    """Store the document; None when it was accepted (the caller redirects)."""
    entrant = _entrant(request, game)
    if entrant is None:
        messages.error(request, "First say which side you are.")
        return redirect("play-game", token=game.entry_token)
    submission, created = services.submission_create(
        game=game, document=document, entrant=entrant, idempotency_key=key
    )
    game.refresh_from_db()
    what = f"Round {submission.round_number}" if submission.round_number else "The move log"
    messages.success(
        request,
        f"{what} is saved{'' if created else ' (already received)'}. "
        f"Game: {game.get_status_display()}.",
    )
    return None


@require_POST
@page_lookup_throttled
def submit_sheet(request: HttpRequest, token: str) -> HttpResponse:
    game = _game_or_early(request, token)
    if isinstance(game, HttpResponse):
        return game
    form = SheetForm(
        request.POST,
        sides=selectors.game_sides(game=game),
        rounds=services.game_table(game=game).rules.rounds,
    )
    if not form.is_valid():
        return _page(request, game, status=400, sheet_form=form)
    try:
        early = _submit(request, game, form.sheet(), form.cleaned_data["idempotency_key"])
    except DomainError as refused:
        form.add_error(None, f"{refused.message} ({refused.code})")
        return _page(request, game, status=refusal_status(refused), sheet_form=form)
    return early or redirect("play-game", token=token)


@require_POST
@page_lookup_throttled
def upload_log(request: HttpRequest, token: str) -> HttpResponse:
    game = _game_or_early(request, token)
    if isinstance(game, HttpResponse):
        return game
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, game, status=400, log_form=form)
    upload = form.cleaned_data["log"]
    try:
        if upload.size > MAX_LOG_BYTES:
            raise Invalid("TOO_LARGE", "The file is larger than 2 MB; is it a move log?")
        document = parse_document(upload.read())
        early = _submit(request, game, document, form.cleaned_data["idempotency_key"])
    except EngineError as err:
        form.add_error("log", f"{err.message} ({err.code})")
        return _page(request, game, status=400, log_form=form)
    except DomainError as refused:
        form.add_error("log", f"{refused.message} ({refused.code})")
        return _page(request, game, status=refusal_status(refused), log_form=form)
    return early or redirect("play-game", token=token)


@require_POST
@page_lookup_throttled
def confirm_result(request: HttpRequest, token: str) -> HttpResponse:
    game = _game_or_early(request, token)
    if isinstance(game, HttpResponse):
        return game
    form = ConfirmForm(request.POST)
    entrant = _entrant(request, game)
    if not form.is_valid() or entrant is None:
        messages.error(request, "Say which side you are, then confirm the figures shown.")
        return redirect("play-game", token=token)
    try:
        services.result_confirm(
            game=game, version_number=form.cleaned_data["version"], entrant=entrant
        )
    except DomainError as refused:
        messages.error(request, refused.message)
        return redirect("play-game", token=token)
    messages.success(request, "Thank you: the result is confirmed.")
    return redirect("play-game", token=token)
