"""Forms of an event: its settings (with the rules as JSON) and its status."""

from typing import Any

from django import forms
from django.db.models import QuerySet

from league.forms.fields import offer
from league.forms.house_rules import rules_from_text
from league.models import Club, Division, Event, Season
from league.presets import PRESET_CHOICES, rules_text

TIE_BREAK_SLOTS = 4
ROUND_TIME_WORDS = "Give the round time in minutes, from 5 to 240, or leave it empty for no clock."
TIE_BREAK_CHOICES = [("", "(none)")] + [(t, t.replace("_", " ").capitalize()) for t in Event.TIE_BREAKS]


class DivisionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.season})"


class EventForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), empty_label=None)
    name = forms.CharField(max_length=160, label="Event name")
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    starts_at = forms.TimeField(required=False, label="Starts at",
                                widget=forms.TimeInput(attrs={"type": "time"}),
                                help_text="The club's own time (its time zone, on the club's page). "
                                          "Shown on the event page, in reminders and calendars.")
    place = forms.CharField(max_length=200, required=False, label="Place",
                            help_text="Where the night is played, e.g. “The Crown, back room”.")
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    season = forms.ModelChoiceField(queryset=Season.objects.none(), required=False,
                                    help_text="League nights count towards this season's standings.")
    rules_preset = forms.ChoiceField(choices=PRESET_CHOICES, label="Rule preset")
    rules_overrides = forms.CharField(
        required=False, label="House rules as JSON", widget=forms.Textarea(attrs={"rows": 3}),
        help_text='The rules as a move log names them, e.g. {"preset": "classic", "overrides": '
        '{"going_out_bonus": 250}} (the same text works for a log\'s "rules" and for '
        '"simulate --rules"); just the changes, e.g. {"going_out_bonus": 250}, also do.',
    )
    format = forms.ChoiceField(choices=Event.Format.choices)
    table_sizes = forms.TypedMultipleChoiceField(
        choices=[(4, "Tables of 4"), (6, "Tables of 6")], coerce=int, initial=[4],
        widget=forms.CheckboxSelectMultiple,
    )
    odd_handling = forms.ChoiceField(choices=Event.OddHandling.choices, label="When players do not fill the tables")
    sit_out_rule = forms.ChoiceField(
        choices=Event.SitOutRule.choices, initial=Event.SitOutRule.FEWEST, required=False,
        label="Who sits out",
        help_text=" ".join(f"{Event.SitOutRule(k).label}: {v}" for k, v in Event.SIT_OUT_RULE_HELP.items()),
    )
    planned_rotations = forms.IntegerField(min_value=1, max_value=60, initial=3)
    scoring = forms.ChoiceField(choices=Event.Scoring.choices, initial=Event.Scoring.MATCH_POINTS)
    sit_out_scoring = forms.ChoiceField(
        choices=Event.SitOutScoring.choices, initial=Event.SitOutScoring.NONE, required=False,
        label="Sit-outs and late arrivals",
        help_text="How a rotation an entrant did not play counts in the standings (and the season's).",
    )
    bye_points = forms.IntegerField(
        min_value=0, max_value=100_000, initial=0, required=False, label="Bye points",
        help_text="Total points a sit-out scores, when sit-outs score fixed bye points.",
    )
    mixed_tables = forms.ChoiceField(
        choices=Event.MixedTables.choices, initial=Event.MixedTables.PER_PLAYER_ROUND,
        required=False, label="Tables of 4 and 6 in one night",
        help_text="How the standings compare a side of three at a table of six with a side of two "
        "(points per player and round), or three sides with two (match points by rank at the table).")
    is_public = forms.BooleanField(required=False, initial=True, label="Public (anyone may see it)")
    round_minutes = forms.IntegerField(
        min_value=5, max_value=240, required=False, label="Round time in minutes",
        error_messages={key: ROUND_TIME_WORDS for key in ("invalid", "min_value", "max_value")},
        help_text="Each table's clock for a round, on the table's page and the wall; "
                  "empty: no clock.")
    wall_chime = forms.BooleanField(
        required=False, label="A gentle chime on the wall when a table's time is up",
        help_text="Off: the clocks stay silent.")
    division = DivisionChoiceField(
        queryset=Division.objects.none(), required=False, label="Division",
        empty_label="The whole season", help_text="The division of the season that plays this night.")

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer(self.fields["club"], clubs)
        offer(self.fields["season"], Season.objects.filter(league__club__in=clubs).select_related("league"))
        offer(self.fields["division"], Division.objects.filter(season__league__club__in=clubs)
              .select_related("season__league"))
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                choices=TIE_BREAK_CHOICES, required=False, label=f"Tie-break {slot}"
            )

    def clean_sit_out_rule(self) -> str:
        return self.cleaned_data["sit_out_rule"] or Event.SitOutRule.FEWEST

    def clean_sit_out_scoring(self) -> str:
        return self.cleaned_data["sit_out_scoring"] or Event.SitOutScoring.NONE

    def clean_mixed_tables(self) -> str:
        return self.cleaned_data["mixed_tables"] or Event.MixedTables.PER_PLAYER_ROUND

    def clean_bye_points(self) -> int:
        return self.cleaned_data["bye_points"] or 0

    def clean(self) -> dict[str, Any]:
        """The advanced JSON box (a log's `rules`, or just the overrides), refused in words
        (never the JSON parser's message); a preset named there wins over the list."""
        data = super().clean() or self.cleaned_data  # Django's clean() returns cleaned_data
        if "rules_overrides" in self.errors:
            return data
        try:
            preset, overrides = rules_from_text(self.data.get(self.add_prefix("rules_overrides"), ""),
                                                preset=data.get("rules_preset") or "classic")
        except forms.ValidationError as error:
            self.add_error("rules_overrides", error)
            return data
        data["rules_preset"], data["rules_overrides"] = preset, overrides
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned form as keyword arguments of `event_create` / `event_update`."""
        data = dict(self.cleaned_data)
        data["tie_breaks"] = [
            data.pop(f"tie_break_{slot}") for slot in range(1, TIE_BREAK_SLOTS + 1)
        ]
        data["tie_breaks"] = [t for t in data["tie_breaks"] if t]
        return data

    @staticmethod
    def initial_for(event: Event) -> dict[str, Any]:
        initial = {
            name: getattr(event, name)
            for name in ("club", "name", "date", "starts_at", "place", "kind", "season", "rules_preset", "format",
                         "table_sizes", "odd_handling", "planned_rotations", "scoring", "is_public",
                         "sit_out_scoring", "bye_points", "sit_out_rule", "division", "mixed_tables",
                         "round_minutes", "wall_chime")
        }
        initial["rules_overrides"] = (rules_text(preset=event.rules_preset, overrides=event.rules_overrides)
                                      if event.rules_overrides else "")
        for slot, tie_break in enumerate(event.tie_breaks, start=1):
            initial[f"tie_break_{slot}"] = tie_break
        return initial


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Event.Status.choices)
