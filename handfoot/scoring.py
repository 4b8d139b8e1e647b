"""Scoring a side from its parts (used by replay and by score sheets)."""

from __future__ import annotations

from .report import SideScore
from .rules import RuleSet


def side_score(
    rules: RuleSet,
    clean_books: int = 0,
    dirty_books: int = 0,
    wild_books: int = 0,
    red_threes: int = 0,
    table_points: int = 0,
    held_points: int = 0,
    went_out: bool = False,
) -> SideScore:
    """A side's round score with its parts. `red_threes` are laid red 3s (only under lay)."""
    bonus = rules.book_bonus
    red_points = red_threes * rules.red_three_bonus if rules.red_threes == "lay" else 0
    # positional (in SideScore's field order): a keyword call costs twice as much, and this
    # runs for every side of every sheet and round
    return SideScore(
        clean_books,
        dirty_books,
        wild_books,
        clean_books * bonus.clean,
        dirty_books * bonus.dirty,
        wild_books * bonus.wild,
        red_threes,
        red_points,
        table_points,
        held_points,
        rules.going_out_bonus if went_out else 0,
        went_out,
    )
