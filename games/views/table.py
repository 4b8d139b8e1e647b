"""Table-side result entry, no account needed: /play/ (code), /play/<token>/ (the game's page).

Each side of a table has its own link and code (the table card prints both). Who enters, and for
which side, is decided by `services.entrant_for`: a signed-in scorer or director as
themselves, else the link's own side, else a signed-in player's seat. Links work only for their
own game and only while the event runs.

The page never loses a round: after a save it offers the next unsaved round; saving over a
saved round needs an explicit "Replace round N" with both versions shown; every refusal keeps
what was typed. Messages are the table's words (`games.wording`).

Long on purpose: one page and its actions (sheet, log, confirm, withdraw, dispute) share the
visit, its checks and the page's context; each action is a short function of its own.
"""

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import DomainError, Invalid
from games import logmap, replays, selectors, services
from games.errors import Code, refusal
from games.forms import (
    CodeForm,
    ConfirmForm,
    DisputeForm,
    LogMappingForm,
    LogUploadForm,
    SheetForm,
    sheet_initial,
)
from games.selectors.table_clocks import table_clock_context
from games.services import Entrant
from games.wording import TableWords, table_words
from handfoot.checking import parse_document
from handfoot.errors import EngineError
from league.models import Game
from league.time_zones import club_zone_activate
from web.http import refusal_status
from web.throttling import page_lookup_throttled

PENDING_LOG_KEY = "pending_log:{token}"
SERVICE_WORKER_VERSION = "1"


def service_worker(request: HttpRequest) -> HttpResponse:
    """The table page's service worker, from /play/ so that its scope is the table pages (a
    script under /static/ could only control /static/). Static script: no inline code."""
    context = {
        "scope": reverse("play-home"),
        "static_prefix": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
        "version": SERVICE_WORKER_VERSION,
    }
    response = render(request, "games/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a new version reaches phones at their next visit
    return response


@page_lookup_throttled
def play_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.POST or None)
    if form.is_valid():
        link = selectors.table_link_by_code(code=form.cleaned_data["code"])
        if link is not None:
            return redirect("play-game", token=link.token)
        # A guess: counted by the lookup throttle (page_lookup_throttled reads the mark back).
        request.lookup_failed = True  # type: ignore[attr-defined]  # HttpRequest declares none
        form.add_error("code", "No table has this code. Check the table card.")
    return render(request, "games/play_home.html", {"form": form})


def _link(token: str) -> selectors.TableLink:
    link = selectors.table_link_by_token(token=token)
    if link is None:
        raise Http404("No game has this link.")
    club_zone_activate(link.game.table.rotation.event.club)  # times as the result mail gave them
    return link


@dataclass(frozen=True)
class Visit:
    """One request at a table link: the link, the game's table (read once, with the event's
    rules parsed once) and who is entering (decided once), passed to everything the request
    does."""

    link: selectors.TableLink
    table: selectors.GameTable
    entrant: Entrant

    @property
    def game(self) -> Game:
        return self.link.game


def _disputing_visit(request: HttpRequest, link: selectors.TableLink) -> Visit | None:
    """After the night, the link still opens its confirmed result while the result mail's
    dispute window is open: to read it and dispute it, nothing else (the page offers no entry)."""
    game = link.game
    if game.status != Game.Status.CONFIRMED:
        return None
    if not selectors.dispute_open(version=selectors.game_current_version(game=game)):
        return None
    entrant = services.dispute_entrant_for(game=game, user=request.user, link=link)
    if entrant is None:
        return None
    return Visit(link=link, table=selectors.game_table(game=game), entrant=entrant)


def _link_or_early(
    request: HttpRequest, token: str, *, disputing: bool = False
) -> Visit | HttpResponse:
    """The request's visit, or the page saying why this link enters nothing now (its event is
    not running: a scorer or director of the club may still enter). `disputing`: the page of a
    confirmed result still opens, for its dispute, until the result mail's deadline."""
    link = _link(token)
    game = link.game
    try:
        entrant = services.entrant_for(game=game, user=request.user, link=link)
    except DomainError as closed:
        visit = _disputing_visit(request, link) if disputing else None
        if visit is not None:
            return visit
        return render(
            request,
            "games/closed.html",
            {"game": game, "message": closed.message},
            status=refusal_status(closed),
        )
    if entrant is None:  # a link always enters for its side
        raise RuntimeError("a side link without its entrant")
    return Visit(link=link, table=selectors.game_table(game=game), entrant=entrant)


