"""Seating generator benchmark: ``.venv/bin/python bench/seating_bench.py``.

Times 200 players x 10 rotations (tables of four; 202 and 201 players with tables of six and
sit-outs) and full exact whist tournaments Wh(28), Wh(32), and prints the quality figures.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.seating import SeatingRequest, plan_rotations, quality_report  # noqa: E402


def bench(label: str, n: int, rotations: int, **kw) -> None:
    players = tuple(range(1, n + 1))
    start = time.perf_counter()
    plans = plan_rotations(SeatingRequest("rotating", players, rotations=rotations, **kw))
    seconds = time.perf_counter() - start
    report = quality_report(plans, players)
    deals, sits = report["deals"].values(), report["sit_outs"].values()
    print(
        f"{label:<40} {seconds:7.3f} s  partner repeats {report['partner_repeats']:>3}  "
        f"opponents {report['opponent_min']}..{report['opponent_max']}  "
        f"deals {min(deals)}..{max(deals)}  sit-outs {min(sits)}..{max(sits)}"
    )


def main() -> None:
    bench("200 players x 10 rotations", 200, 10)
    bench("201 players x 10 (1 sits out)", 201, 10)
    bench("202 players x 10 (tables of six)", 202, 10, table_size=6)
    bench("203 players x 10 (3 sit out)", 203, 10)
    bench("Wh(28): 28 players x 27 rotations", 28, 27)
    bench("Wh(32): 32 players x 31 rotations", 32, 31)
    bench("Wh(21): 21 players x 21 rotations", 21, 21)


if __name__ == "__main__":
    main()
