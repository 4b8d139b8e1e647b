"""Head to head over every pair of the demo club's players, and over the sides that met: the page
answers 200 whether or not the two ever met, and counts exactly the games they played as
opponents."""

from collections import Counter
from itertools import combinations

import pytest

from league.models import Seat
from site_pages.demo import build_demo

pytestmark = pytest.mark.django_db


def sides_of_played_games(club) -> list[list[frozenset[str]]]:
    """For each played game, the slugs of the players on each side."""
    sides: dict[int, dict[int, set[str]]] = {}
    for game, side, slug in Seat.objects.filter(
            rotation__event__club=club, table__game__round_results__isnull=False).distinct() \
            .values_list("table__game", "side", "player__slug"):
        sides.setdefault(game, {}).setdefault(side, set()).add(slug)
    return [[frozenset(s) for s in by_side.values()] for by_side in sides.values()]


def met(games: list[list[frozenset[str]]], a: set[str], b: set[str]) -> int:
    """Games where all of `a` sat on one side and all of `b` on another."""
    return sum(any(a <= x and b <= y and x != y for x in sides for y in sides) for sides in games)


def head_to_head(client, club, a, b) -> dict:
    response = client.get("/head-to-head/", {"club": club.slug, "a": ",".join(sorted(a)),
                                             "b": ",".join(sorted(b))})
    assert response.status_code == 200, (a, b)
    return response.context["result"]


def test_every_pair_of_players_and_every_pair_of_sides_that_met(client):
    # Sixteen players; two nights of eight: some pairs met, some sat together, some never played.
    demo = build_demo(past_nights=1, player_count=16)
    games = sides_of_played_games(demo.club)
    slugs = [player.slug for player in demo.players]
    counts = Counter()
    for a, b in combinations(slugs, 2):
        expected = met(games, {a}, {b})
        result = head_to_head(client, demo.club, {a}, {b})
        assert result["games"] == expected == len(result["game_ids"]), (a, b)
        assert result["wins"] + result["ties"] + result["losses"] == expected
        counts[expected > 0] += 1
    assert counts[True] and counts[False]  # both kinds were walked
    side_pairs = {tuple(sorted(sides, key=sorted)) for sides in games if len(sides) == 2}
    for x, y in side_pairs:
        assert head_to_head(client, demo.club, x, y)["games"] == met(games, x, y) >= 1
    never_played = [s for s in slugs if not any(s in side for sides in games for side in sides)]
    assert len(never_played) >= 2
    assert head_to_head(client, demo.club, {slugs[0], slugs[1]}, set(never_played[:2]))["games"] == 0
