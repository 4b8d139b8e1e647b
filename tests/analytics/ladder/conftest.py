"""Clubs with a night of games each, for the ladder's tests: every player plays three games
(the leaderboard's fewest), and the clubs' nights fall on different dates."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest

from league.models import Club, Event, Player
from league.services.clubs import club_ladder_share
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, PlayerFactory

NAMES = {
    "Maple": ("Ann Lee", "Ben Ito", "Cat Roy", "Dan Fox"),
    "Oak": ("Eve Kim", "Fay Orr", "Gus Lam", "Hal Poe"),
    "Pine": ("Ivy Day", "Jon Ash", "Kit Moe", "Lou Fry"),
    "Birch": ("Max Ode", "Ned Ray", "Oli Cho", "Pam Yu"),
}
# Seat orders of the night's three games (seats 0 and 2 partner seats 1 and 3) and the totals.
GAMES = (((0, 1, 2, 3), (3200, 1500)), ((0, 2, 1, 3), (2600, 2400)), ((0, 3, 1, 2), (1900, 2700)))


@dataclass
class LadderClub:
    club: Club
    players: list[Player]
    event: Event


def club_with_a_night(name: str, day: int) -> LadderClub:
    club = ClubFactory(name=f"{name} Card Club", slug=name.lower())
    players = [PlayerFactory(club=club, name=n) for n in NAMES[name]]
    event = EventFactory(club=club, date=datetime.date(2026, 10, day))
    for number, (order, totals) in enumerate(GAMES, start=1):
        confirm(make_game(event=event, players=[players[i] for i in order],
                          rotation_number=number), [totals])
    return LadderClub(club, players, event)


@pytest.fixture
def clubs(db) -> dict[str, LadderClub]:
    """Maple, Oak and Pine (which will share) and Birch (which never does)."""
    return {name: club_with_a_night(name, day)
            for name, day in (("Maple", 3), ("Oak", 4), ("Pine", 5), ("Birch", 6))}


@pytest.fixture
def share(django_capture_on_commit_callbacks):
    """Turn a club's sharing on or off as a director does, the ladder computed after commit."""
    def share(club: Club, on: bool = True) -> Club:
        with django_capture_on_commit_callbacks(execute=True):
            return club_ladder_share(club=club, share=on, by=None)
    return share
