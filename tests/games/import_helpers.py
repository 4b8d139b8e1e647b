"""Past results for the import tests: a club's two nights as seeded, legal score sheets, written
out as the spreadsheets clubs keep (six layouts), and the same results entered at the tables."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import random
from dataclasses import dataclass, field

import openpyxl
import pandas as pd
from django.utils import timezone

from analytics.models import PlayerRating, StandingsSnapshot
from analytics.ratings import services as ratings
from analytics.standings import services as standings
from games import services
from games.services import Entrant
from handfoot.checking import check_document
from league.models import Club, Event
from league.services.events import event_create
from league.services.players import player_create
from tests.factories import make_game
from tests.games.factories import SEED_SIDES

NAMES = ["Ann Lee", "Bob Ray", "Cat Ng", "Dan Oak", "Eve Fox", "Fay Hill", "Gus Poe", "Hal Wu"]
# Per rotation, each table's seats as (side 1's players, side 2's players), by index in NAMES.
SEATINGS = [
    [((0, 1), (2, 3)), ((4, 5), (6, 7))],
    [((0, 2), (4, 6)), ((1, 3), (5, 7))],
]


@dataclass
class PastGame:
    date: datetime.date
    rotation: int
    table: int
    sides: tuple[tuple[str, str], tuple[str, str]]
    sheets: list[dict] = field(default_factory=list)  # one legal score sheet per round
    scores: list[tuple[int, int]] = field(default_factory=list)  # per round, side 1 and 2

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(s[0] for s in self.scores), sum(s[1] for s in self.scores))


def _round_sheet(rng: random.Random, number: int) -> tuple[dict, tuple[int, int]]:
    sides = copy.deepcopy(SEED_SIDES)
    sides[0]["table_points"] += 5 * rng.randint(0, 60)
    sides[1]["table_points"] += 5 * rng.randint(0, 60)
    if rng.random() < 0.4:
        sides.reverse()
    sheet = {"format": "hand-and-foot-sheet/1", "rules": "classic", "round": number,
             "ended_by": "went_out", "sides": sides}
    report = check_document(sheet).to_dict()
    assert report["valid"], report["error"]
    scores = tuple(s["score"] for s in report["rounds"][0]["sides"])
    sheet.pop("rules")
    return sheet, scores  # type: ignore[return-value]


def past_nights(seed: int = 7) -> list[PastGame]:
    """Two nights (five and four weeks ago), two rotations of two tables each."""
    rng = random.Random(seed)
    today = timezone.localdate()
    games = []
    for date in (today - datetime.timedelta(days=35), today - datetime.timedelta(days=28)):
        for rotation, tables in enumerate(SEATINGS, start=1):
            for table, (a, b) in enumerate(tables, start=1):
                game = PastGame(date, rotation, table,
                                ((NAMES[a[0]], NAMES[a[1]]), (NAMES[b[0]], NAMES[b[1]])))
                for number in range(1, 5):
                    sheet, scores = _round_sheet(rng, number)
                    game.sheets.append(sheet)
                    game.scores.append(scores)
                games.append(game)
    return games


def last_first(name: str) -> str:
    first, last = name.split(" ", 1)
    return f"{last}, {first}"


def us_date(d: datetime.date) -> str:
    return f"{d.month}/{d.day}/{d.year}"


def csv_bytes(rows: list[list]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def xlsx_bytes(sheets: dict[str, list[list]]) -> bytes:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def ods_bytes(rows: list[list]) -> bytes:
    out = io.BytesIO()
    frame = pd.DataFrame(rows[1:], columns=rows[0])
    with pd.ExcelWriter(out, engine="odf") as writer:
        frame.to_excel(writer, sheet_name="Results", index=False)
    return out.getvalue()


# --- the six layouts -------------------------------------------------------------------------


def game_row_totals(games: list[PastGame]) -> bytes:
    """CSV, one row per game, sides as "A & B", only the game totals, ISO dates."""
    rows = [["Date", "Table", "Rotation", "Team 1", "Team 2", "Team 1 Total", "Team 2 Total"]]
    for g in games:
        rows.append([g.date.isoformat(), g.table, g.rotation, " & ".join(g.sides[0]),
                     " & ".join(g.sides[1]), *g.totals])
    return csv_bytes(rows)


def game_row_rounds(games: list[PastGame]) -> bytes:
    """XLSX, one row per game, a column per player and per side's round, totals, real date
    cells, no rotation column (a table seen again on a night is its next rotation)."""
    header = ["Night", "Table", "Team 1 Player 1", "Team 1 Player 2", "Team 2 Player 1",
              "Team 2 Player 2", *[f"Team {s} R{n}" for s in (1, 2) for n in range(1, 5)],
              "Team 1 Total", "Team 2 Total"]
    rows = [header]
    for g in games:
        rows.append([g.date, g.table, *g.sides[0], *g.sides[1],
                     *[g.scores[n][s] for s in (0, 1) for n in range(4)], *g.totals])
    return xlsx_bytes({"Results": rows})


def side_row_us_dates(games: list[PastGame]) -> bytes:
    """CSV, one row per side, US dates, "Last, First" names, hands and a score."""
    rows = [["date", "TABLE", "Game", "Pair", "Hand 1", "Hand 2", "Hand 3", "Hand 4", "Score"]]
    for g in games:
        for s in (0, 1):
            rows.append([us_date(g.date), g.table, g.rotation,
                         " & ".join(last_first(n) for n in g.sides[s]),
                         *[g.scores[n][s] for n in range(4)], g.totals[s]])
    return csv_bytes(rows)


def sheet_per_night(games: list[PastGame]) -> bytes:
    """XLSX with one sheet per night (named by its date), one row per side, "Last, First"
    names in two columns and only each side's total."""
    sheets: dict[str, list[list]] = {}
    for g in games:
        rows = sheets.setdefault(f"{g.date.day} {g.date:%b %Y}",
                                 [["Table", "Rotation", "Player 1", "Player 2", "Points"]])
        for s in (0, 1):
            rows.append([g.table, g.rotation, *(last_first(n) for n in g.sides[s]), g.totals[s]])
    return xlsx_bytes(sheets)


