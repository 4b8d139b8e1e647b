"""Finding 5 (issue 11): a sheet number its column cannot hold is refused at intake (400, naming
the figure), nothing is stored, and the game can still be entered and confirmed."""

import json

import pytest

from core.errors import DomainError
from games import services
from games.models import ResultVersion, RoundResult, Submission
from league.models import Game
from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db


def enter(client, game, side, document, key):
    return client.post(
        f"/api/results/{game.pk}/submissions/",
        json.dumps({"document": document, "side": side}), content_type="application/json",
        headers={"X-Entry-Token": side_link(game, side), "Idempotency-Key": key},
    )


def with_held(round_number, held):
    document = sheet(round_number)
    document["sides"][1]["held_points"] = held
    return document


def test_held_points_of_a_trillion_are_refused_naming_the_figure(api_client):
    game = named_game()
    response = enter(api_client, game, 0, with_held(1, 10**12), "big")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in {"OUT_OF_RANGE", "BAD_SHEET", "INVALID", "BAD_FORMAT"}
    assert "held_points" in error["message"]
    assert not Submission.objects.exists()


def test_after_a_refused_figure_the_game_is_entered_and_confirmed(api_client):
    game = named_game()
    assert enter(api_client, game, 0, with_held(1, 10**12), "big").status_code == 400
    for side in (0, 1):
        for r in range(1, 5):
            response = enter(api_client, game, side, with_held(r, 1000 + 5 * r), f"s{side}r{r}")
            assert response.status_code == 201, response.content
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert sorted(RoundResult.objects.filter(game=game, side=1)
                  .values_list("held_points", flat=True)) == [1005, 1010, 1015, 1020]


def figures_report(**side):
    base = {"score": 10, "clean_books": 1, "dirty_books": 0, "wild_books": 0, "red_threes": 0,
            "table_points": 5, "held_points": 0, "went_out": True}
    return {"rounds": [{"round": 1, "sides": [{**base, **side}], "seats": []}]}


@pytest.mark.parametrize(("field", "value"), [
    ("held_points", 2**31), ("held_points", -(2**31) - 1), ("score", 2**31),
    ("clean_books", 32768), ("red_threes", -1), ("table_points", 10**12),
])
def test_every_column_bound_is_enforced(field, value):
    with pytest.raises(DomainError) as refused:
        services.report_range_check(report=figures_report(**{field: value}))
    assert refused.value.code == "OUT_OF_RANGE"
    assert refused.value.details["field"] == field


@pytest.mark.parametrize(("field", "value"), [
    ("held_points", 2**31 - 1), ("held_points", -(2**31)), ("clean_books", 32767),
    ("score", -(2**31)),
])
def test_values_that_fit_their_column_pass_and_are_stored(field, value):
    services.report_range_check(report=figures_report(**{field: value}))
    game = named_game()
    row = {"score": 0, "clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes": 0,
           "table_points": 0, "held_points": 0, field: value}
    RoundResult.objects.create(game=game, round_number=1, side=0, ended_by="went_out", **row)
    assert RoundResult.objects.get(game=game).__dict__[field] == value


def test_a_seat_fact_out_of_range_is_refused():
    report = figures_report()
    report["rounds"][0]["seats"] = [{"seat": 2, "side": 0, "turns": 2**31, "held_points": 0}]
    with pytest.raises(DomainError) as refused:
        services.report_range_check(report=report)
    assert "seat 3" in refused.value.message and "turns" in refused.value.message


def test_no_version_is_left_behind_by_a_refused_figure(api_client):
    game = named_game()
    enter(api_client, game, 0, with_held(1, -(10**12)), "neg")
    assert not ResultVersion.objects.exists()
