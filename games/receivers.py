"""The results layer's part in league-level changes."""

from typing import Any

from django.dispatch import receiver

from games.models import SeatRoundFacts
from league.signals import player_merged


@receiver(player_merged)
def move_seat_facts(*, source_id: int, target_id: int, **_: Any) -> None:
    """A merged player's per-seat facts (from move logs) become the remaining player's."""
    SeatRoundFacts.objects.filter(player_id=source_id).update(player_id=target_id)
