"""Issue 46: ratings that say how sure they are ("provisional: 3 nights"), and a pair who
always play together shown by their joint figure, not split by guesswork."""

import pytest

from analytics.ratings import services as ratings_services
from analytics.ratings.compute import PROVISIONAL_NIGHTS, pair_rating, rating_reliability
from analytics.statistics import services as statistics_services
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, PlayerFactory


def test_a_rating_is_provisional_until_its_fifth_night_then_says_how_settled_it_is():
    assert PROVISIONAL_NIGHTS == 5
    assert rating_reliability(sigma=0.08, games=1, nights=1) == "provisional: 1 night"
    assert rating_reliability(sigma=0.07, games=9, nights=3) == "provisional: 3 nights"
    assert rating_reliability(sigma=0.02, games=60, nights=12) == "well established, over 12 nights"


def test_a_pair_s_joint_figure_is_their_mean_skill_with_the_spread_of_their_sum_halved():
    mu, sigma = pair_rating((0.04, 0.02), (0.03, 0.04))
    assert mu == pytest.approx(0.03) and sigma == pytest.approx(0.025)


def _night(club, date, seating, players, rounds):
    event = EventFactory(club=club, date=date)
    for rotation, order in enumerate(seating, start=1):
        confirm(make_game(event=event, players=[players[i] for i in order],
                          rotation_number=rotation), rounds)


def _page(client, player) -> str:
    ratings_services.ratings_recompute(club_id=player.club_id)
    statistics_services.statistics_recompute(club_id=player.club_id)
    return client.get(player.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_after_three_nights_with_changing_partners_the_rating_is_provisional(client):
    club = ClubFactory()
    p = [PlayerFactory(club=club, name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    for night in range(3):
        # seats 0 and 2 partner: Ann with Cat, then with Ben, then with Dan
        _night(club, f"2026-0{night + 1}-01", [(0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)], p,
               [[1500, 1200]] * 4)
    page = _page(client, p[0])
    assert "provisional: 3 nights" in page
    assert "Rating as a pair" not in page


@pytest.mark.django_db
def test_partners_who_never_play_apart_are_rated_as_a_pair_on_both_pages(client):
    club = ClubFactory()
    p = [PlayerFactory(club=club, name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    for night in range(2):
        # Ann and Cat (seats 0 and 2) always together; Ben and Dan too
        _night(club, f"2026-0{night + 1}-01", [(0, 1, 2, 3)], p, [[1800, 1200]] * 4)
    ann, cat = _page(client, p[0]), _page(client, p[2])
    for page, partner in ((ann, p[2]), (cat, p[0])):
        assert "Rating as a pair" in page and f"with <a href=\"{partner.get_absolute_url()}\"" in page
        assert "have played every game together" in page
    assert ann.split("Rating as a pair")[1][:40] == cat.split("Rating as a pair")[1][:40]
