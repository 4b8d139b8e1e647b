"""Issue 12: the table page never loses a round, speaks the table's language, shows disputes'
differences, maps a move log's seats, and gives the director live scores and totals."""

import io
import json
import re

import pytest

from games import logmap, selectors
from games.models import Submission
from games.wording import CODE_WORD, HEADLINES, table_words
from handfoot.errors import ErrorCode
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, side_link, stockout_log

pytestmark = pytest.mark.django_db

# What a scorer must never read on a page: the engine's field names and internal keys.
ENGINE_WORDS = re.compile(
    r"table_points|held_points|went_out|clean_books|dirty_books|wild_books|red_threes|ended_by"
    r"|stock_out|game:\d+:side|\bside 0\b|\bseat 0\b|\(side \d\)|\w\[\d+\]"
)


@pytest.fixture
def game():
    return named_game()


def page_text(response) -> str:
    """The words a person reads: the page without its tags, attributes and scripts."""
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def sheet_post(round_number=1, key="k1", table_points=555, **extra):
    data = {"idempotency_key": key, "round": round_number, "ended_by": "went_out"}
    document = sheet(round_number, table_points=table_points)
    for n, side in enumerate(document["sides"]):
        data |= {f"side{n}_{k}": v for k, v in side.items() if k != "went_out"}
        if side["went_out"]:
            data[f"side{n}_went_out"] = "on"
    return {**data, **extra}


def url(game, side=0, path=""):
    return f"/play/{side_link(game, side)}/{path}"


def offered_round(html: str) -> str:
    return re.search(r'<option value="(\d+)" selected', html).group(1)


def test_after_each_save_the_sheet_offers_the_next_unsaved_round(client, game):
    assert offered_round(client.get(url(game)).content.decode()) == "1"
    for n in (1, 2, 3):
        response = client.post(url(game, path="sheet/"), sheet_post(n, key=f"k{n}"), follow=True)
        html = response.content.decode()
        assert f"Round {n} is saved" in html
        assert offered_round(html) == str(n + 1)
        assert f"Round {n} (saved)" in html


def test_saving_over_a_saved_round_shows_both_versions_and_needs_replace(client, game):
    client.post(url(game, path="sheet/"), sheet_post(1, key="a"))
    response = client.post(url(game, path="sheet/"), sheet_post(1, key="b", table_points=560))
    assert response.status_code == 409
    html = response.content.decode()
    assert "Round 1 is already saved" in html and "Replace round 1" in html
    assert 'value="560"' in html  # what was typed is kept
    assert "<mark>3855</mark>" in html and "<mark>3860</mark>" in html
    assert Submission.objects.count() == 1

    client.post(url(game, path="sheet/"), sheet_post(1, key="b", table_points=560, replace="on"))
    assert Submission.objects.count() == 2
    rounds = selectors.entry_rounds(game=game, entrant=f"game:{game.pk}:side:0")
    assert rounds[0]["scores"] == [3860, 615]


def test_a_refused_sheet_keeps_what_was_typed_and_puts_the_problem_by_its_field(client, game):
    response = client.post(url(game, path="sheet/"), sheet_post(
        side0_clean_books=0, side0_dirty_books=0, side0_wild_books=0, side0_table_points=35))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'name="side0_table_points" value="35"' in html
    error = re.search(r'data-error-for="side0_went_out">([^<]*)<', html).group(1)
    assert error.startswith("Check who went out: Side 1 (Ann &amp; Cat) went out but has only")
    assert "SHEET_GOING_OUT" not in page_text(response)  # codes stay in the API
    assert not ENGINE_WORDS.search(page_text(response))


def test_an_untouched_sheet_shows_no_error(client, game):
    response = client.get(url(game))
    html = response.content.decode()
    assert 'class="form-error"' not in html
    assert re.findall(r'class="field-error"[^>]*>([^<]+)<', html) == []


