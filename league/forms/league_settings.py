"""The form of a league's settings page: how the league counts a substitute's result. A plain
list of fields (other settings of the league are added to it as fields, one after another)."""

from django import forms

from league.models import League

# The database allows a cap of at most 100 (league_substitute_cap_range).
MAX_SUBSTITUTE_CAP = 100


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

    @staticmethod
    def initial_for(league: League) -> dict[str, object]:
        """The league's current values, as the form's initial values."""
        return {name: getattr(league, name) for name in LeagueSettingsForm.base_fields}
