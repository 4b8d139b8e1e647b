"""Issue 23, the sheet at the table: after the last round no "Save this round"; a saved round
opens again with its saved figures and one round alone is re-entered; before confirming, the
confirming side sees every figure of every round; once the director decides, every side sees
the decided figures (the overruled side's own totals are not shown as its result)."""

import re

import pytest

from games import services
from games.models import Submission
from tests.factories import MembershipFactory
from tests.games.factories import named_game
from tests.games.test_table_entry import ENGINE_WORDS, page_text, sheet_post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def enter_all(client, game, side, points=(555, 555, 555, 555), prefix="a"):
    for n, p in enumerate(points, start=1):
        response = client.post(url(game, side, "sheet/"),
                               sheet_post(n, key=f"{prefix}{side}{n}", table_points=p))
        assert response.status_code == 302, response.content.decode()[-3000:]


def test_after_the_last_round_the_sheet_no_longer_offers_save(client, game):
    enter_all(client, game, 0)
    page = client.get(url(game)).content.decode()
    assert "Save this round" not in page
    assert "Every round is entered" in page
    assert all(f"Open round {n} again" in page for n in (1, 2, 3, 4))


def test_a_saved_round_opens_with_its_saved_figures_and_one_round_is_reentered(client, game):
    enter_all(client, game, 0, points=(555, 560, 565, 570))
    page = client.get(url(game) + "?round=2").content.decode()
    assert 'name="side0_table_points" value="560"' in page
    assert 'name="side1_held_points" value="205"' in page
    assert re.search(r'<option value="2" selected', page)
    assert "Save the changed round 2" in page and "Save this round" not in page
    # Re-enter round 2 only: the replace step shows both, then only round 2 changes.
    data = sheet_post(2, key="again", table_points=600)
    assert client.post(url(game, 0, "sheet/"), data).status_code == 409
    client.post(url(game, 0, "sheet/"), {**data, "replace": "on"})
    rounds = {r["round"]: r["sides"][0]["table_points"]
              for r in services_rounds(game, 0)}
    assert rounds == {1: 555, 2: 600, 3: 565, 4: 570}


def test_saving_a_round_opened_again_replaces_it_without_asking_twice(client, game):
    enter_all(client, game, 0, points=(555, 560, 565, 570))
    page = client.get(url(game) + "?round=3").content.decode()
    assert '<input type="hidden" name="reopened" value="3">' in page
    response = client.post(url(game, 0, "sheet/"),
                           {**sheet_post(3, key="again3", table_points=600), "reopened": "3"})
    assert response.status_code == 302  # stored at once: no second "Replace round 3?"
    rounds = {r["round"]: r["sides"][0]["table_points"] for r in services_rounds(game, 0)}
    assert rounds == {1: 555, 2: 560, 3: 600, 4: 570}


def test_a_round_opened_again_does_not_replace_another_saved_round_unasked(client, game):
    enter_all(client, game, 0, points=(555, 560, 565, 570))
    data = {**sheet_post(2, key="other2", table_points=600), "reopened": "3"}
    assert client.post(url(game, 0, "sheet/"), data).status_code == 409  # round 2: asked first
    assert {r["round"]: r["sides"][0]["table_points"]
            for r in services_rounds(game, 0)}[2] == 560


def services_rounds(game, side):
    from games.selectors import entry_rounds

    return entry_rounds(game=game, entrant=f"game:{game.pk}:side:{side}")


@pytest.mark.parametrize("asked", ["0", "5", "x", "99999999999", "-1"])
def test_a_round_out_of_range_opens_the_next_round(client, game, asked):
    response = client.get(url(game) + f"?round={asked}")
    assert response.status_code == 200
    assert re.search(r'<option value="1" selected', response.content.decode())


def test_the_confirming_side_sees_every_figure_before_confirming(client, game):
    enter_all(client, game, 0)
    response = client.get(url(game, 1))
    section = re.search(r'<h2 id="confirm-1">.*?</section>', response.content.decode(), re.S).group(0)
    for words in ("Clean books", "Dirty books", "Wild books", "Red 3s", "Points on the table",
                  "Points left in hand", "Went out", "The round ended"):
        assert words in section, words
    assert section.count('class="compact comparison round-detail"') == 4
    assert "Round 3: 3,855 and 615" in section
    assert not ENGINE_WORDS.search(page_text(response))


def test_after_the_director_decides_every_side_sees_the_decided_figures(client, game):
    enter_all(client, game, 0, points=(555, 555, 555, 555), prefix="a")
    enter_all(client, game, 1, points=(555, 555, 560, 555), prefix="b")
    assert game.result_versions.filter(status="disputed").count() == 2
    director = MembershipFactory(club=game.table.rotation.event.club).user
    services.result_confirm(game=game, version_number=2,
                            entrant=services.Entrant.for_user(director, director=True))
    for side in (0, 1):
        response = client.get(url(game, side))
        page = page_text(response)
        decided = re.search(r'<section class="card" aria-labelledby="decided-title".*?</section>',
                            response.content.decode(), re.S).group(0)
        assert "Totals: 15,425 and 2,460" in decided  # version 2's (side 2's figures)
        assert "15,420" not in decided  # side 1's superseded total
        assert "Round 3: 3,860 and 615" in decided
        assert "Your rounds so far" not in page  # the overruled side's own figures are gone
        assert page.index("The confirmed result") < page.index("Result history")
    assert Submission.objects.filter(game=game).count() == 8
