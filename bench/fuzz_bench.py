"""Fuzz benchmark: the rules engine against mutated move logs and score sheets (issue 11).

Run: .venv/bin/python bench/fuzz_bench.py [--games 100] [--mutations 20000] [--seed 0]

Simulates GAMES four-player classic games, then feeds `check_document` (what the API and the
pages call) MUTATIONS seeded random mutations of those logs and of the score sheets built from
their rounds: values replaced by hostile ones (huge, negative, NaN-like, NUL strings, deep
nesting, wrong types), keys deleted, list items dropped, duplicated or swapped, numbers nudged,
and text-level damage (truncation, a changed byte). It reports:
- crashes: `check_document` raised (it must never raise) — goal 0;
- INTERNAL_ERROR answers (an engine fault caught and reported) — goal 0;
- how many mutants were still valid, and the error codes of the others;
- log/sheet agreement: every round of every simulated game, written as a score sheet from the
  replay's parts, checks valid with the replay's scores — goal 0 disagreements.
Exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_bench import sheets_from  # noqa: E402
from handfoot.checking import check_document  # noqa: E402
from handfoot.replay import replay_log  # noqa: E402
from handfoot.simulate import simulate_game  # noqa: E402

HOSTILE = [0, -1, 1, 2**31, -(2**31) - 1, 10**12, 10**100, 1.5, -0.0, float("inf"), True, None,
           "", "\u0000", "x" * 5000, "AS", "Joker", [], {}, [[[[[[[[[[[]]]]]]]]]]], {"a": {"b": {}}}]


def _containers(node: Any, found: list) -> list:
    """Every dict and list inside `node` (itself included)."""
    if isinstance(node, dict | list):
        found.append(node)
        for child in (node.values() if isinstance(node, dict) else node):
            _containers(child, found)
    return found


def mutate(doc: dict, rng: random.Random) -> Any:
    """One seeded mutation of a copy of `doc`: a tree mutation, or text damage (as a string)."""
    if rng.random() < 0.1:
        text = json.dumps(doc)
        cut = rng.randrange(len(text))
        if rng.random() < 0.5:
            return text[:cut]
        return text[:cut] + rng.choice(["NaN", "\x00", "}", "[", '"', "9" * 30]) + text[cut + 1:]
    doc = copy.deepcopy(doc)
    target = rng.choice(_containers(doc, []))
    if not target:
        target = doc
    if isinstance(target, dict):
        key = rng.choice(list(target))
        op = rng.random()
        if op < 0.2:
            del target[key]
        elif op < 0.3:
            target["unknown_" + key] = target[key]
        else:
            target[key] = _changed(target[key], rng)
    else:
        index = rng.randrange(len(target))
        op = rng.random()
        if op < 0.2:
            del target[index]
        elif op < 0.35:
            target.insert(index, copy.deepcopy(target[index]))
        elif op < 0.5 and len(target) > 1:
            other = rng.randrange(len(target))
            target[index], target[other] = target[other], target[index]
        else:
            target[index] = _changed(target[index], rng)
    return doc


def _changed(value: Any, rng: random.Random) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-100, -5, -1, 1, 5, 100])
    return copy.deepcopy(rng.choice(HOSTILE))


def agreement(logs: list[dict]) -> tuple[int, int]:
    """(rounds compared, rounds whose sheet does not check valid with the replay's scores)."""
    compared = disagreements = 0
    for log in logs:
        report = replay_log(log).to_dict()
        for sheet, rnd in zip(sheets_from(log, report), report["rounds"], strict=True):
            compared += 1
            checked = check_document(sheet)
            scores = [side["score"] for side in rnd["sides"]]
            if not checked.valid or [s.score for s in checked.rounds[0].sides] != scores:
                disagreements += 1
    return compared, disagreements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mutations", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    logs = [simulate_game(rules="classic", players=4, seed=args.seed + i) for i in range(args.games)]
    sheets = [s for log in logs for s in sheets_from(log, replay_log(log).to_dict())]
    compared, disagreements = agreement(logs)

    crashes: list[str] = []
    codes: Counter[str] = Counter()
    valid = 0
    start = time.perf_counter()
    for i in range(args.mutations):
        mutant = mutate(rng.choice(logs) if i % 2 == 0 else rng.choice(sheets), rng)
        try:
            report = check_document(mutant)
        except Exception as exc:  # noqa: BLE001 - counting what must never happen
            crashes.append(f"{type(exc).__name__}: {exc}"[:200])
            continue
        if report.valid:
            valid += 1
        else:
            codes[str(report.error.code)] += 1
    seconds = time.perf_counter() - start

    internal = codes.get("INTERNAL_ERROR", 0)
    print(f"fuzz benchmark: {args.mutations} mutants of {args.games} simulated games' logs and "
          f"{len(sheets)} sheets (seed {args.seed}), {seconds:.1f} s, "
          f"{args.mutations / seconds:,.0f} documents/s")
    print(f"  crashes (check_document raised): {len(crashes)}   (goal 0)")
    print(f"  INTERNAL_ERROR answers: {internal}   (goal 0)")
    print(f"  still valid after the mutation: {valid}; refused: {sum(codes.values())}")
    print("  refused by code: " + ", ".join(f"{code} {n}" for code, n in codes.most_common()))
    print(f"  log/sheet agreement: {compared} rounds compared, {disagreements} disagreements "
          "(goal 0)")
    for crash in crashes[:5]:
        print(f"  crash: {crash}")
    return 1 if crashes or internal or disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
