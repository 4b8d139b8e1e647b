"""``manage.py schedule``: print a seating schedule without touching the database."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
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


def build_schedule(
    players: int, rotations: int, fmt: str, table_size: int = 4, seed: int = 0, six_sides: int = 2
) -> list[RotationPlan]:
    """The whole schedule; Swiss and progressive rotations are planned one at a time from
    simulated results (see :func:`simulate_points`)."""
    if fmt not in FORMATS:
        raise CommandError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    if players < 4:
        raise CommandError(f"At least 4 players are needed, not {players}.")
    if rotations < 1:
        raise CommandError(f"At least one rotation is needed, not {rotations}.")
    if table_size not in (4, 6):
        raise CommandError(f"Tables seat 4 or 6 players, not {table_size}.")
    fmt = FORMATS[fmt]
    ids = tuple(range(1, players + 1))
    pairs: tuple[tuple[int, int], ...] = ()
    if fmt != "rotating":
        if players % 2:
            raise CommandError("Fixed partnerships need an even number of players.")
        pairs = tuple((p, p + 1) for p in range(1, players + 1, 2))
    base = SeatingRequest(
        format=fmt, players=ids, partnerships=pairs, rotations=rotations,
        table_size=table_size, six_sides=six_sides, seed=seed,
        odd_handling="table_of_six" if table_size == 6 else "sit_out",
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


def schedule_json(plans: list[RotationPlan], players: int) -> dict:
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
        "report": quality_report(plans, range(1, players + 1)),
    }


def schedule_text(plans: list[RotationPlan], players: int) -> str:
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
    report = quality_report(plans, range(1, players + 1))
    deals, sits = report["deals"].values(), report["sit_outs"].values()
    lines += [
        "",
        "Partners are marked by the same letter (A, B, C); * marks the first dealer.",
        f"Partner repeats: {report['partner_repeats']}",
        f"Times two players met as opponents: {report['opponent_min']} to {report['opponent_max']}",
        f"First deals per player: {min(deals)} to {max(deals)}",
        f"Sit-outs per player: {min(sits)} to {max(sits)}",
    ]
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Print a seating schedule for players numbered 1..N (no database needed). "
        "Fixed formats pair players (1,2), (3,4), ... . Swiss and progressive seat each "
        "rotation from the results of the one before: here those results are simulated, "
        "reproducibly from --seed (each side scores a random multiple of 5 from -500 to 5000)."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players N")
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

    def handle(self, *args, **options) -> None:
        plans = build_schedule(
            options["players"], options["rotations"], options["format"],
            options["table_size"], options["seed"], options["six_sides"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(schedule_json(plans, options["players"])))
        else:
            self.stdout.write(schedule_text(plans, options["players"]))
