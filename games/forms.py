"""Forms of the table-side and director pages. They only shape input; the engine judges it."""

import uuid
from typing import Any, cast

from django import forms
from django.forms.renderers import Jinja2

from handfoot.formats import SHEET_FORMAT
from handfoot.rules import ENTERED_PARTS, PartKind, RuleSet, ScoringPart, parts_paid, parts_scored
from league.services.credentials import TYPED_CODE_MAX, code_normalise

# Every phone at a table draws the table page's forms at each visit (a sheet alone is about
# twenty fields). Django's own widget templates drawn by Jinja2 give the same markup (whitespace
# aside) in about 40 % less time than by the Django template engine (a sheet form: 10.7 -> 6.4 ms,
# measured on the 2-core machine); the table page was half the main pool's CPU on a 100-table night.
TABLE_FORM_RENDERER = Jinja2()


class TableForm(forms.Form):
    """A form of the table-side pages, drawn by `TABLE_FORM_RENDERER`."""

    default_renderer = TABLE_FORM_RENDERER


class CodeForm(TableForm):
    """The code on a side's slip, as typed: small letters, dashes and spaces are fine."""

    code = forms.CharField(
        max_length=TYPED_CODE_MAX,
        label="Your side's code",
        help_text="The code on your side's slip, such as ABC-2345 (small letters, dashes and "
        "spaces are fine).",
        error_messages={
            "max_length": "A code has 7 letters and digits, such as ABC-2345.",
            "required": "Type the code on your side's slip.",
        },
    )

    def clean_code(self) -> str:
        code = code_normalise(self.cleaned_data["code"])
        if code is None:
            raise forms.ValidationError(
                "A code has 7 letters and digits, such as ABC-2345. Check your side's slip."
            )
        return code


def _part_field(part: ScoringPart) -> forms.Field:
    """The sheet's field for one part a scorer writes (`handfoot.rules.ENTERED_PARTS`): a box
    for yes or no, else a number in the part's range; the small counts get +/- steppers."""
    if part.kind == PartKind.YES_NO:
        return forms.BooleanField(required=False, label=part.words)
    stepped = part.kind == PartKind.COUNT
    return forms.IntegerField(
        min_value=part.minimum,
        max_value=part.maximum,
        initial=0,
        label=part.words,
        widget=forms.NumberInput(
            attrs={
                "inputmode": "numeric",
                "class": "stepped" if stepped else "points",
                "step": 1 if stepped else 5,
            }
        ),
    )


class SheetForm(TableForm):
    """One round's score sheet: per side the books, red 3s, points and whether it went out, and
    any other part a scorer writes that the event's rules pay for: a box for each part the rules
    score (`handfoot.rules.parts_scored`, as the printed sheet); a part they pay nothing for (wild
    books where wilds make no meld, red 3s where none are laid) goes into the sheet as none.

    `saved_rounds` are the rounds this entrant already saved: the round offered first is the
    next unsaved one, and saving over a saved round needs `replace` (the page's "Replace round
    N" button, shown with both versions)."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=128)
    round = forms.TypedChoiceField(coerce=int, label="Round")
    ended_by = forms.ChoiceField(
        label="How the round ended",
        choices=[("went_out", "A player went out"), ("stock_out", "The stock ran out")],
        widget=forms.RadioSelect,
        initial="went_out",
    )
    replace = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # The round the scorer opened again ("Open round N again"): saving it is the consent to
    # replace it, so the page does not ask a second time.
    reopened = forms.IntegerField(
        required=False, min_value=1, max_value=99, widget=forms.HiddenInput
    )

    def __init__(
        self, *args: Any, sides: list, rules: RuleSet, saved_rounds: Any = (), **kwargs: Any
    ) -> None:
        rounds = rules.rounds
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("idempotency_key", uuid.uuid4().hex)
        initial.setdefault("ended_by", "went_out")
        saved = set(saved_rounds)
        initial.setdefault(
            "round", next((n for n in range(1, rounds + 1) if n not in saved), rounds)
        )
        super().__init__(*args, **kwargs)
        self.sides = sides
        self.parts = parts_scored(rules)
        self.sheet_parts = parts_paid(rules)
        # `round` is the TypedChoiceField declared above (`fields` types its values as Field).
        cast(forms.TypedChoiceField, self.fields["round"]).choices = [
            (n, f"Round {n}" + (" (saved)" if n in saved else "")) for n in range(1, rounds + 1)
        ]
        for side in sides:
            for part in self.parts:
                self.fields[f"side{side.side}_{part.name}"] = _part_field(part)

    def side_fields(self) -> list[tuple[Any, list]]:
        """(side, bound fields) pairs for the template."""
        return [
            (side, [self[f"side{side.side}_{part.name}"] for part in self.parts])
            for side in self.sides
        ]

    def sheet(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "format": SHEET_FORMAT,
            "round": data["round"],
            "ended_by": data["ended_by"],
            "sides": [
                {part.name: data.get(f"side{side.side}_{part.name}", part.default)
                 for part in self.sheet_parts}
                for side in self.sides
            ],
        }


def sheet_initial(round_report: dict[str, Any]) -> dict[str, Any]:
    """Form values showing one round of a stored version."""
    initial: dict[str, Any] = {"round": round_report["round"], "ended_by": round_report["ended_by"]}
    for n, side in enumerate(round_report["sides"]):
        initial.update(
            {f"side{n}_{part.name}": side.get(part.name, part.default) for part in ENTERED_PARTS}
        )
    return initial


class LogUploadForm(TableForm):
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=128)
    log = forms.FileField(label="Move log (JSON file)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, **kwargs)


class LogMappingForm(TableForm):
    """Which turn of the table an uploaded move log is (see `games.logmap`)."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=128)
    turn = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label="Who is who")

    def __init__(self, *args: Any, options: list, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        if options:
            kwargs["initial"].setdefault("turn", options[0].turn)
        super().__init__(*args, **kwargs)
        # `turn` is the TypedChoiceField declared above (`fields` types its values as Field).
        cast(forms.TypedChoiceField, self.fields["turn"]).choices = [
            (
                o.turn,
                "; ".join(f"log seat {seat} = {name}" for seat, _, name in o.players)
                + (f"; {o.dealer} deals round 1" if o.dealer else ""),
            )
            for o in options
        ]


class ConfirmForm(TableForm):
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class DisputeForm(TableForm):
    """A side says what is wrong with a confirmed result (games.services.disputes)."""

    reason = forms.CharField(
        label="What is wrong?",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="For example: round 2 was 1,230 to 990, not 990 to 1,230.",
    )


class CorrectionForm(forms.Form):
    revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)
