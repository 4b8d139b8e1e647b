"""Forms of the seating pages: a seating wish, and the expected names for prepared plans."""

from typing import Any

from django import forms

from league.forms.fields import offer
from league.models import Event, Player, SeatingWish
from league.services.wishes import MAX_SEAT, MAX_TABLE

MAX_NAMES_TEXT = 20_000


class WishForm(forms.Form):
    kind = forms.ChoiceField(choices=SeatingWish.Kind.choices, label="Wish")
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label="Player")
    other = forms.ModelChoiceField(queryset=Player.objects.none(), required=False,
                                   label="Other player (for a pair)")
    table_number = forms.IntegerField(min_value=1, max_value=MAX_TABLE, required=False,
                                      label="Table (for a fixed seat)")
    seat_number = forms.IntegerField(min_value=1, max_value=MAX_SEAT, required=False,
                                     label="Seat (for a fixed seat)")
    # A wish is usually about people, not one night: the season is chosen unless changed.
    scope = forms.ChoiceField(choices=[("season", "Every night of the season"), ("night", "This night")],
                              initial="season", label="For")

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = event.club.players.filter(retired_at__isnull=True).order_by("name")
        offer(self.fields["player"], players)
        offer(self.fields["other"], players)
        if event.season_id is None:
            del self.fields["scope"]


class ExpectedNamesForm(forms.Form):
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}), required=False, max_length=MAX_NAMES_TEXT,
        label="Expected players (optional: one name a line)",
        help_text="Leave it empty to count on everyone who said they are coming.")


class PlanChoiceForm(forms.Form):
    """Which prepared plan: players more (+) or fewer (-) than expected."""

    offset = forms.IntegerField(min_value=-2, max_value=2)
    # The plan row shown: one prepared again since (another list) is no longer the one chosen.
    plan = forms.IntegerField(min_value=1, max_value=2**31 - 1)