def words_for(
    game: Game, refused: DomainError | EngineError, table: selectors.GameTable | None = None
) -> TableWords:
    """A refusal in the table's words, with the players' names for seats and sides (`table`:
    the game's, when the request has read it)."""
    engine = None
    if isinstance(refused, EngineError):
        engine = refused.to_dict()
    elif isinstance(refused.details, dict):
        engine = refused.details
    table = table or selectors.game_table(game=game)
    seats = table.seat_names
    sides = [side.label for side in table.side_seats]
    if engine and "message" in engine:
        return table_words(
            str(engine["code"]),
            engine["message"],
            round=engine.get("round"),
            event=engine.get("event"),
            seat_names=seats,
            side_names=sides,
        )
    return table_words(str(refused.code), refused.message, seat_names=seats, side_names=sides)


def _sheet_form(
    table: selectors.GameTable,
    data: Any = None,
    saved: list[dict[str, Any]] | None = None,
    **kwargs: Any,
) -> SheetForm:
    return SheetForm(
        data,
        sides=table.side_seats,
        rules=table.rules,
        saved_rounds=[r["round"] for r in saved or []],
        **kwargs,
    )


def _asked_round(request: HttpRequest, rounds: int) -> int | None:
    """The round a scorer chose to look at again (?round=N, 1..rounds), else None."""
    raw = request.GET.get("round", "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 3 and 1 <= int(raw) <= rounds:
        return int(raw)
    return None


def _round_details(sides: list, version: Any) -> list[dict[str, Any]]:
    """Each round of a version with every figure (books, red 3s, points, went out)."""
    return [
        {
            "round": r["round"],
            "scores": [side["score"] for side in r["sides"]],
            "rows": selectors.round_comparison(sides=sides, versions=[("", r)]),
        }
        for r in version.rounds
    ]


def _default_sheet(
    request: HttpRequest, visit: Visit, saved: list[dict[str, Any]],
    latest: dict[int, tuple[Any, dict[str, Any]]],
) -> tuple[SheetForm | None, int | None]:
    """The sheet the page opens with: a saved round chosen again opens with its saved figures;
    once every round is saved, no sheet (each round can be opened again), else the next one."""
    table = visit.table
    rounds = table.rules.rounds
    asked = _asked_round(request, rounds)
    if asked is not None and asked in latest:
        return _sheet_form(table, saved=saved, initial=sheet_initial(latest[asked][1])), asked
    if asked is None and len(latest) >= rounds:
        return None, None
    form = _sheet_form(table, saved=saved, initial={"round": asked} if asked else {})
    return form, None


def _known_users(entrant: Entrant, record: selectors.GameRecord) -> dict[str, Any]:
    """The users the page names, by entrant key, as already read: those of the versions and the
    signed-in one entering (their names need no query)."""
    users = record.users
    if entrant.account is not None and entrant.key == f"user:{entrant.account.pk}":
        users[entrant.key] = entrant.account
    return users


def _dispute_context(
    visit: Visit, decided: Any, form: DisputeForm | None
) -> dict[str, Any]:
    """What the confirmed result's page says about disputing it: until when (the result mail's
    promise), this side's disputes of it so far, and the form while the window is open."""
    if decided is None:
        return {}
    side = visit.entrant.side
    mine = [
        entry
        for entry in selectors.game_disputes(game=visit.game, version=decided)
        if side is not None and entry.data.get("side") == side
    ]
    can = side is not None and selectors.dispute_open(version=decided)
    return {
        "dispute_until": selectors.dispute_open_until(version=decided),
        "disputed": mine,
        "dispute_form": (form or DisputeForm()) if can else None,
    }


def _page(request: HttpRequest, visit: Visit, *, status: int = 200, **extra: Any) -> HttpResponse:
    game, table, entrant = visit.game, visit.table, visit.entrant
    sides = table.side_seats
    # The game's versions and submissions, read once for everything below.
    record = selectors.game_record(game=game)
    users = _known_users(entrant, record)
    latest = selectors.entry_latest_rounds(game=game, entrant=entrant.key, record=record)
    saved = selectors.entry_rounds(game=game, entrant=entrant.key, latest=latest)
    comparison = selectors.dispute_comparison(game=game, sides=sides, record=record, users=users)
    sheet_form = extra.pop("sheet_form", None)
    reopened = None
    if sheet_form is None:
        sheet_form, reopened = _default_sheet(request, visit, saved, latest)
    decided = (
        selectors.game_current_version(game=game, record=record)
        if game.status == Game.Status.CONFIRMED
        else None
    )
    dispute = _dispute_context(visit, decided, extra.pop("dispute_form", None))
    context = {
        "game": game,
        "token": visit.link.token,
        "event": table.event,
        "seats": table.seats,
        "sides": sides,
        "entrant": entrant,
        "entrant_side": entrant.side + 1 if entrant.side is not None else None,
        "entrant_label": selectors.entrant_label(
            game=game, entrant=entrant.key, sides=sides, users=users
        ),
        "entered_rounds": saved,
        "entered_totals": [sum(col) for col in zip(*(r["scores"] for r in saved), strict=True)]
        if saved
        else [],
        "rounds": table.rules.rounds,
        "versions": selectors.game_version_rows(game=game, sides=sides, record=record, users=users),
        "to_confirm": [
            {"version": v, "details": _round_details(sides, v)}
            for v in selectors.game_open_versions(game=game, record=record)
            if v.entered_by != entrant.key and v.status == "entered"
        ],
        "decided": {"version": decided, "details": _round_details(sides, decided), **dispute}
        if decided
        else None,
        "comparison": comparison,
        "sheet_form": sheet_form,
        "reopened": reopened,
        "log_form": extra.pop("log_form", None) or LogUploadForm(),
        "flags": selectors.game_flag_lines(game=game, sides=sides, record=record),
        **replays.game_story_context(game=game),
        **table_clock_context(table_id=game.table_id, round_minutes=game.table.rotation.event.round_minutes),
        **extra,
    }
    return render(request, "games/game.html", context, status=status)


@page_lookup_throttled
def play_game(request: HttpRequest, token: str) -> HttpResponse:
    visit = _link_or_early(request, token, disputing=True)
    if isinstance(visit, HttpResponse):
        return visit
    return _page(request, visit)


def _submit(request: HttpRequest, visit: Visit, document: Any, key: str) -> None:
    """Store the document (raises DomainError when it is not)."""
    game, entrant = visit.game, visit.entrant
    submission, created = services.submission_create(
        game=game, document=document, entrant=entrant, idempotency_key=key, table=visit.table
    )
    if created:
        # The entry's transaction left the game's status on the row it locked and wrote.
        game.status, game.played_at = submission.game.status, submission.game.played_at
    else:
        game.refresh_from_db()
    if submission.round_number:
        what = f"Round {submission.round_number} is saved"
        saved = selectors.entry_rounds(game=game, entrant=entrant.key)
        rounds = visit.table.rules.rounds
        left = [n for n in range(1, rounds + 1) if n not in {r["round"] for r in saved}]
        after = f" Now round {left[0]}." if left else " Every round is entered."
    else:
        what, after = "The move log is saved", ""
    messages.success(
        request,
        f"{what}{'' if created else ' (it had already arrived)'}.{after} "
        f"Result: {game.get_status_display().lower()}.",
    )


def _refused_sheet(
    request: HttpRequest, visit: Visit, form: SheetForm, refused: DomainError
) -> HttpResponse:
    """The page again with what was typed, the problem next to its field."""
    words = words_for(visit.game, refused, visit.table)
    field = words.field if words.field in form.fields else None
    form.add_error(field, words.text)
    return _page(
        request, visit, status=refusal_status(refused), sheet_form=form, details=words.details
    )


def _replace_check(visit: Visit, form: SheetForm) -> dict[str, Any] | None:
    """The saved round a new sheet would replace (None when nothing is replaced)."""
    if form.cleaned_data.get("replace"):
        return None
    if form.cleaned_data.get("reopened") == form.cleaned_data["round"]:
        return None  # saved from "Open round N again": the scorer chose to change that round
    number = form.cleaned_data["round"]
    saved = next(
        (
            r
            for r in selectors.entry_rounds(game=visit.game, entrant=visit.entrant.key)
            if r["round"] == number
        ),
        None,
    )
    # Asked only when the round is saved (a new round, the usual case, needs no such read).
    if saved is not None and selectors.submission_exists(
        idempotency_key=form.cleaned_data["idempotency_key"]
    ):
        return None  # a resend of a saved round (double click, reconnect): replayed as it was
    return saved


@require_POST
@page_lookup_throttled
def submit_sheet(request: HttpRequest, token: str) -> HttpResponse:
    visit = _link_or_early(request, token)
    if isinstance(visit, HttpResponse):
        return visit
    form = _sheet_form(visit.table, request.POST)
    if not form.is_valid():
        return _page(request, visit, status=400, sheet_form=form)
    saved_round = _replace_check(visit, form)
    if saved_round is not None:
        return _replace_page(request, visit, form, saved_round)
    try:
        _submit(request, visit, form.sheet(), form.cleaned_data["idempotency_key"])
    except DomainError as refused:
        return _refused_sheet(request, visit, form, refused)
    return redirect("play-game", token=token)


def _replace_page(
    request: HttpRequest, visit: Visit, form: SheetForm, saved_round: dict[str, Any]
) -> HttpResponse:
    """Saving over a saved round: show both versions and ask for "Replace round N"."""
    table = visit.table
    number = saved_round["round"]
    typed = form.sheet()
    try:
        checked = services.document_check(
            document=services.document_prepare(document=typed, table=table), rules=table.rules
        )
    except DomainError as refused:
        return _refused_sheet(request, visit, form, refused)
    rows = selectors.round_comparison(
        sides=table.side_seats,
        versions=[("saved", saved_round), ("typed", checked["rounds"][0])],
    )
    form.add_error(None, table_words("REPLACE_NOT_CONFIRMED", round=number).text)
    return _page(
        request,
        visit,
        status=409,
        sheet_form=form,
        replacing={"round": number, "rows": rows},
    )


def _pending_key(token: str) -> str:
    return PENDING_LOG_KEY.format(token=token)


@require_POST
@page_lookup_throttled
def upload_log(request: HttpRequest, token: str) -> HttpResponse:
    visit = _link_or_early(request, token)
    if isinstance(visit, HttpResponse):
        return visit
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, visit, status=400, log_form=form)
    upload = form.cleaned_data["log"]
    document = None
    try:
        if upload.size > services.MAX_DOCUMENT_BYTES:
            raise refusal(
                Invalid, Code.TOO_LARGE, megabytes=services.MAX_DOCUMENT_BYTES // 1_000_000
            )
        document = parse_document(upload.read())
        _submit(request, visit, document, form.cleaned_data["idempotency_key"])
    except (EngineError, DomainError) as refused:
        seats = len(visit.table.seats)
        if str(refused.code) in logmap.MAPPABLE and logmap.can_map(document, seats):
            request.session[_pending_key(token)] = document
            return redirect("play-log-map", token=token)
        words = words_for(visit.game, refused, visit.table)
        form.add_error("log", words.text)
        status = refusal_status(refused) if isinstance(refused, DomainError) else 400
        return _page(request, visit, status=status, log_form=form, log_details=words.details)
    return redirect("play-game", token=token)


