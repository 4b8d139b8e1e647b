"""Forms of the table-side and director pages. They only shape input; the engine judges it."""

import uuid
from typing import Any

from django import forms

from games.engine.formats import SHEET_FORMAT
from games.engine.sheets import SIDE_NUMBER_FIELDS as SIDE_NUMBERS


class CodeForm(forms.Form):
    code = forms.CharField(
        max_length=8, label="Table code", help_text="The 6 characters on the table card."
    )


class SheetForm(forms.Form):
    """One round's score sheet: per side the books, red 3s, points and who went out."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=128)
    round = forms.TypedChoiceField(coerce=int)
    ended_by = forms.ChoiceField(
        choices=[("went_out", "A player went out"), ("stock_out", "The stock ran out")]
    )

    def __init__(self, *args: Any, sides: list, rounds: int, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, **kwargs)
        self.sides = sides
        self.fields["round"].choices = [(n, f"Round {n}") for n in range(1, rounds + 1)]
        for side in sides:
            for name in SIDE_NUMBERS:
                self.fields[f"side{side.side}_{name}"] = forms.IntegerField(
                    min_value=0,
                    max_value=100_000,
                    initial=0,
                    label=name.replace("_", " ").replace("red threes", "red 3s").capitalize(),
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
            self.fields[f"side{side.side}_went_out"] = forms.BooleanField(
                required=False, label="Went out"
            )

    def side_fields(self) -> list[tuple[Any, list]]:
        """(side, bound fields) pairs for the template."""
        return [
            (side, [self[f"side{side.side}_{name}"] for name in (*SIDE_NUMBERS, "went_out")])
            for side in self.sides
        ]

    def sheet(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "format": SHEET_FORMAT,
            "round": data["round"],
            "ended_by": data["ended_by"],
            "sides": [
                {
                    **{name: data[f"side{side.side}_{name}"] for name in SIDE_NUMBERS},
                    "went_out": data[f"side{side.side}_went_out"],
                }
                for side in self.sides
            ],
        }


def sheet_initial(round_report: dict[str, Any]) -> dict[str, Any]:
    """Form values showing one round of a stored version."""
    initial: dict[str, Any] = {"round": round_report["round"], "ended_by": round_report["ended_by"]}
    for n, side in enumerate(round_report["sides"]):
        initial.update({f"side{n}_{name}": side[name] for name in SIDE_NUMBERS})
        initial[f"side{n}_went_out"] = side["went_out"]
    return initial


class LogUploadForm(forms.Form):
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=128)
    log = forms.FileField(label="Move log (JSON file)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, **kwargs)


class ConfirmForm(forms.Form):
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CorrectionForm(forms.Form):
    revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)
