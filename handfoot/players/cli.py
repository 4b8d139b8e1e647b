"""The command line's `play` and `duel` (`python -m handfoot play|duel`)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing is not imported at run time: `check` builds this parser too
if TYPE_CHECKING:
    from typing import Any

# the names of `levels.LEVELS` (tested), so that building the parser imports no player
LEVEL_NAMES = ("random", "greedy", "club", "expert")


MOST_ROUNDS = 8  # the `rounds` house rule's top (handfoot.rules)
MOST_DEALS = 100_000


def _levels_arg(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVEL_NAMES]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown level(s) {', '.join(unknown) or repr(text)}; choose from {', '.join(LEVEL_NAMES)}"
        )
    return names


def _level_arg(text: str) -> str:
    names = _levels_arg(text)
    if len(names) != 1:
        raise argparse.ArgumentTypeError(f"one level, not {text!r}")
    return names[0]


def _whole(name: str, least: int, most: int) -> Any:
    """An argument type: a whole number from `least` to `most`, refused in words otherwise."""

    def read(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, not {text!r}") from None
        if not least <= n <= most:
            raise argparse.ArgumentTypeError(f"{name} must be from {least} to {most}, not {n}")
        return n

    return read


def _table_options(command: argparse.ArgumentParser, rules_arg: Any, players_arg: Any) -> None:
    command.add_argument("--rules", type=rules_arg, default="classic",
                         help="preset name or a JSON rules object (default classic)")
    command.add_argument("--players", type=players_arg, default=4, help="players (default 4)")
    command.add_argument("--sides", type=int, default=None, help="sides for six players (2 or 3)")
    command.add_argument("--individual", action="store_true", help="every player for themselves")
    command.add_argument("--rounds", type=_whole("--rounds", 1, MOST_ROUNDS), default=None,
                         help="rounds (default: the rule set's)")
    command.add_argument("--seed", type=_whole("--seed", 0, 2**63 - 1), default=0,
                         help="seed of the deals (default 0)")


def add_commands(commands: Any, rules_arg: Any, players_arg: Any) -> None:
    levels = ", ".join(LEVEL_NAMES)
    play = commands.add_parser(
        "play", help="print the move log of a game between computer players of chosen levels",
        description="Print the move log of one game; seat i plays the i-th level of --seats "
        "(cycled). The deals depend on --seed alone: the same seed with the seats swapped "
        f"deals the same cards. Levels: {levels}.",
    )
    _table_options(play, rules_arg, players_arg)
    play.add_argument("--seats", type=_levels_arg, default=["greedy"],
                      help="levels by seat, comma-separated (default greedy)")
    duel = commands.add_parser(
        "duel", help="a duplicate match between two levels: win rate and mean margin",
        description="Play each of --deals deals twice, the sides swapped; print the games, "
        "a's win rate, its mean margin per game and that margin's 95 % confidence interval "
        f"(normal approximation over the deal pairs; Student's t below 30). Levels: {levels}.",
    )
    _table_options(duel, rules_arg, players_arg)
    duel.add_argument("--a", type=_level_arg, required=True, help="the first level")
    duel.add_argument("--b", type=_level_arg, required=True, help="the second level")
    duel.add_argument("--deals", type=_whole("--deals", 1, MOST_DEALS), default=20,
                      help="deal pairs (default 20)")


def played(args: argparse.Namespace) -> dict[str, Any]:
    """The `play` command's move log or the `duel` command's summary (the command line prints
    it, and says in words an error either raises)."""
    from .duel import duel
    from .levels import level
    from .table import Table, play_game

    if args.command == "play":
        table = Table.of(args.rules, args.players, [level(n) for n in args.seats],
                         args.sides, args.individual)  # fmt: skip
        return play_game(table, args.seed, args.rounds).log
    return duel(args.rules, args.players, level(args.a), level(args.b), args.deals,
                args.seed, args.sides, args.individual, args.rounds).summary()  # fmt: skip