@pytest.mark.parametrize("code", [*ErrorCode, *HEADLINES])
@pytest.mark.parametrize("message", [
    "Side 1: table_points is 3 and seat 0 must hold went_out, clean_books, held_points, "
    "red_threes; seat 3's turn",
    # The schema step's field paths (0-based) and codes quoted in a message.
    "sides[0].table_points must be a multiple of 5 (every card is), not 557",
    "rounds[1].sides[1].went_out should be true or false; seats[0] is missing (BAD_SEATS)",
    "Details: REPLACE_NOT_CONFIRMED",
])
def test_every_error_code_has_table_words(code, message):
    """The page scan for engine words, over the refusal message of every engine and intake code:
    no field names or paths, no 0-based numbers, no codes, in the text or its details line."""
    words = table_words(str(code), message, round=2, event=4, seat_names=["Ann", "Ben", "Cat", "Dan"],
                        side_names=["Ann & Cat", "Ben & Dan"])
    assert str(code) in HEADLINES
    for shown in (words.text, words.details):
        assert not ENGINE_WORDS.search(shown), (shown, ENGINE_WORDS.search(shown))
        assert not CODE_WORD.search(shown), shown
    assert words.text
    assert words.details == "Where: round 2, move 5."


def test_a_typed_sheet_figure_path_reads_in_table_words():
    words = table_words("BAD_FORMAT", "sides[0].table_points must be a multiple of 5 (every "
                        "card is), not 557")
    assert words.text == ("Side 1's points on the table must be a multiple of 5 (every card is), "
                          "not 557")
    assert words.field == "side0_table_points"


def test_a_refused_figure_on_the_page_names_the_side_from_one(client, game):
    response = client.post(url(game, path="sheet/"), sheet_post(table_points=557))
    text = page_text(response)
    assert response.status_code == 400
    assert "points on the table must be a multiple of 5" in text
    assert not ENGINE_WORDS.search(text) and not CODE_WORD.search(text)


def test_words_name_seats_from_one_by_player_and_find_the_field():
    words = table_words("NOT_YOUR_TURN", "it is seat 0's turn, not seat 3's",
                        seat_names=["Ann", "Ben", "Cat", "Dan"])
    assert "it is Ann's turn, not Dan's" in words.text
    books = table_words("SHEET_BOOKS", "Side 2 shows 9 wild books, but classic allows 2.")
    assert books.field == "side1_wild_books"
    going = table_words("SHEET_GOING_OUT", "Sides 1 and 2 are all marked went_out; only one...")
    assert "went out" in going.text and "went_out" not in going.text


def test_live_check_gives_scores_or_the_problem_by_field(client, game):
    ok = client.post(url(game, path="check/"), sheet_post()).json()
    assert ok == {"valid": True, "scores": [3855, 615]}
    bad = client.post(url(game, path="check/"), sheet_post(side1_went_out="on")).json()
    assert bad["valid"] is False
    assert not ENGINE_WORDS.search(json.dumps(bad["errors"]))


def enter_all(client, game, side, prefix, **kwargs):
    for n in (1, 2, 3, 4):
        client.post(url(game, side, "sheet/"), sheet_post(n, key=f"{prefix}{n}", **kwargs))


def test_a_dispute_shows_both_scorers_and_the_director_where_the_figures_differ(client, game):
    enter_all(client, game, 0, "a")
    for n in (1, 2, 4):
        client.post(url(game, 1, "sheet/"), sheet_post(n, key=f"b{n}"))
    client.post(url(game, 1, "sheet/"), sheet_post(3, key="b3", table_points=560))
    comparison = selectors.dispute_comparison(game=game)
    assert comparison["differing"] == [3]
    differing = [(r["side"].side, r["label"], r["values"]) for r in comparison["rounds"][2]["rows"]
                 if r["differs"]]
    assert differing == [(0, "Points on the table", ["555", "560"]), (0, "Score", ["3855", "3860"])]
    for side in (0, 1):
        response = client.get(url(game, side))
        html = response.content.decode()
        assert "The two entries differ" in html and "<mark>560</mark>" in html
        assert "Round 1: the same in both" in html
        assert not ENGINE_WORDS.search(page_text(response))
    client.force_login(MembershipFactory(club=game.table.rotation.event.club).user)
    director_page = client.get(f"/director/games/{game.pk}/")
    assert "<mark>560</mark>" in director_page.content.decode()
    assert not ENGINE_WORDS.search(page_text(director_page))
    client.post(f"/director/games/{game.pk}/confirm/", {"version": 2})
    assert set(game.result_versions.values_list("status", flat=True)) == {"confirmed", "superseded"}


