"""``manage.py schedule``: print a seating schedule without touching the database."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
    TablePlan,
    plan_rotations,
    quality_report,
)

FORMATS = {
    "rotating": "rotating",
    "swiss": "swiss",
    "round-robin": "round_robin",
    "progressive": "progressive",
}
RESULT_DEPENDENT = {"swiss", "progressive"}
MAX_PLAYER = 100_000
MAX_ROTATIONS = 500
MAX_HISTORY_BYTES = 20_000_000
Night = tuple[RotationPlan, ...]


def simulate_points(plan: RotationPlan, seed: int, rotation: int) -> dict[int, int]:
    """Made-up game scores for one rotation, reproducible from the seed and the rotation number:
    each side scores a multiple of 5 between -500 and 5000 (player id -> their side's score)."""
    rng = random.Random(f"{seed}:results:{rotation}")
    points: dict[int, int] = {}
    for table in plan.tables:
        for side in table.sides:
            score = rng.randrange(-100, 1001) * 5
            points.update(dict.fromkeys(side, score))
    return points


def parse_players(text: str) -> tuple[int, ...]:
    """``"N"`` means players 1..N; ``"1,4,5,9"`` lists the players (e.g. who came tonight)."""
    try:
        ids = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise CommandError(
            f"--players takes a number or a list of player numbers like 1,4,5,9, not {text!r}."
        ) from None
    if len(ids) == 1 and "," not in text:
        if not 0 <= ids[0] <= MAX_PLAYER:
            raise CommandError(f"--players must be between 4 and {MAX_PLAYER}.")
        return tuple(range(1, ids[0] + 1))
    if any(not 1 <= p <= MAX_PLAYER for p in ids):
        raise CommandError(f"Player numbers run from 1 to {MAX_PLAYER}.")
    if len(set(ids)) != len(ids):
        raise CommandError("A player is listed twice in --players.")
    return tuple(ids)


def load_history(paths: Sequence[str]) -> tuple[Night, ...]:
    """Earlier nights from files in this command's JSON output: each file holds one night
    (``{"rotations": [...]}``) or a list of nights, oldest first."""
    nights: list[Night] = []
    for path in paths:
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"History file {path} does not exist.")
        if file.stat().st_size > MAX_HISTORY_BYTES:
            raise CommandError(f"History file {path} is larger than {MAX_HISTORY_BYTES} bytes.")
        try:
            data = json.loads(file.read_text())
            items = data if isinstance(data, list) else [data]
            nights += [_night(item) for item in items]
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise CommandError(
                f"History file {path} is not this command's JSON output ({exc})."
            ) from None
    return tuple(nights)


def _night(item: dict) -> Night:
    plans = []
    for rotation in item["rotations"]:
        tables = tuple(
            TablePlan(
                tuple(int(p) for p in t["seats"]),
                tuple(tuple(int(p) for p in side) for side in t["sides"]),
                int(t["first_dealer"]),
            )
            for t in rotation["tables"]
        )
        plans.append(RotationPlan(tables, tuple(int(p) for p in rotation.get("sit_out", []))))
    return tuple(plans)


def build_schedule(
    players: int | Sequence[int], rotations: int, fmt: str, table_size: int = 4, seed: int = 0,
    six_sides: int = 2, history: tuple[Night, ...] = (),
) -> list[RotationPlan]:
    """The whole schedule for players 1..N (or the players listed); Swiss and progressive
    rotations are planned one at a time from simulated results (see :func:`simulate_points`).
    ``history`` (earlier nights of a season) seats rotating partners against those nights."""
    ids = tuple(range(1, players + 1)) if isinstance(players, int) else tuple(players)
    if fmt not in FORMATS:
        raise CommandError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    if len(ids) < 4:
        raise CommandError(f"At least 4 players are needed, not {len(ids)}.")
    if rotations < 1:
        raise CommandError(f"At least one rotation is needed, not {rotations}.")
    if rotations > MAX_ROTATIONS:
        raise CommandError(f"At most {MAX_ROTATIONS} rotations can be planned, not {rotations}.")
    if table_size not in (4, 6):
        raise CommandError(f"Tables seat 4 or 6 players, not {table_size}.")
    fmt = FORMATS[fmt]
    pairs: tuple[tuple[int, int], ...] = ()
    if fmt != "rotating":
        if len(ids) % 2:
            raise CommandError("Fixed partnerships need an even number of players.")
        if history:
            raise CommandError("--history plans rotating partners; fixed partnerships ignore it.")
        pairs = tuple((ids[k], ids[k + 1]) for k in range(0, len(ids), 2))
    base = SeatingRequest(
        format=fmt, players=ids, partnerships=pairs, rotations=rotations,
        table_size=table_size, six_sides=six_sides, seed=seed,
        odd_handling="table_of_six" if table_size == 6 else "sit_out", season=history,
    )
    try:
        if fmt not in RESULT_DEPENDENT:
            return plan_rotations(base)
        played: list[RotationPlan] = []
        points: list[dict[int, int]] = []
        while len(played) < rotations:
            request = _with_history(base, played, points)
            nxt = plan_rotations(request)[0]
            played.append(nxt)
            points.append(simulate_points(nxt, seed, len(played)))
        return played
    except SeatingError as exc:
        raise CommandError(str(exc)) from exc


