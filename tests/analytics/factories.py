"""Builders for analytics tests: confirmed results as RoundResult rows on tests.factories games."""

from __future__ import annotations

from collections.abc import Sequence

from games.models import RoundResult
from league.models import Game
from tests.factories import make_game  # noqa: F401  (re-exported for the tests)


def confirm(game: Game, rounds: Sequence[Sequence[int]], **parts) -> list[RoundResult]:
    """Store a confirmed result: `rounds` lists each round's scores, one per side. Keyword
    `parts` give per-round, per-side lists of the other figures (e.g. clean_books=[[1, 0]])."""
    rows = []
    for r, scores in enumerate(rounds, start=1):
        went_out_side = max(range(len(scores)), key=lambda s: scores[s])
        for side, score in enumerate(scores):
            figures = {name: values[r - 1][side] for name, values in parts.items()}
            figures.setdefault("went_out", side == went_out_side)
            rows.append(RoundResult(game=game, round_number=r, side=side, score=score,
                                    ended_by="went_out", **figures))
    RoundResult.objects.bulk_create(rows)
    game.status = Game.Status.CONFIRMED
    game.save(update_fields=["status"])
    return rows


def rotating_night(event, players, games: Sequence[tuple[Sequence[int], Sequence[int]]]):
    """One game per rotation: each item is (seat order as indexes into players, side totals)."""
    made = []
    for number, (order, totals) in enumerate(games, start=1):
        game = make_game(event=event, players=[players[i] for i in order], rotation_number=number)
        confirm(game, [totals])
        made.append(game)
    return made