@page_lookup_throttled
def log_map(request: HttpRequest, token: str) -> HttpResponse:
    """A move log whose seats or first dealer differ from the table's: say which log seat is
    which player (a turn of the table), then it is checked like any other log."""
    visit = _link_or_early(request, token)
    if isinstance(visit, HttpResponse):
        return visit
    game = visit.game
    document = request.session.get(_pending_key(token))
    if document is None:
        messages.error(request, "Upload the move log again.")
        return redirect("play-game", token=token)
    seats = visit.table.seats
    options = logmap.turn_options(document, [s.player.name for s in seats], game.first_dealer)
    form = LogMappingForm(request.POST or None, options=options)
    words = None
    if request.method == "POST" and form.is_valid():
        mapped = logmap.turned(document, form.cleaned_data["turn"], [s.player.slug for s in seats])
        try:
            _submit(request, visit, mapped, form.cleaned_data["idempotency_key"])
        except (EngineError, DomainError) as refused:
            words = words_for(game, refused, visit.table)
            form.add_error(None, words.text)
        else:
            request.session.pop(_pending_key(token), None)
            return redirect("play-game", token=token)
    context = {
        "game": game,
        "token": token,
        "event": visit.table.event,
        "form": form,
        "options": options,
        "log_seats": document.get("seats") or [],
        "details": words.details if words else "",
    }
    return render(request, "games/log_map.html", context, status=400 if words else 200)


