"""Table-side entry pages and the director's results pages."""

import io
import json

import pytest

from games.forms import sheet_initial
from games.models import Submission
from league.models import Event
from tests.factories import MembershipFactory, UserFactory
from tests.games.factories import named_game, running_event, sheet, side_link, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def sheet_post(round_number=1, key="k1", table_points=555, **extra):
    data = {"idempotency_key": key, "round": round_number, "ended_by": "went_out"}
    document = sheet(round_number, table_points=table_points)
    for n, side in enumerate(document["sides"]):
        for name, value in side.items():
            if name != "went_out":
                data[f"side{n}_{name}"] = value
        if side["went_out"]:
            data[f"side{n}_went_out"] = "on"
    return {**data, **extra}


def as_side(client, game, side):
    """Open side `side`'s own table link (what scanning its QR code on the card does)."""
    response = client.get(f"/play/{side_link(game, side)}/")
    assert response.status_code == 200


def test_unknown_code_says_so(client, game):
    response = client.post("/play/", {"code": "ZZZZZZ"})
    assert "No table has this code" in response.content.decode()


def test_game_page_shows_seating_and_the_links_side(client, game):
    page = client.get(f"/play/{side_link(game, 0)}/").content.decode()
    assert "Ann" in page and "Ben" in page and "Which side are you?" not in page
    assert "Ann &amp; Cat" in page


def test_unknown_link_is_404(client, game):
    assert client.get("/play/not-a-token/").status_code == 404


@pytest.mark.parametrize("status", ["draft", "registration", "finished"])
def test_link_is_closed_when_the_event_is_not_running(client, game, status):
    Event.objects.filter(pk=game.table.rotation.event_id).update(status=status)
    response = client.get(f"/play/{side_link(game, 0)}/")
    assert response.status_code == 410
    assert "only while the event is running" in response.content.decode()
    as_side_response = client.post(f"/play/{side_link(game, 0)}/sheet/", sheet_post())
    assert as_side_response.status_code == 410
    assert not Submission.objects.exists()


def test_side_enters_a_round_through_the_form(client, game):
    as_side(client, game, 1)
    response = client.post(f"/play/{side_link(game, 1)}/sheet/", sheet_post(2), follow=True)
    assert "Round 2 is saved" in response.content.decode()
    submission = Submission.objects.get()
    assert (submission.entrant, submission.via) == (f"game:{game.pk}:side:1", "table_link")
    assert submission.report["totals"] == [3855, 615]


def test_link_writes_only_its_own_game(client, game):
    other = named_game(event=game.table.rotation.event, slugs=("eve", "fay", "gus", "hal"),
                       table_number=2)
    as_side(client, game, 0)
    client.post(f"/play/{side_link(game, 0)}/sheet/", sheet_post())
    assert Submission.objects.get().game == game
    # A link names its game: the other game's page is reached only by the other game's link.
    client.post(f"/play/{side_link(other, 0)}/sheet/", sheet_post(key="k2"))
    assert other.submissions.get().entrant == f"game:{other.pk}:side:0"
    assert game.submissions.count() == 1


def test_double_click_creates_one_submission(client, game):
    as_side(client, game, 0)
    client.post(f"/play/{side_link(game, 0)}/sheet/", sheet_post())
    response = client.post(f"/play/{side_link(game, 0)}/sheet/", sheet_post(), follow=True)
    assert "it had already arrived" in response.content.decode()
    assert Submission.objects.count() == 1


def test_impossible_sheet_shows_the_engine_message_and_stores_nothing(client, game):
    as_side(client, game, 0)
    response = client.post(f"/play/{side_link(game, 0)}/sheet/",
                           sheet_post(side0_wild_books=30))
    assert response.status_code == 400
    assert "Check the books" in response.content.decode()
    assert "SHEET_BOOKS" not in response.content.decode()  # codes stay in the API
    assert not Submission.objects.exists()


def test_log_upload(client, game):
    as_side(client, game, 0)
    upload = io.BytesIO(json.dumps(stockout_log()).encode())
    upload.name = "game.json"
    response = client.post(f"/play/{side_link(game, 0)}/log/", {"log": upload, "idempotency_key": "L"},
                           follow=True)
    assert "The move log is saved" in response.content.decode()
    game.refresh_from_db()
    assert game.status == "entered"


def test_bad_log_upload_shows_why(client, game):
    as_side(client, game, 0)
    upload = io.BytesIO(b"{not json")
    upload.name = "game.json"
    response = client.post(f"/play/{side_link(game, 0)}/log/", {"log": upload, "idempotency_key": "L"})
    assert response.status_code == 400 and "not valid JSON" in response.content.decode()


def enter_all(client, game, side, prefix, **kwargs):
    as_side(client, game, side)
    for n in (1, 2, 3, 4):
        client.post(f"/play/{side_link(game, side)}/sheet/", sheet_post(n, key=f"{prefix}{n}", **kwargs))


