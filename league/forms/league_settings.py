"""The form of a league's settings page: how the league counts a substitute's result. A plain
list of fields (other settings of the league are added to it as fields, one after another)."""

from django import forms

from league.models import League

# The database allows a cap of at most 100 (league_substitute_cap_range).
MAX_SUBSTITUTE_CAP = 100


def _range(what: str, low: int, high: int) -> dict[str, str]:
    words = f"Give {what} from {low:,} to {high:,}."
    return {"required": words, "invalid": words, "min_value": words, "max_value": words}


class LeagueSettingsForm(forms.Form):
    substitute_counts_for = forms.ChoiceField(
        choices=League.SubstituteCountsFor.choices, label="A substitute's result counts for",
        widget=forms.RadioSelect,
        help_text="Chosen once for the league: standings, season tables, ratings and statistics "
                  "follow it.")
    substitute_cap = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_SUBSTITUTE_CAP,
        label="Substituted nights counted per member in a season",
        help_text=f"Empty: no limit. From 0 to {MAX_SUBSTITUTE_CAP}; a member's substituted nights "
                  "past this number (in date order) count for nobody.",
        error_messages={
            "invalid": "Give a whole number of nights, or leave the box empty.",
            "min_value": f"Give a number of nights from 0 to {MAX_SUBSTITUTE_CAP}, or leave the box empty.",
            "max_value": f"Give a number of nights from 0 to {MAX_SUBSTITUTE_CAP}, or leave the box empty.",
        })

    # Handicaps (analytics.handicaps): the ranges are the database's (league_handicap_*_range).
    handicap_formula = forms.ChoiceField(
        choices=League.HandicapFormula.choices, label="Handicaps", widget=forms.RadioSelect,
        help_text="A night's handicaps are fixed when it starts: a change applies from the next "
                  "night that starts. The scratch standings are always shown too.")
    handicap_base = forms.IntegerField(
        min_value=-100_000, max_value=100_000, label="Base (points, or rating)",
        help_text="What the player's average or rating is compared with, e.g. 5,000 game points "
                  "or a rating of 1,600.", error_messages=_range("a number of points", -100_000, 100_000))
    handicap_percent = forms.IntegerField(
        min_value=0, max_value=100, label="Share of the difference (per cent)",
        help_text="E.g. 80: 80 % of (5,000 − 4,350) = 520.",
        error_messages=_range("a percentage", 0, 100))
    handicap_cap = forms.IntegerField(
        required=False, min_value=0, max_value=100_000, label="Largest handicap",
        help_text="Empty: no cap.", error_messages=_range("a number of points", 0, 100_000))
    handicap_nights = forms.IntegerField(
        min_value=1, max_value=52, label="Nights the average covers",
        help_text="The player's most recent nights of the league, from 1 to 52.",
        error_messages=_range("a number of nights", 1, 52))
    handicap_applies_to = forms.ChoiceField(
        choices=League.HandicapAppliesTo.choices, label="The handicap is", widget=forms.RadioSelect)

    @staticmethod
    def initial_for(league: League) -> dict[str, object]:
        """The league's current values, as the form's initial values."""
        return {name: getattr(league, name) for name in LeagueSettingsForm.base_fields}