@require_POST
@page_lookup_throttled
def check_sheet(request: HttpRequest, token: str) -> JsonResponse:
    """The live check of the sheet being typed: each side's score, or the problem in words."""
    visit = _link_or_early(request, token)
    if isinstance(visit, HttpResponse):
        return JsonResponse({"valid": False}, status=visit.status_code)
    return sheet_check_response(visit.game, request.POST, table=visit.table)


def sheet_check_response(
    game: Game, data: Any, prefix: str | None = None, table: selectors.GameTable | None = None
) -> JsonResponse:
    table = table or selectors.game_table(game=game)
    form = _sheet_form(table, data, prefix=prefix)
    if not form.is_valid():
        errors = {name: " ".join(str(m) for m in e) for name, e in form.errors.items()}
        return JsonResponse({"valid": False, "errors": errors})
    try:
        report = services.document_check(
            document=services.document_prepare(document=form.sheet(), table=table),
            rules=table.rules,
        )
    except DomainError as refused:
        words = words_for(game, refused, table)
        field = words.field if words.field in form.fields else "__all__"
        return JsonResponse(
            {"valid": False, "errors": {field: words.text}, "details": words.details}
        )
    sides = report["rounds"][0]["sides"]
    return JsonResponse({"valid": True, "scores": [side["score"] for side in sides]})


