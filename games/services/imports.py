"""Import of past results from a club's spreadsheets (`games.spreadsheets` reads them): names
matched to the club's players as the paste registration matches them, the round detail checked
by the engine exactly as a table's sheet, and, when nothing is wrong, one finished league night
per date with its games and their confirmed results, all or nothing. Each result is marked as
imported (the file, sheet and row); a file already imported into the club changes nothing."""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import Invalid
from games import signals, spreadsheets
from games.errors import Code, refusal
from games.models import ImportProfile, ResultImport, ResultVersion
from games.services.documents import GameTable, document_check, document_prepare, event_rules
from games.services.projection import announcements_held, result_project
from games.spreadsheets import GameIn, Problem
from league.models import (
    Club,
    Event,
    Game,
    League,
    Player,
    Registration,
    Rotation,
    Season,
    Seat,
    Table,
)
from league.names import name_key
from league.selectors import player_matches
from league.services.audit import audit_record
from league.services.events import event_create
from league.services.players import player_create
from league.services.seasons import league_create, season_create

# The largest spreadsheet taken (the page's uploads are bounded by the request limit too).
MAX_IMPORT_BYTES = 2_000_000
NEW_PLAYER = "new"
# An uploaded file waits in the cache between the page's steps and for the import's job.
UPLOAD_SECONDS = 3600


def _upload_key(club: Club, token: str) -> str:
    return f"results-import:{club.pk}:{token}"


def upload_keep(*, club: Club, file_name: str, data: bytes) -> str:
    """Keep an uploaded file for the next steps (an hour); returns its token."""
    token = secrets.token_urlsafe(16)
    cache.set(_upload_key(club, token), (file_name, data), UPLOAD_SECONDS)
    return token


def upload_get(*, club: Club, token: str) -> tuple[str, bytes] | None:
    """(name, bytes) of the file kept under `token`, or None when it is gone."""
    found = cache.get(_upload_key(club, token)) if token else None
    return (str(found[0]), bytes(found[1])) if found else None


def upload_forget(*, club: Club, token: str) -> None:
    cache.delete(_upload_key(club, token))


@dataclass
class ImportPlan:
    """What a file would import into a club, and every problem that stops it."""

    file_name: str
    digest: str
    games: list[GameIn] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    unknown_headers: list[str] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)  # name key → existing player
    new_players: list[str] = field(default_factory=list)
    # A name as written that is close to players of the club (but not theirs) → those players.
    close_names: dict[str, list[Player]] = field(default_factory=dict)
    already: ResultImport | None = None
    imported: ResultImport | None = None
    day_first: bool | None = None
    rounds: dict[int, list[dict]] = field(default_factory=dict)  # id(game) → version rounds

    @property
    def importable(self) -> bool:
        return not self.problems and self.already is None

    @property
    def game_count(self) -> int:
        return len(self.games)

    def nights(self) -> list[tuple[datetime.date, int, bool]]:
        """(date, games, all of them with detail) per night, in date order."""
        by_date: dict[datetime.date, list[GameIn]] = defaultdict(list)
        for game in self.games:
            by_date[game.date].append(game)
        return [(d, len(g), all(x.has_detail for x in g)) for d, g in sorted(by_date.items())]

    def summary(self) -> str:
        if self.already is not None:
            return (f"{self.file_name} was already imported on "
                    f"{self.already.created_at:%-d %b %Y}: nothing changed.")
        nights = self.nights()
        what = (f"{len(self.games)} games on {len(nights)} nights, "
                f"{len(self.new_players)} new players")
        if self.problems:
            return f"{self.file_name} cannot be imported: {len(self.problems)} problems. ({what})"
        return f"{self.file_name}: {what}" + (" imported." if self.imported else " to import.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file_name, "importable": self.importable,
            "already_imported": self.already is not None, "imported": self.imported is not None,
            "summary": self.summary(),
            "nights": [{"date": d.isoformat(), "games": n, "detail": detail}
                       for d, n, detail in self.nights()],
            "games": len(self.games), "new_players": self.new_players,
            "problems": [p.to_dict() for p in self.problems],
        }