DETAIL_HEADERS = ["Clean", "Dirty", "Wild", "Red 3s", "Points on table", "Held", "Went out"]
DETAIL_FIELDS = ["clean_books", "dirty_books", "wild_books", "red_threes", "table_points",
                 "held_points", "went_out"]


def round_rows_detail(games: list[PastGame]) -> bytes:
    """ODS, one row per round and side with the round's detail, dates as "4 Mar 2026"."""
    rows = [["Date", "Table", "Rotation", "Team", "Round", "Score", *DETAIL_HEADERS]]
    for g in games:
        for n, sheet in enumerate(g.sheets):
            for s in (0, 1):
                side = sheet["sides"][s]
                rows.append([f"{g.date.day} {g.date:%b %Y}", g.table, g.rotation,
                             " & ".join(g.sides[s]), n + 1, g.scores[n][s],
                             *[("yes" if side["went_out"] else "no") if f == "went_out"
                               else side[f] for f in DETAIL_FIELDS]])
    return ods_bytes(rows)


def round_rows_scores(games: list[PastGame]) -> bytes:
    """CSV, one row per round and side, scores only, headers in another order and case."""
    rows = [["POINTS", "hand", "Partnership", "tbl", "Played on", "Match"]]
    for g in games:
        for n in range(4):
            for s in (0, 1):
                rows.append([g.scores[n][s], n + 1, " & ".join(g.sides[s]), g.table,
                             g.date.isoformat(), g.rotation])
    return csv_bytes(rows)


# The layouts whose rows carry the round's detail (the others: scores only).
WITH_DETAIL = {"round_rows_detail.ods"}

LAYOUTS = {
    "game_row_totals.csv": game_row_totals,
    "game_row_rounds.xlsx": game_row_rounds,
    "side_row_us_dates.csv": side_row_us_dates,
    "sheet_per_night.xlsx": sheet_per_night,
    "round_rows_detail.ods": round_rows_detail,
    "round_rows_scores.csv": round_rows_scores,
}


# --- the same results at the tables ----------------------------------------------------------


def enter_at_tables(club: Club, games: list[PastGame]) -> None:
    """Each game seated and entered by both sides through the table intake (so confirmed)."""
    players = {name: player_create(club=club, name=name) for name in NAMES}
    events: dict[datetime.date, Event] = {}
    for g in games:
        if g.date not in events:
            events[g.date] = event_create(club=club, name=f"Night {g.date}", date=g.date,
                                          kind=Event.Kind.LEAGUE_NIGHT, seed=0,
                                          planned_rotations=2)
            Event.objects.filter(pk=events[g.date].pk).update(status=Event.Status.RUNNING)
        seated = [g.sides[0][0], g.sides[1][0], g.sides[0][1], g.sides[1][1]]
        game = make_game(event=events[g.date], players=[players[n] for n in seated],
                         rotation_number=g.rotation, table_number=g.table, first_dealer=0)
        for side in (0, 1):
            for sheet in g.sheets:
                services.submission_create(
                    game=game, document=sheet, entrant=Entrant.for_side(game, side),
                    idempotency_key=f"t{game.pk}-{side}-{sheet['round']}")
        game.refresh_from_db()
        assert game.status == "confirmed"
    recompute(club)


def recompute(club: Club) -> None:
    for event in Event.objects.filter(club=club):
        standings.event_recompute(event_id=event.pk)
    ratings.ratings_recompute(club_id=club.pk)


def standings_by_date(club: Club, *, detail: bool = True) -> dict[datetime.date, list[tuple]]:
    """Each night's ranked standings rows in order, without ids (and without held points, a
    figure of the detail, for a file of scores only)."""
    left_out = {"key", "player_ids", "players", "entrant", "slug", "url"}
    if not detail:
        left_out.add("held_points")
    found = {}
    for snap in StandingsSnapshot.objects.filter(event__club=club).select_related("event"):
        found[snap.event.date] = [
            tuple(sorted((k, str(v)) for k, v in row.items()
                         if k not in left_out))
            for row in snap.rows]
    return found


def ratings_by_name(club: Club) -> dict[str, tuple]:
    return {r.player.name: (round(r.mu, 6), round(r.sigma, 6), r.games)
            for r in PlayerRating.objects.filter(club=club).select_related("player")}
