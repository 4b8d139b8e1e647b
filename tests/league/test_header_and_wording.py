"""Issue 42, small wording and role fixes: a player without a director's membership sees no
Director menu; a signed-in user's home page on a site without clubs offers to start one; a
seating wish is for the season unless changed; an entrant whose account is gone is a "Former
player"."""

import pytest
from django.urls import reverse

from games import selectors as game_selectors
from league.forms.seating import WishForm
from tests.factories import (
    EventFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)
from tests.games.factories import named_game

pytestmark = pytest.mark.django_db

DIRECTOR_MENU = f'<a href="{reverse("director-home")}">Director</a>'


def test_a_signed_in_player_sees_no_director_menu(client):
    player = PlayerFactory(user=UserFactory(username="ann"))
    client.force_login(player.user)
    assert DIRECTOR_MENU not in client.get(reverse("leaderboard")).content.decode()


def test_a_clubs_director_sees_the_director_menu(client):
    client.force_login(MembershipFactory().user)
    assert DIRECTOR_MENU in client.get(reverse("leaderboard")).content.decode()


def test_a_new_superusers_home_offers_to_start_a_club(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.org", "x"))
    page = client.get(reverse("home")).content.decode()
    assert f'<a href="{reverse("director-home")}#start-club">Start a club</a>' in page
    assert 'id="start-club"' in client.get(reverse("director-home")).content.decode()


def test_a_seating_wish_is_for_the_season_unless_changed():
    event = EventFactory(season=SeasonFactory())
    form = WishForm(event=event)
    assert form["scope"].value() == "season"
    assert '<option value="season" selected>' in str(form["scope"])


def test_an_entrant_whose_account_is_gone_is_a_former_player():
    game = named_game()
    assert game_selectors.entrant_label(game=game, entrant="user:987654") == "Former player"