def header_mapping(*, club: Club, headers: list[str]) -> dict[str, str]:
    """The director's mapping remembered for a file with these headers (normalised header →
    kind)."""
    profile = ImportProfile.objects.filter(club=club).first()
    maps = profile.header_maps if profile else {}
    return dict(maps.get(spreadsheets.headers_signature(headers), {}))


def mapping_saved(*, club: Club) -> dict[str, str]:
    """Every header's meaning the club's directors told the import page, whatever file it was
    told for (normalised header → kind): `manage.py import_results --profile CLUB`."""
    profile = ImportProfile.objects.filter(club=club).first()
    merged: dict[str, str] = {}
    for told in (profile.header_maps if profile else {}).values():
        merged.update(told)
    return merged


def mapping_parse(*, text: str) -> dict[str, str]:
    """A mapping written inline, "Pts=score, Who=team" (header=kind, a kind as the import page
    names them: `games.spreadsheets.KIND_WORDS`), as normalised header → kind."""
    mapping: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        header, _, kind = item.rpartition("=")
        if not header.strip() or kind.strip() not in spreadsheets.KIND_WORDS:
            raise refusal(Invalid, Code.IMPORT_BAD_MAPPING)
        mapping[spreadsheets.normalised(header)] = kind.strip()
    return mapping


def header_mapping_remember(*, club: Club, headers: list[str], mapping: dict[str, str]) -> None:
    unknown = set(mapping.values()) - set(spreadsheets.KIND_WORDS)
    if unknown:
        raise refusal(Invalid, Code.IMPORT_BAD_MAPPING)
    with transaction.atomic():
        profile, _ = ImportProfile.objects.select_for_update().get_or_create(club=club)
        profile.header_maps[spreadsheets.headers_signature(headers)] = {
            spreadsheets.normalised(h): kind for h, kind in mapping.items()}
        profile.save(update_fields=["header_maps"])


class OverLimits(Invalid):
    """The file is over the reading's `spreadsheets.Limits` (said in words, as any refusal of
    an unreadable file): the import page has a file over the preview's read in a job."""