def _with_history(base: SeatingRequest, played: list, points: list) -> SeatingRequest:
    return replace(base, played=tuple(played), points=tuple(points))


def _ids(players: int | Sequence[int]) -> Sequence[int]:
    return range(1, players + 1) if isinstance(players, int) else players


def schedule_json(plans: list[RotationPlan], players: int | Sequence[int]) -> dict:
    return {
        "rotations": [
            {
                "tables": [
                    {
                        "seats": list(t.seats),
                        "sides": [list(s) for s in t.sides],
                        "first_dealer": t.first_dealer,
                    }
                    for t in plan.tables
                ],
                "sit_out": list(plan.sit_out),
            }
            for plan in plans
        ],
        "report": quality_report(plans, _ids(players)),
    }


def schedule_text(plans: list[RotationPlan], players: int | Sequence[int]) -> str:
    """Readable schedule: each table's seats clockwise, partners marked by the same letter,
    the first dealer starred; then the quality report."""
    lines = []
    for r, plan in enumerate(plans, start=1):
        lines.append(f"Rotation {r}")
        for k, table in enumerate(plan.tables, start=1):
            n_sides = len(table.sides)
            seats = "  ".join(
                f"{p}{'ABC'[s % n_sides]}{'*' if p == table.first_dealer else ''}"
                for s, p in enumerate(table.seats)
            )
            lines.append(f"  table {k:>3}: {seats}   (dealer {table.first_dealer})")
        if plan.sit_out:
            lines.append(f"  sitting out: {', '.join(map(str, plan.sit_out))}")
    report = quality_report(plans, _ids(players))
    deals, sits = report["deals"].values(), report["sit_outs"].values()
    spread = report["feed_spread"].values()
    lines += [
        "",
        "Partners are marked by the same letter (A, B, C); * marks the first dealer.",
        f"Partner repeats: {report['partner_repeats']}",
        f"Times two players met as opponents: {report['opponent_min']} to {report['opponent_max']}",
        f"Pairs where one always fed the other (sat just before them): {report['one_way_pairs']}",
        f"Most times one player fed the same player: {report['feed_max']}"
        f" (spread per player {min(spread)} to {max(spread)})",
        f"First deals per player: {min(deals)} to {max(deals)}",
        f"Sit-outs per player: {min(sits)} to {max(sits)}",
    ]
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Print a seating schedule for players numbered 1..N, or for the players listed "
        "(no database needed). Fixed formats pair players (1,2), (3,4), ... in list order. "
        "--history FILE (repeatable) plans the night against earlier nights of a season, "
        "given in this command's --json output (one night, or a list of nights oldest first). "
        "Swiss and progressive seat each "
        "rotation from the results of the one before: here those results are simulated, "
        "reproducibly from --seed (each side scores a random multiple of 5 from -500 to 5000)."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", required=True,
            help="number of players N (players 1..N), or a list of player numbers: 1,4,5,9",
        )
        parser.add_argument("--rotations", type=int, required=True, help="rotations to plan")
        parser.add_argument("--format", default="rotating", help=", ".join(FORMATS))
        parser.add_argument(
            "--table-size", type=int, default=4,
            help="4 (odd counts sit out) or 6 (odd counts play at tables of six)",
        )
        parser.add_argument(
            "--six-sides", type=int, default=2, choices=(2, 3),
            help="at a table of six: 2 sides of three or 3 sides of two",
        )
        parser.add_argument("--seed", type=int, default=0, help="same seed, same seating")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--history", action="append", default=[], metavar="FILE",
            help="earlier nights of the season (this command's --json output), oldest first",
        )

    def handle(self, *args, **options) -> None:
        players = parse_players(options["players"])
        history = load_history(options["history"])
        plans = build_schedule(
            players, options["rotations"], options["format"],
            options["table_size"], options["seed"], options["six_sides"], history,
        )
        if options["json"]:
            self.stdout.write(json.dumps(schedule_json(plans, players)))
        else:
            self.stdout.write(schedule_text(plans, players))
