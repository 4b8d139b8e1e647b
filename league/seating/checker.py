"""An independent check of a seating: is it sound, and are the figures claimed for it true?

Written apart from the generator on purpose: it imports nothing else of `league.seating` (a test
checks it), reads a seating as plain data (the JSON that `manage.py schedule --json` prints, or a
CSV of rotation, table, seat, player), and counts everything again from the seats themselves, so
the generator and the checker verify each other. Used by `manage.py check_seating FILE`.

A seating is sound when, in every rotation, each player is seated once or sits out once (never
both, never twice), every table has 4 or 6 seats split into equal sides that hold exactly its
seats, its first dealer sits at it, nobody sits out twice before everyone has sat out once, and
every figure of its `report` (partner repeats, opponent counts, sit-outs, deals) is what the
seating gives. When the file lists seating `wishes`, players who must not sit out or keep one
seat are left out of the sit-out fairness (the others share the sit-outs), and each wish must be
kept or be marked not kept with the reason why (a wish claimed kept that the seats break, or
broken without a reason, is a problem). Problems are sentences in the table's language: rotations, tables, seats and
players are numbered from 1.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

MAX_PLAYERS = 1000
MAX_ROTATIONS = 200
TABLE_SIZES = (4, 6)


@dataclass(frozen=True)
class CheckedTable:
    seats: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    first_dealer: int | None


@dataclass(frozen=True)
class CheckedRotation:
    tables: tuple[CheckedTable, ...]
    sit_out: tuple[int, ...]


WISH_KINDS = ("not_partners", "not_meet", "partner_once", "no_sit_out", "fixed_seat")


@dataclass(frozen=True)
class CheckedWish:
    kind: str
    player: int
    other: int | None = None
    table: int | None = None
    seat: int | None = None
    kept: bool | None = None  # what the file claims (None: it does not say)
    why: str = ""  # the file's reason when not kept
    earlier: bool = False  # partner once: kept on an earlier night (not in this file)


@dataclass
class SeatingCheck:
    """What the check found: the problems in words, and the counts it made itself."""

    players: list[int]
    problems: list[str] = field(default_factory=list)
    partners: Counter[tuple[int, int]] = field(default_factory=Counter)
    opponents: Counter[tuple[int, int]] = field(default_factory=Counter)
    sit_outs: Counter[int] = field(default_factory=Counter)
    deals: Counter[int] = field(default_factory=Counter)

    @property
    def sound(self) -> bool:
        return not self.problems

    def figures(self) -> dict[str, Any]:
        """The report's figures as this check counts them."""
        meet = [self.opponents.get(pair, 0) for pair in combinations(self.players, 2)]
        return {
            "partner_repeats": sum(n - 1 for n in self.partners.values() if n > 1),
            "opponent_min": min(meet, default=0),
            "opponent_max": max(meet, default=0),
            "sit_outs": {p: self.sit_outs.get(p, 0) for p in self.players},
            "deals": {p: self.deals.get(p, 0) for p in self.players},
        }


class SeatingFileError(ValueError):
    """The file is not a seating at all (its message says why, in words)."""


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SeatingFileError(f"{what} must be a whole number, not {value!r}.")
    if not 1 <= value <= MAX_PLAYERS:
        raise SeatingFileError(f"{what} must be between 1 and {MAX_PLAYERS}, not {value}.")
    return value


def _numbers(values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) > MAX_PLAYERS:
        raise SeatingFileError(f"{what} must be a list of player numbers.")
    return tuple(_whole(v, what) for v in values)


def _table(raw: Any, where: str) -> CheckedTable:
    if not isinstance(raw, dict):
        raise SeatingFileError(f"{where} is not a table.")
    seats = _numbers(raw.get("seats"), f"{where}: seats")
    sides_raw = raw.get("sides")
    if not isinstance(sides_raw, list) or len(sides_raw) > 6:
        raise SeatingFileError(f"{where}: sides must be a list of lists of players.")
    sides = tuple(_numbers(side, f"{where}: a side") for side in sides_raw)
    dealer = raw.get("first_dealer")
    return CheckedTable(seats, sides, None if dealer is None else _whole(dealer, f"{where}: dealer"))


