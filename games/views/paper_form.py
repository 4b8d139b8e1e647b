"""The paper entry form of the director's game page: each round's score per side, or only the
game's totals. A module of its own: the game page (`director`) draws it and `paper` takes it in,
and neither of those imports the other's page code for it."""

from __future__ import annotations

from typing import Any

from django import forms

from games import selectors, services
from games.spreadsheets import MAX_ROUND_SCORE
from league.models import Game


def _score(label: str, limit: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=-limit,
        max_value=limit,
        widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}),
        error_messages={
            "invalid": "Write a whole number.",
            "min_value": f"At most {limit:,} either way.",
            "max_value": f"At most {limit:,} either way.",
        },
    )


class PaperForm(forms.Form):
    """Per round and side a score, or per side the game's total (one or the other)."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=1_000_000)
    reason = forms.CharField(
        label="Note (kept with the result, optional)", required=False, max_length=500
    )

    def __init__(self, *args: Any, rounds: int, sides: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round_count = rounds
        self.side_labels = sides
        for n in range(1, rounds + 1):
            for s, label in enumerate(sides, start=1):
                self.fields[f"r{n}_s{s}"] = _score(
                    f"Round {n}, side {s} ({label})", MAX_ROUND_SCORE
                )
        for s, label in enumerate(sides, start=1):
            self.fields[f"total_s{s}"] = _score(
                f"Game total, side {s} ({label})", rounds * MAX_ROUND_SCORE
            )

    def round_rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [(n, [self[f"r{n}_s{s}"] for s in (1, 2)]) for n in range(1, self.round_count + 1)]

    def total_fields(self) -> list[forms.BoundField]:
        return [self["total_s1"], self["total_s2"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        rounds = [[data.get(f"r{n}_s{s}") for s in (1, 2)] for n in range(1, self.round_count + 1)]
        totals = [data.get("total_s1"), data.get("total_s2")]
        written = [v for r in rounds for v in r if v is not None]
        if written and len(written) != 2 * self.round_count:
            raise forms.ValidationError(
                "Write every round's score for both sides, or leave the rounds empty and write "
                "only the game's totals."
            )
        if written:
            sums = [sum(r[i] for r in rounds) for i in (0, 1)]  # type: ignore[misc]  # all set
            if any(t is not None and t != s for t, s in zip(totals, sums, strict=True)):
                raise forms.ValidationError(
                    f"The totals written are not the sums of the rounds ({sums[0]:,} and "
                    f"{sums[1]:,}): correct one or leave the totals empty."
                )
            data["rounds"], data["totals"] = rounds, None
        elif None in totals:
            raise forms.ValidationError(
                "Write each round's scores, or the game's total for both sides."
            )
        else:
            data["rounds"], data["totals"] = None, totals
        return data


def paper_form(game: Game, data: Any = None) -> PaperForm:
    sides = [s.label for s in selectors.game_sides(game=game)]
    return PaperForm(
        data,
        rounds=services.game_table(game=game).rules.rounds,
        sides=sides,
        prefix="paper",
        initial={"revision": services.result_revision(game=game)},
    )
