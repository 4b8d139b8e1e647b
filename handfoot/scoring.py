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
    return SideScore(
        clean_books=clean_books,
        dirty_books=dirty_books,
        wild_books=wild_books,
        clean_bonus=clean_books * bonus.clean,
        dirty_bonus=dirty_books * bonus.dirty,
        wild_bonus=wild_books * bonus.wild,
        red_threes=red_threes,
        red_three_points=red_points,
        table_points=table_points,
        held_points=held_points,
        going_out_bonus=rules.going_out_bonus if went_out else 0,
        went_out=went_out,
    )
