"""The director's "Seat a substitute" form on the event page: the absent member (one of the
night's entrants) and the substitute's name (a player of the club, or a new name)."""

from typing import Any

from django import forms

from league.models import Event, Player
from league.services.players import NAME_MAX_LENGTH


def absent_member_choices(event: Event, taken: set[int]) -> list[Player]:
    """The players entered tonight (or in a partnership entered tonight), still playing, who
    have no substitute yet, by name."""
    ids: set[int] = set()
    for player_id, a, b in event.registrations.filter(withdrawn_after_rotation__isnull=True).values_list(
            "player_id", "partnership__player_a_id", "partnership__player_b_id"):
        ids.update(p for p in (player_id, a, b) if p is not None)
    return list(Player.objects.filter(pk__in=ids - taken).order_by("name", "pk"))


class SubstituteForm(forms.Form):
    member = forms.ModelChoiceField(queryset=Player.objects.none(), label="Absent member",
                                    empty_label="Choose the member who is away",
                                    error_messages={"required": "Choose the member who is away.",
                                                    "invalid_choice": "Choose one of tonight's members."})
    substitute = forms.CharField(
        max_length=NAME_MAX_LENGTH, label="Substitute's name",
        help_text="A player of the club, or a new name (they are added to the club's players).",
        error_messages={"required": "Give the substitute's name.",
                        "max_length": f"That name is too long ({NAME_MAX_LENGTH} characters at most)."})

    def __init__(self, *args: Any, event: Event, taken: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = absent_member_choices(event, taken)
        field = self.fields["member"]
        if isinstance(field, forms.ModelChoiceField):
            field.queryset = Player.objects.filter(pk__in=[p.pk for p in members]).order_by("name", "pk")
        self.fields["substitute"].widget.attrs.update({"list": "substitute-names", "autocomplete": "off"})
