"""The concealed going out bonus (issue 43's measure of a part declared once): a house rule,
`concealed_going_out_bonus` (0, off, in every preset), pays the side whose player goes out
without having laid anything down earlier in the round (`went_out_concealed`, worked out as
`concealed_bonus`) on a score sheet, in a move log's replay, through the API and the table page,
in the stored results and in a what-if."""

import copy
import json

import pytest

from analytics import whatif
from games.models import RoundResult
from handfoot import replay_log
from handfoot.checking import check_document
from handfoot.rules import PRESETS, rules_from_spec
from handfoot.scoring import side_score
from tests.games.factories import SEED_SIDES, named_game, running_event, side_link
from tests.handfoot.builders import discard, draw, make_log, meld

PAID = {"preset": "classic", "overrides": {"concealed_going_out_bonus": 250}}


def _sheet(rules, *, concealed_side=0, went_out_side=0):
    sides = copy.deepcopy(SEED_SIDES)
    sides[0]["went_out"], sides[1]["went_out"] = went_out_side == 0, went_out_side == 1
    sides[1]["held_points"] = 0 if went_out_side == 1 else sides[1]["held_points"]
    sides[concealed_side]["went_out_concealed"] = True
    return {"format": "hand-and-foot-sheet/1", "rules": rules, "round": 1,
            "ended_by": "went_out", "sides": sides}


def test_the_bonus_is_off_in_every_preset():
    assert all(rules.concealed_going_out_bonus == 0 for rules in PRESETS.values())
    assert side_score(PRESETS["classic"], went_out=True, went_out_concealed=True).score == 100


def test_a_concealed_going_out_earns_the_bonus_where_the_rule_pays_it():
    paid = rules_from_spec(PAID)
    side = side_score(paid, went_out=True, went_out_concealed=True)
    assert side.concealed_bonus == 250 and side.score == 100 + 250
    assert side_score(paid, went_out=True).score == 100


@pytest.mark.parametrize("fast", [True, False])
def test_a_sheet_scores_the_bonus_on_both_paths(monkeypatch, fast):
    if not fast:
        monkeypatch.setattr("handfoot.sheets.plain_check", lambda doc, rules=None: None)
    report = check_document(_sheet(PAID)).to_dict()
    assert report["valid"], report["error"]
    side = report["rounds"][0]["sides"][0]
    assert side["went_out_concealed"] and side["concealed_bonus"] == 250
    assert report["totals"] == [3855 + 250, 615]


def test_the_fast_path_stays_on_for_sheets_with_and_without_the_part():
    from handfoot.sheets import plain_check

    assert plain_check(_sheet(PAID)) is not None
    plain = _sheet("classic")
    del plain["sides"][0]["went_out_concealed"]
    assert plain_check(plain) is not None


def test_only_the_side_that_went_out_can_have_gone_out_concealed():
    report = check_document(_sheet(PAID, concealed_side=1)).to_dict()
    assert report["error"]["code"] == "SHEET_GOING_OUT"
    assert "went_out_concealed" in report["error"]["message"]


# Seat 0 goes out in its first turn: its hand melded (a book of kings, open queens and jacks),
# then its foot (three 8s) and the last card discarded; or, laid down a turn earlier, not so.
GOING_OUT = {"foot_size": 4, "partner_condition": "none", "permission": False,
             "books_to_go_out": {"clean": 1, "dirty": 0, "wild": 0}}
HAND = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD"]
FOOT = ["8S", "8D", "8H", "4C"]


def _log(bonus, *, concealed):
    rules = {"preset": "classic", "overrides": {**GOING_OUT, "concealed_going_out_bonus": bonus}}
    hand_melds = meld(0, ("K", HAND[:7]), ("Q", [*HAND[7:10], "QC"]), ("J", [*HAND[10:], "JC"]))
    out = [meld(0, ("8", FOOT[:3])), discard(0, "4C")]
    if concealed:
        events, stock = [draw(0), hand_melds, *out], ["QC", "JC"]
    else:
        rest = meld(0, ("Q", [*HAND[7:10], "QC"]), ("J", [*HAND[10:], "JC", "JS"]))
        events = [draw(0), meld(0, ("K", HAND[:7])), discard(0, "5C"),
                  draw(1), discard(1, "4H"), draw(2), discard(2, "6H"), draw(3), discard(3, "9H"),
                  draw(0), rest, *out]
        stock = ["QC", "5C", "9S", "9D", "9C", "9C", "9H", "9D", "JC", "JS"]
    return make_log(rules, hands=[HAND, ["4H"], ["6H"], ["9H"]], feet=[FOOT], stock_top=stock,
                    events=events)


@pytest.mark.parametrize("concealed", [True, False])
def test_a_logs_replay_knows_whether_the_player_went_out_concealed(concealed):
    report = replay_log(_log(250, concealed=concealed))
    assert report.valid, report.error
    out = report.rounds[0].sides[0]
    assert out.went_out and out.went_out_concealed is concealed
    assert out.concealed_bonus == (250 if concealed else 0)
    assert not report.rounds[0].sides[1].went_out_concealed
    off = replay_log(_log(0, concealed=concealed)).rounds[0].sides[0]
    assert off.went_out_concealed is concealed and off.concealed_bonus == 0
    assert out.score - off.score == out.concealed_bonus


@pytest.mark.django_db
def test_through_the_api_it_is_stored_and_the_what_if_rescores_it(api_client):
    game = named_game(event=running_event(rules_overrides=PAID["overrides"]))
    sheet = _sheet(None)
    del sheet["rules"]
    for side in (0, 1):
        for number in (1, 2, 3, 4):
            response = api_client.post(
                f"/api/results/{game.pk}/submissions/",
                json.dumps({"document": {**sheet, "round": number}, "side": side}),
                content_type="application/json",
                headers={"Idempotency-Key": f"k{side}{number}",
                         "X-Entry-Token": side_link(game, side)})
            assert response.status_code == 201, response.json()
    result = response.json()["result"]
    assert result["status"] == "confirmed"
    assert result["current"]["totals"] == [4 * (3855 + 250), 4 * 615]
    stored = RoundResult.objects.filter(game=game, side=0)
    assert all(r.went_out_concealed for r in stored)
    rescored = whatif.whatif_rescore_games(
        game_ids=[game.pk], rules_spec={"preset": "classic",
                                        "overrides": {"concealed_going_out_bonus": 500}})
    assert rescored[str(game.pk)]["totals"] == [4 * (3855 + 500), 4 * 615]
    assert rescored[str(game.pk)]["notes"] == []


@pytest.mark.django_db
def test_the_table_page_asks_for_it_only_where_the_rules_pay_it(client):
    for overrides, asked in ((PAID["overrides"], True), ({}, False)):
        game = named_game(event=running_event(rules_overrides=overrides))
        page = client.get(f"/play/{side_link(game, 0)}/").content.decode()
        assert ("Went out concealed" in page) is asked
