"""A compiled copy of the engine for the long simulator run, checked to play the same games.

Run: .venv/bin/python bench/compile_engine.py [--out data/bench/compiled-engine] [--check-seeds 3]
Then: BENCH_ENGINE=data/bench/compiled-engine .venv/bin/python bench/simulator_bench.py ...
(or make bench-simulator COMPILED=1)

Copies the `handfoot` package into OUT and compiles the simulator's hot modules (state, moves,
legal, simulate) with mypyc, the compiler that comes with mypy: the same source, about twice as
fast. The product never imports the copy. Before it may be used, the copy and the source each
simulate seeds 0..N-1 of every case of the simulator bench, each in a process of its own, and
the sha256 of every log must match; on any difference the copy is deleted and the exit code is 1.

Needs a C compiler, the Python headers and setuptools (in the dev extras).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("state.py", "moves.py", "legal.py", "simulate.py")


def log_hashes(engine_root: str, seeds: int) -> dict[str, str]:
    """sha256 of every simulated log of seeds 0..seeds-1 of every case, with the engine
    imported from `engine_root` (run in a fresh process: see `_hashes_in_process`)."""
    os.environ["BENCH_ENGINE"] = engine_root  # simulator_bench puts it first on the path
    sys.path.insert(0, str(ROOT / "bench"))
    from simulator_bench import cases

    from handfoot import simulate
    from handfoot.rules import PRESETS
    from handfoot.simulate import simulate_game

    if not Path(simulate.__file__ or "").is_relative_to(engine_root):
        raise SystemExit(f"the engine came from {simulate.__file__}, not from {engine_root}")
    found = {}
    for case in cases(list(PRESETS)):
        for seed in range(seeds):
            log = simulate_game(case.preset, case.players, sides=case.sides, seed=seed,
                                individual=case.individual, strategy=case.strategy)
            text = json.dumps(log, sort_keys=True).encode()
            found[f"{case.preset}, {case.table}, {case.strategy}, seed {seed}"] = (
                hashlib.sha256(text).hexdigest()
            )
    return found


def _hashes_in_process(engine_root: Path, seeds: int) -> tuple[dict[str, str], float]:
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        cpu = _children_cpu()
        subprocess.run([sys.executable, __file__, "--hashes", str(engine_root), str(seeds),
                        out.name], check=True)
        return json.load(out), _children_cpu() - cpu


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def build(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(ROOT / "handfoot", out / "handfoot",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # mypy's own defaults, not the project's settings (found up the tree, made for the whole site)
    (out / "mypy.ini").write_text("[mypy]\n")
    files = [f"handfoot/{name}" for name in COMPILED]
    subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=out, check=True,
                   stdout=subprocess.DEVNULL)
    for name in COMPILED:  # the extension modules are imported; the sources stay for tracebacks
        if not list((out / "handfoot").glob(f"{name[:-3]}.*.so")):
            raise SystemExit(f"mypyc built no module for handfoot/{name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "bench" / "compiled-engine")
    parser.add_argument("--check-seeds", type=int, default=3, choices=range(1, 101),
                        metavar="1..100", help="seeds of every case compared (default 3)")
    parser.add_argument("--hashes", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hashes:
        engine_root, seeds, path = args.hashes
        Path(path).write_text(json.dumps(log_hashes(engine_root, int(seeds))))
        return 0

    out = args.out.resolve()
    print(f"compiling {', '.join(COMPILED)} of handfoot into {out} with mypyc ...", flush=True)
    build(out)
    source, source_cpu = _hashes_in_process(ROOT, args.check_seeds)
    compiled, compiled_cpu = _hashes_in_process(out, args.check_seeds)
    differ = sorted(game for game in source if compiled.get(game) != source[game])
    print(f"{len(source)} games (seeds 0-{args.check_seeds - 1} of every case): source "
          f"{source_cpu:.1f} s CPU, compiled {compiled_cpu:.1f} s CPU "
          f"({source_cpu / compiled_cpu:.2f} x faster)")
    if differ or len(compiled) != len(source):
        shutil.rmtree(out)
        print(f"the compiled copy plays {len(differ)} of {len(source)} games differently, first: {differ[:3]}; "
              "copy deleted")
        return 1
    print(f"every log identical: use it with BENCH_ENGINE={out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
