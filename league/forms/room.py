"""Forms of the director's room during a night: entrants, swaps and the first dealer."""

from typing import Any

from django import forms
from django.db.models import QuerySet

from league.forms.fields import offer
from league.models import Event, Player


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
        offer(self.fields["player"], active)
        offer(self.fields["partner"], active)
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
        offer(self.fields["player_a"], players)
        offer(self.fields["player_b"], players)


class DealerForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=1000)
    player = forms.ModelChoiceField(queryset=Player.objects.all())