def seating_from_json(text: str) -> tuple[list[CheckedRotation], dict[str, Any] | None]:
    """The rotations of `schedule --json` output, and its report (None when it has none)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise SeatingFileError(f"The file is not JSON: {error}.") from error
    rotations_raw = data.get("rotations") if isinstance(data, dict) else None
    if not isinstance(rotations_raw, list) or not 1 <= len(rotations_raw) <= MAX_ROTATIONS:
        raise SeatingFileError('The file has no "rotations" list (1 to '
                               f'{MAX_ROTATIONS}), as `schedule --json` prints it.')
    rotations = []
    for r, raw in enumerate(rotations_raw, start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("tables"), list):
            raise SeatingFileError(f"Rotation {r} has no list of tables.")
        tables = tuple(_table(t, f"Rotation {r}, table {n}")
                       for n, t in enumerate(raw["tables"], start=1))
        rotations.append(CheckedRotation(tables, _numbers(raw.get("sit_out", []),
                                                          f"Rotation {r}: sitting out")))
    report = data.get("report")
    return rotations, report if isinstance(report, dict) else None


def seating_from_csv(text: str, players: int | None) -> list[CheckedRotation]:
    """Rows of rotation, table, seat, player (a header row names the columns; `side` and
    `dealer` columns are optional). Without a side column, partners sit opposite: at a table of
    four seats 1 and 3 against 2 and 4, at six 1, 3, 5 against 2, 4, 6. Who sits out is every
    player of 1..`players` not seated in the rotation."""
    reader = csv.DictReader(io.StringIO(text))
    needed = {"rotation", "table", "seat", "player"}
    header = {name.strip().lower() for name in reader.fieldnames or []}
    if not needed <= header:
        raise SeatingFileError("The CSV needs the columns rotation, table, seat and player.")
    cells: dict[int, dict[int, dict[int, tuple[int, int | None, bool]]]] = {}
    for line, row in enumerate(reader, start=2):
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        try:
            r, t, s, p = (int(row[name]) for name in ("rotation", "table", "seat", "player"))
            side = int(row["side"]) if row.get("side") else None
        except ValueError as error:
            raise SeatingFileError(f"Line {line}: rotation, table, seat, player and side must "
                                   "be whole numbers.") from error
        for value, what in ((r, "rotation"), (t, "table"), (s, "seat"), (p, "player")):
            _whole(value, f"Line {line}: the {what}")
        dealer = row.get("dealer", "").lower() in ("yes", "y", "1", "x", "true")
        cells.setdefault(r, {}).setdefault(t, {})[s] = (p, side, dealer)
    if not cells:
        raise SeatingFileError("The CSV has no seats.")
    return [_csv_rotation(cells[r], players) for r in sorted(cells)]


def _csv_rotation(tables: dict[int, dict[int, tuple[int, int | None, bool]]],
                  players: int | None) -> CheckedRotation:
    checked = []
    for t in sorted(tables):
        seats_by_number = tables[t]
        order = sorted(seats_by_number)
        seats = tuple(seats_by_number[s][0] for s in order)
        groups: dict[int, list[int]] = {}
        for i, s in enumerate(order):
            player, side, _ = seats_by_number[s]
            groups.setdefault(side if side is not None else i % 2 + 1, []).append(player)
        dealers = [seats_by_number[s][0] for s in order if seats_by_number[s][2]]
        checked.append(CheckedTable(seats, tuple(tuple(groups[k]) for k in sorted(groups)),
                                    dealers[0] if dealers else None))
    seated = {p for table in checked for p in table.seats}
    sit_out = tuple(p for p in range(1, (players or 0) + 1) if p not in seated)
    return CheckedRotation(tuple(checked), sit_out)


def _optional(raw: dict[str, Any], key: str, what: str) -> int | None:
    value = raw.get(key)
    return None if value is None else _whole(value, what)


def wishes_from_json(text: str) -> list[CheckedWish]:
    """The `wishes` list of a seating file ([] when it has none): each a kind, `player`,
    `other` (pair wishes), `table` and `seat` (a fixed seat), and optionally `kept`, `why` and
    `earlier`."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise SeatingFileError(f"The file is not JSON: {error}.") from error
    raw_list = data.get("wishes", []) if isinstance(data, dict) else []
    if not isinstance(raw_list, list) or len(raw_list) > MAX_PLAYERS:
        raise SeatingFileError('"wishes" must be a list of wishes.')
    wishes = []
    for n, raw in enumerate(raw_list, start=1):
        where = f"Wish {n}"
        if not isinstance(raw, dict) or raw.get("kind") not in WISH_KINDS:
            raise SeatingFileError(f"{where} has no known kind ({', '.join(WISH_KINDS)}).")
        kept = raw.get("kept")
        wishes.append(CheckedWish(
            kind=raw["kind"], player=_whole(raw.get("player"), f"{where}: the player"),
            other=_optional(raw, "other", f"{where}: the other player"),
            table=_optional(raw, "table", f"{where}: the table"),
            seat=_optional(raw, "seat", f"{where}: the seat"),
            kept=kept if isinstance(kept, bool) else None,
            why=str(raw.get("why") or "")[:1000], earlier=raw.get("earlier") is True))
    return wishes


