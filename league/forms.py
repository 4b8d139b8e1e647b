"""Forms of the director pages. They check the shape of what was typed; the league rules are
checked by `league.services`, whose refusals the views show next to the form."""

from typing import Any, cast

from django import forms
from django.db.models import QuerySet

from league.models import Club, Event, League, Membership, Player, Season
from league.presets import PRESET_CHOICES, rules_from_text, rules_text

TIE_BREAK_SLOTS = 4
TIE_BREAK_CHOICES = [("", "(none)")] + [(t, t.replace("_", " ").capitalize()) for t in Event.TIE_BREAKS]



def _offer(field: forms.Field, queryset: QuerySet[Any]) -> None:
    """Offer only `queryset` in a model choice field declared on the form."""
    cast(forms.ModelChoiceField, field).queryset = queryset

class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="Club name")


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=Membership.Role.choices)


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120, label="League name")


class SeasonForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none(), empty_label=None)
    name = forms.CharField(max_length=120, label="Season name")
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    aggregate = forms.ChoiceField(choices=Season.Aggregate.choices)
    best_n_nights = forms.IntegerField(required=False, min_value=1, label="Count only the best N nights",
                                       help_text="Empty: every night counts.")
    min_attendance = forms.IntegerField(min_value=0, initial=0, label="Nights needed to be ranked")
    season_aware_seating = forms.BooleanField(
        required=False, initial=True, label="Mix partners over the season",
        help_text="Seat each night against the season's earlier nights.",
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _offer(self.fields["league"], club.leagues.all())


class EventForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), empty_label=None)
    name = forms.CharField(max_length=160, label="Event name")
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
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
    is_public = forms.BooleanField(required=False, initial=True, label="Public (anyone may see it)")

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _offer(self.fields["club"], clubs)
        _offer(self.fields["season"], Season.objects.filter(league__club__in=clubs).select_related("league"))
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                choices=TIE_BREAK_CHOICES, required=False, label=f"Tie-break {slot}"
            )

    def clean_sit_out_rule(self) -> str:
        return self.cleaned_data["sit_out_rule"] or Event.SitOutRule.FEWEST

    def clean_sit_out_scoring(self) -> str:
        return self.cleaned_data["sit_out_scoring"] or Event.SitOutScoring.NONE

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
            for name in ("club", "name", "date", "kind", "season", "rules_preset", "format",
                         "table_sizes", "odd_handling", "planned_rotations", "scoring", "is_public",
                         "sit_out_scoring", "bye_points", "sit_out_rule")
        }
        initial["rules_overrides"] = (rules_text(preset=event.rules_preset, overrides=event.rules_overrides)
                                      if event.rules_overrides else "")
        for slot, tie_break in enumerate(event.tie_breaks, start=1):
            initial[f"tie_break_{slot}"] = tie_break
        return initial


class EntrantForm(forms.Form):
    """A player (existing or new by name); in fixed formats also their partner."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False, label="Existing player")
    new_name = forms.CharField(max_length=120, required=False, label="Or a new player's name")
    partner = forms.ModelChoiceField(queryset=Player.objects.none(), required=False, label="Existing partner")
    partner_new_name = forms.CharField(max_length=120, required=False, label="Or a new partner's name")

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fixed = event.is_fixed_partnerships
        active = event.club.players.filter(retired_at__isnull=True)
        _offer(self.fields["player"], active)
        _offer(self.fields["partner"], active)
        if not self.fixed:
            del self.fields["partner"], self.fields["partner_new_name"]

    def _one(self, existing: str, new: str, who: str) -> Player | str:
        player, name = self.cleaned_data.get(existing), self.cleaned_data.get(new, "").strip()
        if bool(player) == bool(name):
            raise forms.ValidationError(f"Choose an existing {who} or type a new name (one of the two).")
        return player or name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # Django's clean() returns cleaned_data
        entrants = [self._one("player", "new_name", "player")]
        if self.fixed:
            entrants.append(self._one("partner", "partner_new_name", "partner"))
        cleaned["entrants"] = entrants
        return cleaned


class SwapForm(forms.Form):
    player_a = forms.ModelChoiceField(queryset=Player.objects.none(), label="Swap")
    player_b = forms.ModelChoiceField(queryset=Player.objects.none(), label="with")

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _offer(self.fields["player_a"], players)
        _offer(self.fields["player_b"], players)


class DealerForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=1000)
    player = forms.ModelChoiceField(queryset=Player.objects.all())


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Event.Status.choices)