def _read(data: bytes, file_name: str,
          limits: spreadsheets.Limits = spreadsheets.IMPORT) -> list[spreadsheets.Sheet]:
    if len(data) > MAX_IMPORT_BYTES:
        raise refusal(Invalid, Code.IMPORT_TOO_LARGE, megabytes=MAX_IMPORT_BYTES // 1_000_000)
    try:
        return spreadsheets.read_workbook(data, file_name, limits)
    except spreadsheets.Unreadable as err:
        kind = OverLimits if isinstance(err, spreadsheets.TooLarge) else Invalid
        raise refusal(kind, Code.IMPORT_UNREADABLE, reason=str(err)) from None


def _match_names(plan: ImportPlan, club: Club, choices: dict[str, str]) -> None:
    """Each name to an existing player (same name), a chosen one, or a new player; a close
    name without a choice is a problem (never merged silently)."""
    by_id = {p.pk: p for p in club.players.all()}
    written: dict[str, tuple[str, GameIn, spreadsheets.SideIn]] = {}
    for game in plan.games:
        for side in game.sides:
            for name in side.names:
                written.setdefault(name_key(name), (name, game, side))
    for key, (name, game, side) in written.items():
        choice = choices.get(name) or choices.get(key)
        matches = player_matches(club=club, name=name)
        if matches and not matches[0].exact:
            plan.close_names[name] = [m.player for m in matches]
        if choice == NEW_PLAYER:
            plan.new_players.append(name)
        elif choice and choice.isdigit() and int(choice) in by_id:
            plan.players[key] = by_id[int(choice)]
        elif matches and matches[0].exact:
            plan.players[key] = matches[0].player
        elif matches:
            row, column = side.where["names"]
            offers = " or ".join(f"\u201c{m.player.name}\u201d" for m in matches)
            plan.problems.append(Problem(
                game.sheet, row, column,
                f"\u201c{name}\u201d is not a player of the club, but close to {offers}: say "
                "whether it is one of them or a new player."))
        else:
            plan.new_players.append(name)


def _table(rules_spec: Any) -> GameTable:
    return GameTable(rules=_rules(rules_spec), rules_spec=rules_spec,
                     players=["p1", "p2", "p3", "p4"], player_ids=[0, 0, 0, 0], sides=2)


def _rules(rules_spec: Any) -> Any:
    return event_rules(event=Event(rules_preset=rules_spec))


def _detail_round(game: GameIn, number: int, table: GameTable) -> tuple[dict | None, Problem | None]:
    sides = []
    for side in game.sides:
        figures = dict(side.detail[number])
        figures["score"] = side.rounds[number]
        sides.append(figures)
    sheet = {"format": "hand-and-foot-sheet/1", "round": number, "sides": sides,
             "ended_by": "went_out" if any(s["went_out"] for s in sides) else "stock_out"}
    try:
        report = document_check(document=document_prepare(document=sheet, table=table))
    except Invalid as refused:
        # The cell of the side the engine names (its round's score), else the first side's.
        named = re.search(r"\bSide (\d+)\b", refused.message)
        index = int(named.group(1)) - 1 if named else 0
        side = game.sides[index] if 0 <= index < len(game.sides) else game.sides[0]
        row, column = side.where[f"round:{number}"]
        return None, Problem(game.sheet, row, column,
                             f"round {number}'s detail is refused as a table's sheet would be: "
                             f"{refused.message}")
    return report["rounds"][0], None


def _version_rounds(game: GameIn, table: GameTable) -> tuple[list[dict], list[Problem]]:
    """The rounds a result version stores: the engine's rounds for detail, scores alone for a
    totals-only result (round 0 when only the game's total is known)."""
    rounds = sorted(game.sides[0].rounds)
    if not rounds:
        return [{"round": 0, "ended_by": "", "seats": [], "detail": False,
                 "sides": [{"score": s.total} for s in game.sides]}], []
    if rounds != list(range(1, table.rules.rounds + 1)):
        return [], [Problem(game.sheet, game.row, None,
                            f"a game has rounds 1 to {table.rules.rounds}; this one has "
                            f"rounds {', '.join(map(str, rounds))}.")]
    if game.has_detail:
        found = [_detail_round(game, n, table) for n in rounds]
        problems = [p for _, p in found if p]
        return [r for r, _ in found if r], problems
    return [{"round": n, "ended_by": "", "seats": [], "detail": False,
             "sides": [{"score": s.rounds[n]} for s in game.sides]} for n in rounds], []


def _place_checks(plan: ImportPlan) -> None:
    """A table twice in a rotation, or a player at two tables of one rotation."""
    tables: dict[tuple, GameIn] = {}
    players: dict[tuple, GameIn] = {}
    for game in plan.games:
        key = (game.date, game.rotation, game.table)
        if key in tables:
            plan.problems.append(Problem(game.sheet, game.row, None,
                                         f"table {game.table} of rotation {game.rotation} on "
                                         f"{game.date:%-d %b %Y} is already on row "
                                         f"{tables[key].row} ({tables[key].sheet})."))
        tables[key] = game
        for side in game.sides:
            for name in side.names:
                where = (game.date, game.rotation, name_key(name))
                if where in players and players[where] is not game:
                    row, column = side.where["names"]
                    plan.problems.append(Problem(
                        game.sheet, row, column,
                        f"\u201c{name}\u201d also plays at table {players[where].table} in the "
                        f"same rotation (row {players[where].row})."))
                players[where] = game


def _games_digest(games: list[GameIn]) -> str:
    canonical = json.dumps(
        [[g.date.isoformat(), g.rotation, g.table,
          [[sorted(name_key(n) for n in s.names), sorted(s.rounds.items()), s.total,
            sorted(s.detail.items())] for s in g.sides]] for g in games],
        sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def results_import_plan(*, club: Club, file_name: str, data: bytes,
                        mapping: dict[str, str] | None = None, day_first: bool | None = None,
                        choices: dict[str, str] | None = None,
                        today: datetime.date | None = None,
                        limits: spreadsheets.Limits = spreadsheets.IMPORT,
                        season_name: str | None = None) -> ImportPlan:
    """Read (within `limits`: `spreadsheets.PREVIEW` in a web request) and check a file
    against the club without storing anything."""
    file_name = (file_name or "results").rsplit("/", 1)[-1][:255]
    plan = ImportPlan(file_name=file_name, digest=hashlib.sha256(data).hexdigest())
    sheets = _read(data, file_name, limits)
    plan.headers = spreadsheets.file_headers(sheets)
    mapping = {**header_mapping(club=club, headers=plan.headers), **(mapping or {})}
    plan.unknown_headers = spreadsheets.unknown_headers(sheets, mapping)
    profile = ImportProfile.objects.filter(club=club).first()
    plan.day_first = day_first if day_first is not None else (profile.day_first if profile else None)
    plan.games, plan.problems = spreadsheets.sheets_games(
        sheets, mapping=mapping, day_first=plan.day_first, today=today or timezone.localdate(),
        year=_season_year(club, season_name))
    if not plan.games and not plan.problems:
        plan.problems.append(Problem(sheets[0].name if sheets else file_name, None, None,
                                     "the file holds no games."))
    if plan.games:
        # By what the file says, not its bytes: the same results saved again are the same file.
        plan.digest = _games_digest(plan.games)
    plan.already = ResultImport.objects.filter(club=club, digest=plan.digest).first()
    _place_checks(plan)
    _match_names(plan, club, choices or {})
    table = _table("classic")
    for game in plan.games:
        rounds, problems = _version_rounds(game, table)
        plan.problems += problems
        plan.rounds[id(game)] = rounds
    plan.problems.sort(key=lambda p: (p.sheet, p.row or 0))
    return plan


def _season_year(club: Club, name: str | None) -> int | None:
    """The year of the season the nights go in, for sheets dated without one ("Oct 13"): its
    name's ("Fall 2025"), else the year the club's season of that name starts; None: none."""
    if not name:
        return None
    found = re.search(r"\b(19|20)\d\d\b", name)
    if found:
        return int(found[0])
    season = Season.objects.filter(league__club=club, name__iexact=name.strip()).first()
    return season.starts_on.year if season is not None and season.starts_on else None


def _season(club: Club, name: str | None, first: datetime.date) -> Season | None:
    if not name:
        return None
    season = Season.objects.filter(league__club=club, name__iexact=name.strip()).first()
    if season is not None:
        return season
    league = League.objects.filter(club=club).first() or league_create(club=club, name=club.name)
    return season_create(league=league, name=name.strip(), starts_on=first)


def _store_game(event: Event, game: GameIn, rounds: list[dict], players: dict[str, Player],
                batch: ResultImport, user: User | None) -> None:
    rotation, _ = Rotation.objects.get_or_create(event=event, number=game.rotation_number,
                                                 defaults={"status": Rotation.Status.CLOSED})
    table = Table.objects.create(rotation=rotation, number=game.table)
    # Partners sit opposite: side 1 holds seats 1 and 3, side 2 seats 2 and 4.
    seated = [game.sides[0].names[0], game.sides[1].names[0], game.sides[0].names[1],
              game.sides[1].names[1]]
    for seat_number, name in enumerate(seated):
        Seat.objects.create(rotation=rotation, table=table, player=players[name_key(name)],
                            seat_number=seat_number, side=seat_number % 2)
    played = timezone.make_aware(datetime.datetime.combine(game.date, datetime.time(19)))
    result = Game.objects.create(table=table, first_dealer=0, played_at=played)
    detail = all(r.get("detail", True) for r in rounds)
    where = f"{batch.file_name}, {game.source}"
    ResultVersion.objects.create(
        game=result, number=1, status=ResultVersion.Status.CONFIRMED,
        rounds=[{**r, "source": {"import": batch.pk, "row": game.row}} for r in rounds],
        totals=[sum(s["score"] for s in (r["sides"][i] for r in rounds)) for i in range(2)],
        entered_by=f"import:{batch.pk}", entered_by_user=user, confirmed_at=timezone.now(),
        reason=f"Imported from {where}.", detail=detail, imported_from=where[:300])
    result_project(game=result)


def results_import(*, club: Club, file_name: str, data: bytes,
                   user: User | None = None, season_name: str | None = None,
                   mapping: dict[str, str] | None = None, day_first: bool | None = None,
                   choices: dict[str, str] | None = None, dry_run: bool = False,
                   today: datetime.date | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   limits: spreadsheets.Limits = spreadsheets.IMPORT) -> ImportPlan:
    """Check the file and, when nothing is wrong (and not `dry_run`), store it: all or nothing.
    Returns the plan (its `imported` set when stored; `already` when the file was imported
    before, then nothing changes). Problems are in the plan, never half stored. `progress` is
    told (games stored, games in all) as the games are stored."""
    plan = results_import_plan(club=club, file_name=file_name, data=data, mapping=mapping,
                               day_first=day_first, choices=choices, today=today, limits=limits,
                               season_name=season_name)
    if dry_run or not plan.importable:
        return plan
    try:
        with transaction.atomic():
            _store(plan, club, user, season_name, day_first, progress or _no_progress)
    except IntegrityError:
        # Race: the same file imported twice at once; the unique digest keeps one.
        plan.already = ResultImport.objects.filter(club=club, digest=plan.digest).first()
        plan.imported = None
    return plan


def _no_progress(done: int, total: int) -> None:
    pass


def _store(plan: ImportPlan, club: Club, user: User | None, season_name: str | None,
           day_first: bool | None, progress: Callable[[int, int], None]) -> None:
    batch = ResultImport.objects.create(club=club, file_name=plan.file_name, digest=plan.digest,
                                        user=user, summary=plan.to_dict())
    if day_first is not None:
        ImportProfile.objects.update_or_create(club=club, defaults={"day_first": day_first})
    players = dict(plan.players)
    for name in plan.new_players:
        players[name_key(name)] = player_create(club=club, name=name)
    nights = plan.nights()
    season = _season(club, season_name, nights[0][0])
    by_date: dict[datetime.date, list[GameIn]] = defaultdict(list)
    for game in plan.games:
        by_date[game.date].append(game)
    with announcements_held() as events:  # one announcement for the import, not one a game
        _store_nights(plan, club, user, season, by_date, batch, players, progress)
    club_id, event_ids = club.pk, sorted(events)
    transaction.on_commit(lambda: signals.results_imported.send(
        sender=ResultImport, club_id=club_id, event_ids=event_ids))
    batch.summary = plan.to_dict() | {"imported": True}
    batch.save(update_fields=["summary"])
    plan.imported = batch


def _store_nights(plan: ImportPlan, club: Club, user: User | None, season: Season | None,
                  by_date: dict[datetime.date, list[GameIn]], batch: ResultImport,
                  players: dict[str, Player], progress: Callable[[int, int], None]) -> None:
    stored = 0
    for date, games in sorted(by_date.items()):
        event = event_create(club=club, name=f"League night {date:%-d %b %Y}", date=date,
                             kind=Event.Kind.LEAGUE_NIGHT, season=season, seed=0,
                             planned_rotations=max(g.rotation_number for g in games), by=user)
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        entrants = {players[name_key(n)].pk for g in games for s in g.sides for n in s.names}
        Registration.objects.bulk_create(
            [Registration(event=event, player_id=p, checked_in=True) for p in sorted(entrants)])
        for game in sorted(games, key=lambda g: (g.rotation, g.table)):
            _store_game(event, game, plan.rounds[id(game)], players, batch, user)
            stored += 1
            if stored % 20 == 0:
                progress(stored, len(plan.games))
        Rotation.objects.filter(event=event).update(status=Rotation.Status.CLOSED)
        audit_record(club=club, event=event, user=user, action="results_import",
                     summary=f"Imported {len(games)} games from {plan.file_name}.")