def test_director_results_list_shows_totals_and_status(client, game):
    enter_all(client, game, 0, "a")
    client.force_login(MembershipFactory(club=game.table.rotation.event.club).user)
    response = client.get(f"/director/events/{game.table.rotation.event.slug}/results/")
    text = page_text(response)
    assert "15,420 and 2,460" in text and "(not confirmed)" in text
    assert "Side 1: Ann &amp; Cat" in response.content.decode()


def test_director_correction_form_checks_each_round_live(client, game):
    client.force_login(MembershipFactory(club=game.table.rotation.event.club).user)
    data = {f"r2-{k}": v for k, v in sheet_post(2).items()} | {"prefix": "r2"}
    body = client.post(f"/director/games/{game.pk}/check/", data).json()
    assert body == {"valid": True, "scores": [3855, 615]}
    html = client.get(f"/director/games/{game.pk}/").content.decode()
    assert 'data-prefix="r4"' in html and "table-entry.js" in html


def turned_log(turn):
    """The example log as it would be written from another seat: log seat i is seat i - turn."""
    log = logmap.turned(stockout_log(), -turn % 4, ["p1", "p2", "p3", "p4"])
    return log


def test_log_turn_round_trips():
    log = stockout_log()
    back = logmap.turned(logmap.turned(log, 1, log["seats"]), 3, log["seats"])
    assert back == log


def test_a_log_with_other_seats_is_offered_a_mapping_then_accepted(client, game):
    upload = io.BytesIO(json.dumps(turned_log(1)).encode())
    upload.name = "sim.json"
    response = client.post(url(game, path="log/"), {"log": upload, "idempotency_key": "L"})
    assert response.status_code == 302 and response["Location"].endswith("/log/seats/")
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Which log seat is which player" in html and "matches this table" in html
    assert not ENGINE_WORDS.search(page_text(page))
    options = re.findall(r'name="turn" value="(\d)"( checked)?', html)
    chosen = next(value for value, checked in options if checked)
    assert chosen == "1"
    done = client.post(response["Location"], {"turn": chosen, "idempotency_key": "M"}, follow=True)
    assert "The move log is saved" in done.content.decode()
    submission = Submission.objects.get()
    assert submission.document["seats"] == ["ann", "ben", "cat", "dan"]
    assert submission.report["totals"] == [-4155, -7705]


def test_a_wrong_mapping_is_refused_in_words(client, game):
    upload = io.BytesIO(json.dumps(turned_log(1)).encode())
    upload.name = "sim.json"
    location = client.post(url(game, path="log/"), {"log": upload, "idempotency_key": "L"})["Location"]
    response = client.post(location, {"turn": "0", "idempotency_key": "M"})
    assert response.status_code == 400
    assert "deals round 1" in page_text(response)
    assert not Submission.objects.exists()


def test_a_log_under_other_rules_is_still_refused(client, game):
    log = turned_log(1) | {"rules": "pagat"}
    upload = io.BytesIO(json.dumps(log).encode())
    upload.name = "sim.json"
    response = client.post(url(game, path="log/"), {"log": upload, "idempotency_key": "L"})
    assert response.status_code == 400
    assert "other rules" in page_text(response)


def test_no_page_a_scorer_sees_shows_engine_words_or_zero_based_numbers(client, game):
    """Every state of the scorer's pages, scanned for field names, keys and 0-based numbers."""
    pages = [client.get("/play/"), client.get(url(game))]
    pages.append(client.post(url(game, path="sheet/"), sheet_post(side1_went_out="on")))
    client.post(url(game, path="sheet/"), sheet_post(1, key="s1"))
    pages.append(client.get(url(game)))
    pages.append(client.post(url(game, path="sheet/"), sheet_post(1, key="s2", table_points=560)))
    enter_all(client, game, 0, "a")
    pages.append(client.get(url(game, 1)))  # "please check these figures"
    enter_all(client, game, 1, "b", table_points=560)
    pages.append(client.get(url(game, 1)))  # disputed
    pages.append(client.post(url(game, 1, "confirm/"), {"version": 1}, follow=True))
    for response in pages:
        text = page_text(response)
        assert not ENGINE_WORDS.search(text), (response.request["PATH_INFO"], ENGINE_WORDS.search(text))
        assert not re.search(r"\b(ann|ben|cat|dan)\b", text)  # slugs
