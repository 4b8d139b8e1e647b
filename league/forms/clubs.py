"""Forms of the director's club pages: the club, its members, leagues and seasons."""

from typing import Any

from django import forms

from league.forms.fields import offer
from league.models import Club, League, Membership, Season
from league.time_zones import default_time_zone, time_zone_choices


def _time_zone_field(*, required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=time_zone_choices, initial=default_time_zone, label="Time zone", required=required,
        help_text="Where the club plays: its nights, reminders, calendars and mail are in this "
                  "zone's time.",
    )


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="Club name")
    time_zone = _time_zone_field(required=False)  # none given: the site's TIME_ZONE


class ClubTimeZoneForm(forms.Form):
    time_zone = _time_zone_field()


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
        offer(self.fields["league"], club.leagues.all())
