"""Factories and documents for the results tests, building on tests/factories.py."""

import copy
import json
from typing import Any

from league.models import Event, Game
from tests.conftest import EXAMPLES_DIR
from tests.factories import EventFactory, PlayerFactory, make_game

# The spec's example files, kept beside the tests (tests/spec_examples; see tests/conftest.py).
DATA = EXAMPLES_DIR
SLUGS = ("ann", "ben", "cat", "dan")

# The worked example of rules.md: 3855 to 615 under classic rules.
SEED_SIDES = [
    {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes": 1,
     "table_points": 555, "held_points": 0, "went_out": True},
    {"clean_books": 1, "dirty_books": 0, "wild_books": 0, "red_threes": 1,
     "table_points": 220, "held_points": 205, "went_out": False},
]


def data_file(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text())


def stockout_log() -> dict[str, Any]:
    """A complete, legal four-round classic game (seats ann, ben, cat, dan); totals -4155/-7705."""
    return data_file("classic_stockout_game.json")


def sheet(round_number: int, *, table_points: int = 555, **top: Any) -> dict[str, Any]:
    """A valid classic score sheet for one round (no `rules`: the event's apply)."""
    sides = copy.deepcopy(SEED_SIDES)
    sides[0]["table_points"] = table_points
    return {"format": "hand-and-foot-sheet/1", "round": round_number, "ended_by": "went_out",
            "sides": sides, **top}


def running_event(**kwargs: Any) -> Event:
    return EventFactory(status=Event.Status.RUNNING, **kwargs)


def named_game(*, event: Event | None = None, slugs: tuple[str, ...] = SLUGS, **kwargs: Any) -> Game:
    """A game whose players' slugs are `slugs` in seat order (the example logs' seats)."""
    event = event or running_event()
    players = [PlayerFactory(club=event.club, slug=slug, name=slug.title()) for slug in slugs]
    return make_game(event=event, players=players, **kwargs)


def side_link(game: Game, side: int) -> str:
    """The token of one side's own table link (what its QR code on the table card holds)."""
    from league.services.credentials import game_side_credentials

    return game_side_credentials(game=game)[side].token
