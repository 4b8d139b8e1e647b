"""Table-side result entry, no account needed: /play/ (code), /play/<token>/ (the game's page).

Each side of a table has its own link and code (the table card prints both). Who enters, and for
which side, is decided by `services.result_entrant`: a signed-in scorer or director as
themselves, else the link's own side, else a signed-in player's seat. A game's old per-game link
works for the side it can be tied to (the migration's choice, or the side this browser chose
before side links existed); otherwise its page says what to do. Links work only for their own
game and only while the event runs.
"""

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import selectors, services
from games.engine.checking import parse_document
from games.engine.errors import EngineError
from games.forms import CodeForm, ConfirmForm, LogUploadForm, SheetForm
from games.services import Entrant, ResultRefused
from league.models import Game
from league.permissions import is_scorer

MAX_LOG_BYTES = 2_000_000


def play_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.POST or None)
    if form.is_valid():
        link = selectors.table_link_by_code(form.cleaned_data["code"])
        if link is not None:
            return redirect("play-game", token=link.token)
        form.add_error("code", "No table has this code. Check the table card.")
    return render(request, "games/play_home.html", {"form": form})


def _old_session_key(game: Game) -> str:
    """Where browsers kept the side they chose on an old per-game link."""
    return f"entry_side:{game.pk}"


def _link(request: HttpRequest, token: str) -> selectors.TableLink:
    link = selectors.table_link_by_token(token)
    if link is None:
        raise Http404("No game has this link.")
    if link.old and link.side is None:
        chosen = request.session.get(_old_session_key(link.game))
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            link = replace(link, side=chosen)
    return link


def _entrant(request: HttpRequest, link: selectors.TableLink) -> Entrant | None:
    try:
        return services.result_entrant(game=link.game, user=request.user, link=link)
    except ResultRefused:
        return None


def _link_or_early(request: HttpRequest, token: str) -> selectors.TableLink | HttpResponse:
    link = _link(request, token)
    game = link.game
    try:
        services.table_link_check(game=game)
    except services.ResultClosed as closed:
        if not is_scorer(request.user, selectors.event_of(game).club_id):
            return render(
                request, "games/closed.html", {"game": game, "message": closed.message}, status=410
            )
    if _entrant(request, link) is None:
        return render(
            request,
            "games/closed.html",
            {"game": game, "message": services.OLD_LINK_MESSAGE, "title": "This table card is old"},
            status=403,
        )
    return link


def _page(
    request: HttpRequest, link: selectors.TableLink, *, status: int = 200, **forms: Any
) -> HttpResponse:
    game = link.game
    sides = selectors.game_sides(game)
    rules = services.game_table(game)
    entrant = _entrant(request, link)
    context = {
        "game": game,
        "token": link.token,
        "event": selectors.event_of(game),
        "seats": selectors.game_seats(game),
        "sides": sides,
        "entrant": entrant,
        "entrant_label": selectors.entrant_label(game, entrant.key) if entrant else "",
        "entered_rounds": selectors.entrant_rounds(game, entrant.key) if entrant else [],
        "versions": selectors.version_rows(game),
        "to_confirm": [
            v for v in selectors.open_versions(game) if entrant and v.entered_by != entrant.key
        ],
        "sheet_form": forms.get("sheet_form") or SheetForm(sides=sides, rounds=rules.rules.rounds),
        "log_form": forms.get("log_form") or LogUploadForm(),
        "rules_spec": rules.rules_spec,
        "players": len(rules.players),
        "flagged": selectors.flagged_submissions(game),
    }
    return render(request, "games/game.html", context, status=status)


def play_game(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_early(request, token)
    if isinstance(link, HttpResponse):
        return link
    return _page(request, link)


def _submit(request: HttpRequest, link: selectors.TableLink, document: Any, key: str) -> None:
    """Store the document (raises ResultRefused when it is not)."""
    game = link.game
    entrant = _entrant(request, link)
    if entrant is None:
        raise ResultRefused("OLD_TABLE_LINK", services.OLD_LINK_MESSAGE)
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


@require_POST
def submit_sheet(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_early(request, token)
    if isinstance(link, HttpResponse):
        return link
    game = link.game
    form = SheetForm(
        request.POST,
        sides=selectors.game_sides(game),
        rounds=services.game_table(game).rules.rounds,
    )
    if not form.is_valid():
        return _page(request, link, status=400, sheet_form=form)
    try:
        _submit(request, link, form.sheet(), form.cleaned_data["idempotency_key"])
    except ResultRefused as refused:
        form.add_error(None, f"{refused.message} ({refused.code})")
        return _page(request, link, status=refused.http_status, sheet_form=form)
    return redirect("play-game", token=token)


@require_POST
def upload_log(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_early(request, token)
    if isinstance(link, HttpResponse):
        return link
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, link, status=400, log_form=form)
    upload = form.cleaned_data["log"]
    try:
        if upload.size > MAX_LOG_BYTES:
            raise ResultRefused("TOO_LARGE", "The file is larger than 2 MB; is it a move log?")
        document = parse_document(upload.read())
        _submit(request, link, document, form.cleaned_data["idempotency_key"])
    except EngineError as err:
        form.add_error("log", f"{err.message} ({err.code})")
        return _page(request, link, status=400, log_form=form)
    except ResultRefused as refused:
        form.add_error("log", f"{refused.message} ({refused.code})")
        return _page(request, link, status=refused.http_status, log_form=form)
    return redirect("play-game", token=token)


@require_POST
def confirm_result(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_early(request, token)
    if isinstance(link, HttpResponse):
        return link
    game = link.game
    form = ConfirmForm(request.POST)
    entrant = _entrant(request, link)
    if not form.is_valid() or entrant is None:
        messages.error(request, "Confirm the figures shown with the button below them.")
        return redirect("play-game", token=token)
    try:
        services.result_confirm(
            game=game, version_number=form.cleaned_data["version"], entrant=entrant
        )
    except ResultRefused as refused:
        messages.error(request, refused.message)
        return redirect("play-game", token=token)
    messages.success(request, "Thank you: the result is confirmed.")
    return redirect("play-game", token=token)
