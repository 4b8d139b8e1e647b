"""Import many move logs into an event's games.

    python manage.py import_logs PATH... --event SLUG [--user USERNAME]

Each file (or each *.json in a folder) is one game's move log. The game is the one named by a
top-level "game" hint (its id or one of its sides' codes), else the event's game whose players
sit in the log's `seats` order (by player slug); among several, the one still waiting for a result.
Bad files are reported and skipped; the command exits non-zero if any failed. Re-running is
safe: a file already imported for a game is recognised and not entered twice.
"""

import hashlib
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.errors import DomainError
from games import services
from games.models import Submission
from games.selectors import event_games
from games.services import Entrant
from handfoot.checking import parse_document
from handfoot.errors import EngineError
from league.models import Event, Game, Seat
from league.services.credentials import code_normalise


class ImportFailed(Exception):
    pass


class Command(BaseCommand):
    help = "Check and import move logs (one game each) into an event's games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="Log files, or folders of *.json logs.")
        parser.add_argument("--event", required=True, help="The event's slug.")
        parser.add_argument("--user", help="Enter the results as this user (default: 'import').")

    def handle(
        self, *args: Any, paths: list[str], event: str, user: str | None, **options: Any
    ) -> None:
        the_event = Event.objects.filter(slug=event).first()
        if the_event is None:
            raise CommandError(f"No event has the slug {event!r}.")
        entrant = self._entrant(user)
        files = _expand(paths)
        games = _games_by_seats(the_event)
        failed = 0
        for path in tqdm(files, desc="Importing", unit="log", disable=options["verbosity"] == 0):
            try:
                outcome = _import_one(path, the_event, games, entrant)
            except ImportFailed as err:
                failed += 1
                tqdm.write(f"FAILED {path}: {err}", file=self.stderr._out)
            else:
                if options["verbosity"] > 1:
                    tqdm.write(f"ok {path}: {outcome}", file=self.stdout._out)
        summary = f"{len(files) - failed} of {len(files)} logs imported."
        if failed:
            raise CommandError(f"{summary} {failed} failed (see above).")
        self.stdout.write(self.style.SUCCESS(summary))

    def _entrant(self, username: str | None) -> Entrant:
        if username is None:
            return Entrant(key="import", via=Submission.Via.IMPORT)
        found = get_user_model().objects.filter(username=username).first()
        if found is None:
            raise CommandError(f"No user is called {username!r}.")
        return Entrant.for_user(found, via=Submission.Via.IMPORT)


def _expand(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return files


def _games_by_seats(event: Event) -> dict[tuple[str, ...], list[Game]]:
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__rotation__event=event).select_related("player"):
        seats.setdefault(seat.table_id, []).append(seat)
    found: dict[tuple[str, ...], list[Game]] = {}
    for game in event_games(event=event):
        order = sorted(seats.get(game.table_id, []), key=lambda s: s.seat_number)
        found.setdefault(tuple(s.player.slug for s in order), []).append(game)
    return found


def _import_one(path: Path, event: Event, games: dict, entrant: Entrant) -> str:
    try:
        raw = path.read_bytes()
        document = parse_document(raw)
    except OSError as err:
        raise ImportFailed(f"cannot read the file ({err.strerror})") from None
    except EngineError as err:
        raise ImportFailed(f"{err.code}: {err.message}") from None
    if not isinstance(document, dict):
        raise ImportFailed("BAD_FORMAT: a move log is a JSON object.")
    game = _game_for(document, event, games)
    document.pop("game", None)
    key = f"import:{game.pk}:{hashlib.sha256(raw).hexdigest()}"
    try:
        submission, created = services.submission_create(
            game=game, document=document, entrant=entrant, idempotency_key=key
        )
    except DomainError as refused:
        raise ImportFailed(f"{refused.code}: {refused.message}") from None
    game.refresh_from_db()
    state = "imported" if created else "already imported"
    return f"{state} as submission {submission.pk}, game {game.pk} is {game.status}"


def _game_for(document: dict[str, Any], event: Event, games: dict) -> Game:
    hint = document.get("game")
    if hint is not None:
        game = (
            event_games(event=event)
            .filter(
                **(
                    {"pk": hint}
                    if isinstance(hint, int)
                    else {"side_credentials__code": code_normalise(str(hint))}
                )
            )
            .first()
        )
        if game is None:
            raise ImportFailed(f"the event has no game {hint!r} (the log's `game` hint).")
        return game
    seats = document.get("seats")
    candidates = games.get(tuple(seats)) if isinstance(seats, list) else None
    if not candidates:
        raise ImportFailed(
            f"no table of {event.slug} seats {seats!r} in this order; add a `game` hint "
            "(game id or table code) or check the player identifiers."
        )
    waiting = [g for g in candidates if g.status != Game.Status.CONFIRMED]
    if len(candidates) > 1 and len(waiting) != 1:
        raise ImportFailed(
            f"{len(candidates)} games seat these players in this order; add a `game` hint."
        )
    return waiting[0] if len(candidates) > 1 else candidates[0]
