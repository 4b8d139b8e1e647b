"""Seating generator benchmark: ``.venv/bin/python bench/seating_bench.py [--quick]``.

Times 200 players x 10 rotations (tables of four; 202 and 201 players with tables of six and
sit-outs) and the full exact whist tournament of every v = 0, 1 (mod 4) from 4 to 64, prints
the quality figures (partner repeats, opponent spread, one-way pairs, feeds), then plays a
season twice on the same attendance: 24 members, 12 nights, each member attending each night
with probability 0.75 (seeded), 4 rotations a night; once night by night and once
season-aware (each night planned against the earlier ones).
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.seating import RotationPlan, SeatingRequest, plan_rotations, quality_report  # noqa: E402
from league.seating.report import pair_counts  # noqa: E402

MEMBERS, NIGHTS, ATTENDANCE, ROTATIONS, REGULAR = 24, 12, 0.75, 4, 9


def bench(label: str, n: int, rotations: int, **kw) -> float:
    players = tuple(range(1, n + 1))
    start = time.process_time()  # CPU time: the figure that does not depend on the machine's load
    plans = plan_rotations(SeatingRequest("rotating", players, rotations=rotations, **kw))
    seconds = time.process_time() - start
    report = quality_report(plans, players)
    deals, sits = report["deals"].values(), report["sit_outs"].values()
    print(
        f"{label:<38} {seconds:6.3f} s CPU  partner repeats {report['partner_repeats']:>3}  "
        f"opponents {report['opponent_min']}..{report['opponent_max']}  "
        f"one-way {report['one_way_pairs']:>4}  fed same player <= {report['feed_max']}  "
        f"deals {min(deals)}..{max(deals)}  sit-outs {min(sits)}..{max(sits)}"
    )
    return seconds


def attendance(seed: int = 2026) -> list[tuple[int, ...]]:
    """Who comes each night: every member with probability 0.75, seeded."""
    rng = random.Random(seed)
    nights = []
    for _ in range(NIGHTS):
        present = tuple(m for m in range(1, MEMBERS + 1) if rng.random() < ATTENDANCE)
        nights.append(present)
    return nights


def play_season(nights: list[tuple[int, ...]], aware: bool) -> list[list[RotationPlan]]:
    played: list[list[RotationPlan]] = []
    for k, present in enumerate(nights, start=1):
        season = tuple(tuple(night) for night in played) if aware else ()
        request = SeatingRequest("rotating", present, rotations=ROTATIONS, seed=k, season=season)
        played.append(plan_rotations(request))
    return played


def season_figures(nights: list[tuple[int, ...]], played: list[list[RotationPlan]]) -> dict:
    """Repeated partnerships (beyond the first, summed over pairs), pairs who met on some night
    but never partnered, distinct partners of the regular members (attended >= 9 nights) as a
    share of those possible (min(co-attending members, partnerships they played)), and the
    spread of opponent meetings over the pairs who attended some night together."""
    plans = [plan for night in played for plan in night]
    partners, opponents = pair_counts(plans)
    together = {pair for present in nights for pair in combinations(sorted(present), 2)}
    attended = Counter(m for present in nights for m in present)
    shares = []
    for m in (m for m in attended if attended[m] >= REGULAR):
        met = {b if a == m else a for a, b in together if m in (a, b)}
        played_with = sum(n for (a, b), n in partners.items() if m in (a, b))
        distinct = sum(1 for (a, b) in partners if m in (a, b))
        shares.append(distinct / min(len(met), played_with))
    meetings = [opponents.get(pair, 0) for pair in together]
    return {
        "repeats": sum(n - 1 for n in partners.values() if n > 1),
        "never": sum(1 for pair in together if pair not in partners),
        "partnered_twice_plus": sum(1 for n in partners.values() if n > 2),
        "regulars": len(shares),
        "share_min": min(shares),
        "share_mean": sum(shares) / len(shares),
        "opp_min": min(meetings),
        "opp_max": max(meetings),
    }


def season_bench() -> dict[str, dict]:
    nights = attendance()
    out = {}
    for label, aware in (("night by night", False), ("season-aware", True)):
        start = time.process_time()
        played = play_season(nights, aware)
        seconds = time.process_time() - start
        f = season_figures(nights, played)
        out[label] = f
        print(
            f"{label:<15} {seconds:6.2f} s CPU  repeated partnerships {f['repeats']:>3}  "
            f"pairs partnered 3+ times {f['partnered_twice_plus']:>3}  "
            f"co-attending pairs never partnered {f['never']:>3}  "
            f"regulars ({f['regulars']}) partnered {f['share_min']:.0%} (min) / "
            f"{f['share_mean']:.0%} (mean) of possible partners  "
            f"opponent meetings {f['opp_min']}..{f['opp_max']}"
        )
    print(f"attendance per night: {[len(n) for n in nights]}")
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    bench("200 players x 10 rotations", 200, 10)
    bench("201 players x 10 (1 sits out)", 201, 10)
    bench("202 players x 10 (tables of six)", 202, 10, table_size=6)
    bench("203 players x 10 (3 sit out)", 203, 10)
    designs = [v for v in range(4, 65) if v % 4 == 0] + [v for v in range(5, 65) if v % 4 == 1]
    for v in (21, 32, 45) if quick else designs:
        bench(f"Wh({v}): {v} players x {v - (v % 4 == 0)}", v, v - (v % 4 == 0))
    season_bench()


if __name__ == "__main__":
    main()