@require_POST
@page_lookup_throttled
def confirm_result(request: HttpRequest, token: str) -> HttpResponse:
    visit = _link_or_early(request, token)
    if isinstance(visit, HttpResponse):
        return visit
    game = visit.game
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Confirm the figures shown with the button below them.")
        return redirect("play-game", token=token)
    try:
        services.result_confirm(
            game=game,
            version_number=form.cleaned_data["version"],
            entrant=visit.entrant,
            table=visit.table,
        )
    except DomainError as refused:
        messages.error(request, words_for(game, refused, visit.table).text)
        return redirect("play-game", token=token)
    messages.success(request, "Thank you: the result is confirmed.")
    return redirect("play-game", token=token)


@require_POST
@page_lookup_throttled
def dispute_result(request: HttpRequest, token: str) -> HttpResponse:
    """A side disputes its confirmed result, saying what is wrong: until the time the result
    mail promised, even after the night (the only thing the link still does then)."""
    link = _link(token)
    game = link.game
    try:
        entrant = services.dispute_entrant_for(game=game, user=request.user, link=link)
    except DomainError as refused:
        return render(request, "games/closed.html", {"game": game, "message": refused.message},
                      status=refusal_status(refused))
    if entrant is None:  # a link always disputes for its side
        raise RuntimeError("a side link without its entrant")
    form = DisputeForm(request.POST)
    try:
        if not form.is_valid():
            raise refusal(Invalid, Code.DISPUTE_REASON_REQUIRED)
        services.result_dispute(game=game, entrant=entrant, reason=form.cleaned_data["reason"])
    except DomainError as refused:
        if str(refused.code) == Code.DISPUTE_REASON_REQUIRED:
            visit = Visit(link=link, table=selectors.game_table(game=game), entrant=entrant)
            if not form.errors:
                form.add_error("reason", refused.message)
            return _page(request, visit, status=400, dispute_form=form)
        messages.error(request, refused.message)
        return redirect("play-game", token=token)
    messages.success(
        request,
        "Thank you: the director can see that you dispute this result and why. The result "
        "stands until they correct it.",
    )
    return redirect("play-game", token=token)
