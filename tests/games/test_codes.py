"""Issue 23: the code the director sees is the code that works. A game has only its sides'
codes (the per-game code of old cards is gone, issue 24); codes are taken as printed
(ABC-2345), in small letters, with spaces, and bounded in length."""

import pytest

from league.models import Event
from league.services.credentials import code_normalise, game_side_credentials, printed_code
from tests.factories import MembershipFactory
from tests.games.factories import named_game

pytestmark = pytest.mark.django_db

OLD_CARD = "This table card is old"


@pytest.fixture
def game():
    return named_game()


@pytest.mark.parametrize("typed", [
    "{code}", "{lower}", "{printed}", "{printed_lower}", " {spaced} ", "{code_dots}",
    "{printed_spaced}",
])
def test_a_side_code_opens_its_page_however_it_is_typed(client, game, typed):
    credential = game_side_credentials(game=game)[1]
    code = credential.code
    shown = printed_code(code)
    text = typed.format(
        code=code, lower=code.lower(), printed=shown, printed_lower=shown.lower(),
        spaced=f"{code[:3]} {code[3:]}", code_dots=".".join(code),
        printed_spaced=shown.replace("-", " - "))
    response = client.post("/play/", {"code": text})
    assert response.status_code == 302 and response["Location"] == credential.entry_url


def test_the_printed_code_is_the_code_in_two_groups():
    assert printed_code("ABC2345") == "ABC-2345"
    assert code_normalise("abc-2345") == "ABC2345"
    assert code_normalise("ABC–2345") == "ABC2345"  # an en dash from a phone's keyboard
    assert code_normalise("x" * 21) is None
    assert code_normalise("ABC") is None
    assert code_normalise("ABC0234") is None  # 0 is never in a code


def test_a_too_long_or_impossible_code_is_refused_in_words(client, game):
    for typed in ("A" * 21, "ABC0", "hello world!"):
        page = client.post("/play/", {"code": typed}).content.decode()
        assert "A code has 7 letters and digits, such as ABC-2345" in page


def test_the_directors_event_page_offers_the_sides_codes_that_work(client, game):
    event = game.table.rotation.event
    director = MembershipFactory(club=event.club).user
    client.force_login(director)
    page = client.get(f"/director/events/{event.slug}/").content.decode()
    assert OLD_CARD not in page
    assert "show side 1's code" in page and "show side 2's code" in page
    rotation, table = game.table.rotation.number, game.table.number
    slip = client.get(f"/events/{event.slug}/table-cards/{rotation}/{table}/side/2/")
    shown = printed_code(game_side_credentials(game=game)[1].code)
    assert shown in slip.content.decode()
    client.logout()
    opened = client.post("/play/", {"code": shown})
    assert opened.status_code == 302
    assert opened["Location"] == game_side_credentials(game=game)[1].entry_url
    assert client.get(opened["Location"]).status_code == 200
    assert event.status == Event.Status.RUNNING
