"""Writes of the analytics: snapshots of standings, ratings and statistics."""


def event_recompute(*, event_id: int) -> None:
    """Recompute the event's standings snapshot, then its season's, ratings and statistics."""


def ratings_recompute(*, club_id: int, from_game_id: int | None = None) -> None:
    """Recompute the club's ratings from the given game onward (all games when None)."""


def statistics_recompute(*, club_id: int) -> None:
    """Recompute the club's per-player and per-partnership statistics snapshots."""
