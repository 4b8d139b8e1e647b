"""Issue 22, finding 2: both sides' credentials were printed on one card, so whoever held it could
enter for one side and confirm for the other. Now the table card has the seating and dealers
only; each side's link, QR code and code are on a slip of its own (its own printed page), and
the director can show one side's code at a time on a screen."""

import re

import pytest

from league.models import Membership
from league.services.credentials import printed_code, side_credentials_ensure
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db


def cards_url(event, rotation=1):
    return f"/events/{event.slug}/table-cards/?rotation={rotation}"


def slip_url(event, table=1, side=1, rotation=1):
    return f"/events/{event.slug}/table-cards/{rotation}/{table}/side/{side}/"


def articles(page: str, kind: str) -> list[str]:
    return re.findall(rf'<article class="{kind}".*?</article>', page, flags=re.S)


@pytest.fixture
def event(director):
    return seated_event(club=director.memberships.get().club)


def test_the_table_card_has_the_seating_and_each_side_its_own_slip(client, director, event):
    client.force_login(director)
    page = client.get(cards_url(event)).content.decode()
    games = games_of(event)
    credentials = side_credentials_ensure(games=games)
    cards, slips = articles(page, "table-card"), articles(page, "side-slip")
    assert (len(cards), len(slips)) == (2, 4)
    for card, game in zip(cards, games, strict=True):
        assert "First dealer:" in card and "Side 1: " in card and "Side 2: " in card
        assert "<svg" not in card
        assert not any(printed_code(c.code) in card or c.token in card
                       for c in credentials[game.pk])
        assert "its own slip from the director" in card
    # Each slip holds its own side's link, QR code and code, and nothing of the other side's.
    for slip, credential in zip(slips, [c for g in games for c in credentials[g.pk]], strict=True):
        assert printed_code(credential.code) in slip and credential.token in slip
        assert slip.count("<svg") == 1
        assert f"For side {credential.side + 1} only" in slip
        others = [c for c in credentials[credential.game_id] if c.side != credential.side]
        assert not any(printed_code(o.code) in slip or o.token in slip for o in others)
    assert "hand each side its own slip" in page


def test_one_sides_code_on_the_directors_screen_without_the_others(client, director, event):
    client.force_login(director)
    game = games_of(event)[1]
    first, second = side_credentials_ensure(games=[game])[game.pk]
    response = client.get(slip_url(event, table=2, side=2))
    page = response.content.decode()
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert printed_code(second.code) in page and second.token in page
    assert printed_code(first.code) not in page and first.token not in page
    assert page.count("<svg") == 1
    assert "Show side 1's code" in page  # the next side, one press away


@pytest.mark.parametrize("where", [(1, 3, 1), (1, 1, 3), (1, 1, 0), (2, 1, 1)])
def test_a_slip_that_does_not_exist_is_404(client, director, event, where):
    client.force_login(director)
    rotation, table, side = where
    assert client.get(slip_url(event, table=table, side=side, rotation=rotation)).status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "outsider", "scorer", "other-club-director"])
def test_a_sides_code_is_shown_only_to_the_clubs_directors(client, event, who):
    users = {
        "outsider": UserFactory,
        "scorer": lambda: MembershipFactory(club=event.club, role=Membership.Role.SCORER).user,
        "other-club-director": lambda: MembershipFactory(club=ClubFactory()).user,
    }
    if who in users:
        client.force_login(users[who]())
    response = client.get(slip_url(event))
    assert response.status_code == 403
    game = games_of(event)[0]
    assert not any(c.token in response.content.decode()
                   for c in side_credentials_ensure(games=[game])[game.pk])
