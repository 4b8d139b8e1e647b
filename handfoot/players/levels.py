"""The players by level name."""

from __future__ import annotations

from .base import Player
from .search import SearchPlayer
from .simple import GreedyPlayer, RandomPlayer

LEVELS: dict[str, Player] = {
    "random": RandomPlayer(),
    "greedy": GreedyPlayer(),
    "club": SearchPlayer("club", worlds=16),
    "expert": SearchPlayer("expert", worlds=64),
}


def level(name: str) -> Player:
    if name not in LEVELS:
        raise ValueError(f"unknown player level {name!r}; choose from {', '.join(LEVELS)}")
    return LEVELS[name]
