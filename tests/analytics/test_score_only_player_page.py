"""Issue 42: a player whose past was imported with its totals only (27 games, "Win rate –")
reads what those totals show: the win rate from them, and in words what the statistics leave out
and why."""

import pytest
from django.urls import reverse

from games.services import imports
from league.models import Player
from tests.factories import ClubFactory, MembershipFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


def test_an_imported_players_page_gives_the_win_rate_of_the_totals_and_says_why(client):
    past = h.past_nights(seed=11)
    club = ClubFactory()
    plan = imports.results_import(club=club, file_name="past.csv", data=h.game_row_totals(past))
    assert plan.imported is not None
    ann = Player.objects.get(club=club, name="Ann Lee")
    played = [g for g in past if "Ann Lee" in g.sides[0] + g.sides[1]]
    wins = sum(1 for g in played
               if g.totals[0 if "Ann Lee" in g.sides[0] else 1]
               > g.totals[1 if "Ann Lee" in g.sides[0] else 0])
    client.force_login(MembershipFactory(club=club, role="director").user)
    page = client.get(reverse("player-detail", args=[club.slug, ann.pk])).content.decode()
    rate = round(100 * wins / len(played))
    assert f"{rate}% <span class=\"muted small\">from the totals of {len(played)} games" in page
    assert (f"{len(played)} of Ann Lee’s games carry their scores only" in page
            and f"{wins} won, 0 tied and {len(played) - wins} lost by the totals" in page)
    assert "<dd>–</dd>" not in page.split("Win rate")[1][:40]
