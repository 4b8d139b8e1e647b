"""Figures as the table says them: whole numbers with thousands separators ("7,200", "-1,010"),
others to two places at most ("12.5"), and a game's figures side by side in words ("7,200 and
3,555"; "7,200, 3,555 and 1,000"), never a list's brackets or slashes. Pure Python."""

from __future__ import annotations

from collections.abc import Iterable


def figure(value: object) -> str:
    """One figure: a whole number with thousands separators, else to two places at most;
    anything that is not a number as it is (an empty cell stays empty)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def figures_words(values: Iterable[object], *, last: str = "and") -> str:
    """Several figures in words: "7,200 and 3,555", "7,200, 3,555 and 1,000"."""
    shown = [figure(v) for v in values]
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} {last} {shown[-1]}"