def seating_check(rotations: list[CheckedRotation], *, players: int | None = None,
                  report: dict[str, Any] | None = None,
                  wishes: list[CheckedWish] | None = None) -> SeatingCheck:
    """Check the seating; `players` (1..n) when known, else everyone who appears in it."""
    everyone = set(range(1, players + 1)) if players else {
        p for rotation in rotations for p in _people(rotation)}
    check = SeatingCheck(players=sorted(everyone))
    for number, rotation in enumerate(rotations, start=1):
        _check_rotation(check, number, rotation, everyone)
        _count(check, rotation)
    staying = {w.player for w in wishes or [] if w.kind in ("no_sit_out", "fixed_seat")}
    _check_sit_out_fairness(check, rotations, staying)
    if report is not None:
        _check_report(check, report)
    for wish in wishes or []:
        _check_wish(check, rotations, wish)
    return check


def _people(rotation: CheckedRotation) -> list[int]:
    return [p for table in rotation.tables for p in table.seats] + list(rotation.sit_out)


def _check_rotation(check: SeatingCheck, number: int, rotation: CheckedRotation,
                    everyone: set[int]) -> None:
    where = f"Rotation {number}"
    seen = Counter(_people(rotation))
    for player, n in sorted(seen.items()):
        if n > 1:
            check.problems.append(f"{where}: player {player} is there {n} times (seated or "
                                  "sitting out); each player is once in a rotation.")
        if player not in everyone:
            check.problems.append(f"{where}: player {player} is not one of the players "
                                  f"(1 to {max(everyone)}).")
    for player in sorted(everyone - set(seen)):
        check.problems.append(f"{where}: player {player} is neither seated nor sitting out.")
    for t, table in enumerate(rotation.tables, start=1):
        _check_table(check, f"{where}, table {t}", table)


def _check_table(check: SeatingCheck, where: str, table: CheckedTable) -> None:
    problems = check.problems
    if len(table.seats) not in TABLE_SIZES:
        problems.append(f"{where} has {len(table.seats)} seats; a table has 4 or 6.")
    in_sides = sorted(p for side in table.sides for p in side)
    if in_sides != sorted(table.seats):
        problems.append(f"{where}: its sides ({_sides_words(table)}) do not hold exactly the "
                        "players seated at it.")
    sizes = {len(side) for side in table.sides}
    if len(table.sides) < 2 or len(sizes) > 1 or sizes == {1}:
        problems.append(f"{where}: its sides ({_sides_words(table)}) are not two or three equal "
                        "sides of two or three players.")
    if table.first_dealer is None:
        problems.append(f"{where} has no first dealer.")
    elif table.first_dealer not in table.seats:
        problems.append(f"{where}: the first dealer, player {table.first_dealer}, does not sit "
                        "at it.")


def _sides_words(table: CheckedTable) -> str:
    return " against ".join(" & ".join(str(p) for p in side) for side in table.sides) or "none"


def _count(check: SeatingCheck, rotation: CheckedRotation) -> None:
    check.sit_outs.update(rotation.sit_out)
    for table in rotation.tables:
        if table.first_dealer is not None:
            check.deals[table.first_dealer] += 1
        for side in table.sides:
            check.partners.update(_pairs(side))
        for one, other in combinations(table.sides, 2):
            check.opponents.update(_pair(a, b) for a in one for b in other)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _pairs(players: tuple[int, ...]) -> list[tuple[int, int]]:
    return [_pair(a, b) for a, b in combinations(players, 2)]


