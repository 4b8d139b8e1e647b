"""Command line of the engine (formats.md, "Command line"); needs no database nor Django.

    python -m handfoot check FILE...      (- reads standard input)
    python -m handfoot simulate --rules PRESET --players N [--sides S] [--seed K]
                                    [--rounds R] [--individual] [--strategy greedy|random]
    python -m handfoot play --rules PRESET --players N --seats LEVEL,LEVEL... [--seed K]
    python -m handfoot duel --rules PRESET --players N --a LEVEL --b LEVEL [--deals D] [--seed K]

`check` prints one JSON object per file per line and exits 0 when every file is valid, 1 when
any is not, 2 for a usage error. `simulate` and `play` print the move log of one computer-played
game (`play` seats players of chosen levels, docs/bots.md); `duel` prints a duplicate match's
figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import EngineError, ErrorCode

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as fh:
        return fh.read()


def check_file(name: str) -> dict[str, Any]:
    """The output line of `check` for one file, as a dict."""
    # imported here: `--help` and `simulate` need none of the checking (a faster start)
    from .checking import check_document, parse_document
    from .report import GameReport

    try:
        data = _read(name)
    except OSError as exc:
        report = GameReport("log", False, EngineError(
            ErrorCode.BAD_FORMAT, f"The file cannot be read: {exc.strerror or exc}."
        ))
    else:
        try:
            report = check_document(parse_document(data))
        except EngineError as err:
            report = GameReport("log", False, err)
    out = report.to_dict()
    return {
        "file": name,
        "kind": out["kind"],
        "valid": out["valid"],
        "error": out["error"],
        "rounds": out["rounds"],
        "totals": out["totals"],
    }


def _check(args: argparse.Namespace) -> int:
    ok = True
    for name in args.files:
        line = check_file(name)
        ok = ok and line["valid"]
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
    return 0 if ok else 1


def _rules_arg(text: str) -> Any:
    """A preset name, or a JSON rules object such as '{"preset": "classic", "overrides": {...}}'."""
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"--rules is not valid JSON: {exc}") from None
    return text


def _players_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--players must be a whole number, not {text!r}") from None
    if n < 2:
        raise argparse.ArgumentTypeError(f"a game needs at least 2 players, not {n}")
    return n


def _simulated(args: argparse.Namespace) -> dict[str, Any]:
    from .simulate import simulate_game  # imported late: only this command needs it

    return simulate_game(
        rules=args.rules,
        players=args.players,
        sides=args.sides,
        seed=args.seed,
        rounds=args.rounds,
        individual=args.individual,
        strategy=args.strategy,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m handfoot",
        description="Check Hand and Foot move logs and score sheets, or simulate a game.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check move logs and score sheets",
        description="Check each FILE (a move log or a score sheet; - is standard input) and "
        "print one JSON result per line. Exit 0 if all are valid, 1 if any is not.",
    )
    check.add_argument("files", nargs="+", metavar="FILE")
    sim = commands.add_parser(
        "simulate",
        help="print the move log of a game played by computer players",
        description="Print a complete, legal move log of one game; the same seed gives the same log.",
    )
    sim.add_argument("--rules", type=_rules_arg, default="classic",
                     help="preset name (classic, pagat, six-deck, canasta, eleven) or a JSON rules object")
    sim.add_argument("--players", type=_players_arg, default=4, help="players at the table (default 4)")
    sim.add_argument("--sides", type=int, default=None, help="sides for six players in partnerships (2 or 3)")
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.add_argument("--rounds", type=int, default=None, help="rounds to play (default: the rule set's)")
    sim.add_argument("--individual", action="store_true", help="every player plays for themselves")
    sim.add_argument("--strategy", choices=("greedy", "random"), default="greedy",
                     help="how the computer players play (default greedy)")
    from .players.cli import add_commands  # the computer players' play and duel

    add_commands(commands, _rules_arg, _players_arg)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "check":
        return _check(args)
    try:
        if args.command in ("play", "duel"):
            from .players.cli import played

            out = played(args)
        else:
            out = _simulated(args)
    except EngineError as err:
        parser.exit(2, f"{parser.prog} {args.command}: error: {err.message} ({err.code})\n")
    except ValueError as err:
        parser.exit(2, f"{parser.prog} {args.command}: error: {err}\n")
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
