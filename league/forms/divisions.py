"""Forms of a season's divisions: a new division, each player's division, how many go up and
down, and the season the promotion and relegation are confirmed into."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from league.forms.fields import offer
from league.models import Division, Player, Season

MAX_PROMOTION_PLACES = 20


class DivisionForm(forms.Form):
    name = forms.CharField(max_length=80, label="Name of the new division",
                           help_text="E.g. “Division 2”. It goes below the others.",
                           error_messages={"required": "Give the division a name."})


class PromotionPlacesForm(forms.Form):
    promotion_places = forms.IntegerField(
        min_value=0, max_value=MAX_PROMOTION_PLACES, label="Players who go up and down",
        help_text=f"Between neighbouring divisions at the season's end, from 0 to "
                  f"{MAX_PROMOTION_PLACES}.",
        error_messages={
            "required": "Give a number of players.",
            "invalid": "Give a whole number of players.",
            "min_value": f"Give a number from 0 to {MAX_PROMOTION_PLACES}.",
            "max_value": f"Give a number from 0 to {MAX_PROMOTION_PLACES}.",
        })


def _player_field(player: Player) -> str:
    return f"player_{player.pk}"


class PlacesForm(forms.Form):
    """One choice per player of the season: a division, or none."""

    def __init__(self, *args: Any, players: Iterable[Player], divisions: Iterable[Division],
                 current: dict[int, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "No division")] + [(str(d.pk), d.name) for d in divisions]
        self.players = list(players)
        for player in self.players:
            self.fields[_player_field(player)] = forms.ChoiceField(
                choices=choices, required=False, label=player.name,
                initial=str(current.get(player.pk, "")))

    def places(self) -> dict[int, int | None]:
        """Player id → division id (None: no division)."""
        return {p.pk: int(value) if (value := self.cleaned_data.get(_player_field(p))) else None
                for p in self.players}


class SeasonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.name)


class PromotionConfirmForm(forms.Form):
    target = SeasonChoiceField(
        queryset=Season.objects.none(), label="Next season",
        help_text="Its divisions are made like this season's, and each player placed as "
                  "proposed.", error_messages={"required": "Choose the next season."})

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer(self.fields["target"], Season.objects.filter(league=season.league).exclude(pk=season.pk))