def test_other_side_confirms_the_figures_shown(client, game):
    enter_all(client, game, 0, "a")
    as_side(client, game, 1)
    page = client.get(f"/play/{side_link(game, 1)}/").content.decode()
    assert "Please check these figures" in page and "15,420" in page
    response = client.post(f"/play/{side_link(game, 1)}/confirm/", {"version": 1}, follow=True)
    assert "the result is confirmed" in response.content.decode()
    game.refresh_from_db()
    assert game.status == "confirmed"


def test_entrant_cannot_confirm_own_figures(client, game):
    enter_all(client, game, 0, "a")
    response = client.post(f"/play/{side_link(game, 0)}/confirm/", {"version": 1}, follow=True)
    assert "the other side (or the director) confirms them" in response.content.decode()


# --- director pages -----------------------------------------------------------------------------


def director_of(game):
    return MembershipFactory(club=game.table.rotation.event.club).user


@pytest.mark.parametrize("who,expected", [
    ("outsider", 403), ("scorer", 403), ("other_director", 403), ("director", 200),
])
def test_director_pages_role_matrix(client, game, who, expected):
    users = {
        "outsider": UserFactory,
        "scorer": lambda: MembershipFactory(club=game.table.rotation.event.club, role="scorer").user,
        "other_director": lambda: MembershipFactory().user,
        "director": lambda: director_of(game),
    }
    client.force_login(users[who]())
    slug = game.table.rotation.event.slug
    assert client.get(f"/director/events/{slug}/results/").status_code == expected
    assert client.get(f"/director/games/{game.pk}/").status_code == expected


def test_director_pages_of_a_private_event_are_404_for_outsiders(client):
    game = named_game(event=running_event(is_public=False))
    client.force_login(UserFactory())
    assert client.get(f"/director/games/{game.pk}/").status_code == 404


def test_director_pages_ask_anonymous_visitors_to_log_in(client, game):
    response = client.get(f"/director/games/{game.pk}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_director_resolves_a_dispute_by_choosing(client, game):
    enter_all(client, game, 0, "a")
    enter_all(client, game, 1, "b", table_points=560)
    client.force_login(director_of(game))
    page = client.get(f"/director/games/{game.pk}/").content.decode()
    assert "The two entries differ" in page and "Use version 2" in page
    client.post(f"/director/games/{game.pk}/confirm/", {"version": 2})
    game.refresh_from_db()
    assert game.status == "confirmed"
    assert game.result_versions.get(status="confirmed").number == 2


def correction_post(game, revision, reason="Round 3 miscounted", round3_points=600):
    version = game.result_versions.order_by("-number").first()
    data = {"revision": revision, "reason": reason}
    for r in version.rounds:
        initial = sheet_initial(r)
        if r["round"] == 3:
            initial["side0_table_points"] = round3_points
        for name, value in initial.items():
            if name.endswith("went_out"):
                if value:
                    data[f"r{r['round']}-{name}"] = "on"
            else:
                data[f"r{r['round']}-{name}"] = value
        data[f"r{r['round']}-idempotency_key"] = f"c{r['round']}"
    return data


def test_director_corrects_and_every_version_stays_visible(client, game):
    enter_all(client, game, 0, "a")
    enter_all(client, game, 1, "b")
    client.force_login(director_of(game))
    response = client.post(f"/director/games/{game.pk}/correct/", correction_post(game, 1),
                           follow=True)
    page = response.content.decode()
    assert "Saved as version 2" in page
    assert "Round 3 miscounted" in page and "Superseded" in page
    public_page = client.get(f"/play/{side_link(game, 1)}/").content.decode()
    assert "Round 3 miscounted" in public_page


def test_stale_correction_form_is_refused(client, game):
    enter_all(client, game, 0, "a")
    enter_all(client, game, 1, "b")
    client.force_login(director_of(game))
    client.post(f"/director/games/{game.pk}/correct/", correction_post(game, 1))
    response = client.post(f"/director/games/{game.pk}/correct/",
                           correction_post(game, 1, round3_points=650))
    assert response.status_code == 412
    assert "The result changed while you were editing it" in response.content.decode()
    assert "STALE_VERSION" not in response.content.decode()  # codes stay in the API
    assert game.result_versions.count() == 2


def test_admin_lists_results_read_only(admin_client, game):
    enter_all(admin_client, game, 0, "a")
    assert admin_client.get("/admin/games/submission/").status_code == 200
    assert admin_client.get("/admin/games/resultversion/").status_code == 200
    assert admin_client.get("/admin/games/submission/add/").status_code == 403


def test_game_page_shows_the_rounds_entered_so_far(client, game):
    as_side(client, game, 0)
    client.post(f"/play/{side_link(game, 0)}/sheet/", sheet_post(2))
    page = client.get(f"/play/{side_link(game, 0)}/").content.decode()
    assert "Your rounds so far" in page and "3,855" in page