def _check_sit_out_fairness(check: SeatingCheck, rotations: list[CheckedRotation],
                            staying: set[int] | None = None) -> None:
    """Nobody sits out a second time while someone has not sat out yet (after each rotation);
    players who must stay seated (a wish) are left out of the comparison."""
    so_far: Counter[int] = Counter()
    sharing = [p for p in check.players if p not in (staying or set())]
    for number, rotation in enumerate(rotations, start=1):
        so_far.update(rotation.sit_out)
        counts = [so_far.get(p, 0) for p in sharing]
        if counts and max(counts) - min(counts) > 1:
            most = [p for p in sharing if so_far.get(p, 0) == max(counts)]
            fewest = [p for p in sharing if so_far.get(p, 0) == min(counts)]
            check.problems.append(
                f"After rotation {number}: player {most[0]} has sat out {max(counts)} times "
                f"while player {fewest[0]} has sat out {min(counts)}; sit-outs differ by at "
                "most one.")
            return


def _check_report(check: SeatingCheck, report: dict[str, Any]) -> None:
    counted = check.figures()
    words = {"partner_repeats": "partner repeats", "opponent_min": "fewest meetings of two "
             "players as opponents", "opponent_max": "most meetings of two players as opponents"}
    for key, label in words.items():
        if key in report and report[key] != counted[key]:
            check.problems.append(f"The report claims {report[key]} {label}; the seating has "
                                  f"{counted[key]}.")
    for key, label in (("sit_outs", "sit-outs"), ("deals", "first deals")):
        claimed = report.get(key)
        if not isinstance(claimed, dict):
            continue
        for player in check.players:
            said = claimed.get(str(player), claimed.get(player, 0))
            if said != counted[key][player]:
                check.problems.append(f"The report claims {said} {label} for player {player}; "
                                      f"the seating gives {counted[key][player]}.")


def _wish_words(wish: CheckedWish) -> str:
    return {
        "not_partners": f"players {wish.player} and {wish.other} are never partners",
        "not_meet": f"players {wish.player} and {wish.other} never sit at one table",
        "partner_once": f"players {wish.player} and {wish.other} partner once",
        "no_sit_out": f"player {wish.player} never sits out",
        "fixed_seat": f"player {wish.player} sits at table {wish.table or 1}, seat "
                      f"{wish.seat or 1} whenever seated",
    }[wish.kind]


def _breaks_in(rotation: CheckedRotation, wish: CheckedWish) -> bool:
    a, b = wish.player, wish.other
    if wish.kind == "not_partners":
        return any(a in s and b in s for t in rotation.tables for s in t.sides)
    if wish.kind == "not_meet":
        return any(a in t.seats and b in t.seats for t in rotation.tables)
    if wish.kind in ("no_sit_out", "fixed_seat") and a in rotation.sit_out:
        return True
    return wish.kind == "fixed_seat" and not _in_seat(rotation, wish)


def _wish_breaks(rotations: list[CheckedRotation], wish: CheckedWish) -> list[int]:
    """The rotations (from 1) that break the wish; for partner once, [] when they partner
    (tonight or, as the file says, earlier) and [0] when not."""
    if wish.kind == "partner_once":
        partnered = wish.earlier or any(wish.player in s and wish.other in s for r in rotations
                                        for t in r.tables for s in t.sides)
        return [] if partnered else [0]
    return [n for n, rotation in enumerate(rotations, start=1) if _breaks_in(rotation, wish)]


def _in_seat(rotation: CheckedRotation, wish: CheckedWish) -> bool:
    table, seat = (wish.table or 1) - 1, (wish.seat or 1) - 1
    if wish.player not in {p for t in rotation.tables for p in t.seats}:
        return True  # not here this rotation (arrived late)
    return (table < len(rotation.tables) and seat < len(rotation.tables[table].seats)
            and rotation.tables[table].seats[seat] == wish.player)


def _check_wish(check: SeatingCheck, rotations: list[CheckedRotation], wish: CheckedWish) -> None:
    broken = _wish_breaks(rotations, wish)
    words = _wish_words(wish)
    where = "" if broken in ([], [0]) else f" (rotation {', '.join(map(str, broken))})"
    if broken and wish.kept:
        check.problems.append(f"The file says the wish that {words} is kept, but the seating "
                              f"breaks it{where}.")
    elif broken and not wish.why.strip():
        check.problems.append(f"The wish that {words} is not kept{where} and the file does not "
                              "say why.")
    elif not broken and wish.kept is False:
        check.problems.append(f"The file says the wish that {words} is not kept, but the seating "
                              "keeps it.")
