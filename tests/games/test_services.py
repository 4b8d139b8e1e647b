"""Result intake, double entry, disputes, corrections and the projection into RoundResult."""

import pytest

from analytics import tasks as analytics_tasks
from core.errors import Conflict, Forbidden, Invalid, Stale
from games import services
from games.models import ResultVersion, RoundResult, SeatRoundFacts, Submission
from games.services import Entrant
from handfoot.checking import check_document
from league.models import Game
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, stockout_log

pytestmark = pytest.mark.django_db


def enter_sheets(game, entrant, *, key_prefix, rounds=(1, 2, 3, 4), **sheet_kwargs):
    for n in rounds:
        services.submission_create(
            game=game, document=sheet(n, **sheet_kwargs), entrant=entrant,
            idempotency_key=f"{key_prefix}-{n}",
        )
    game.refresh_from_db()


@pytest.fixture
def game():
    return named_game()


def side(game, n):
    return Entrant.for_side(game, n)


def test_sheets_of_every_round_make_an_entered_version(game):
    enter_sheets(game, side(game, 0), key_prefix="a", rounds=(1, 2, 3))
    assert game.status == Game.Status.PENDING
    assert not game.result_versions.exists()

    enter_sheets(game, side(game, 0), key_prefix="b", rounds=(4,))
    version = game.result_versions.get()
    assert (version.status, version.totals) == ("entered", [4 * 3855, 4 * 615])
    assert version.entered_by == f"game:{game.pk}:side:0"
    assert game.status == Game.Status.ENTERED
    assert not RoundResult.objects.filter(game=game).exists()


def test_sheets_arrive_in_any_order(game):
    enter_sheets(game, side(game, 0), key_prefix="a", rounds=(3, 1, 4, 2))
    assert [r["round"] for r in game.result_versions.get().rounds] == [1, 2, 3, 4]


def test_same_figures_from_the_other_side_confirm(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b")
    version = game.result_versions.get()
    assert (version.status, version.confirmed_by) == ("confirmed", f"game:{game.pk}:side:1")
    assert game.status == Game.Status.CONFIRMED
    assert RoundResult.objects.filter(game=game).count() == 8


def test_different_figures_dispute_and_keep_both(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b", table_points=560)
    versions = list(game.result_versions.order_by("number"))
    assert [v.status for v in versions] == ["disputed", "disputed"]
    assert versions[1].totals == [4 * 3860, 4 * 615]
    assert game.status == Game.Status.DISPUTED
    assert not RoundResult.objects.filter(game=game).exists()


def test_director_resolves_a_dispute_by_choosing_a_version(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b", table_points=560)
    director = MembershipFactory(club=game.table.rotation.event.club).user
    services.result_confirm(game=game, version_number=2,
                            entrant=services.entrant_for(game=game, user=director))
    statuses = dict(game.result_versions.values_list("number", "status"))
    assert statuses == {1: "superseded", 2: "confirmed"}
    assert RoundResult.objects.get(game=game, round_number=1, side=0).score == 3860


def test_correcting_the_typo_while_disputed_confirms_the_other_version(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b", table_points=560)
    enter_sheets(game, side(game, 1), key_prefix="c", rounds=(1, 2, 3, 4))
    statuses = dict(game.result_versions.values_list("number", "status"))
    assert statuses.pop(1) == "confirmed"
    assert set(statuses.values()) == {"superseded"}  # each re-entered round made a version


def test_confirm_button_counts_as_entering_the_same_figures(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    services.result_confirm(game=game, version_number=1, entrant=side(game, 1))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_nobody_confirms_their_own_entry(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    with pytest.raises(Forbidden) as refused:
        services.result_confirm(game=game, version_number=1, entrant=side(game, 0))
    assert refused.value.code == "SAME_ENTRANT"


def test_database_refuses_confirmer_equal_to_enterer(game):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        ResultVersion.objects.create(
            game=game, number=1, status="confirmed", rounds=[], totals=[],
            entered_by="user:1", confirmed_by="user:1",
        )


def test_database_allows_one_confirmed_version_per_game(game):
    from django.db import IntegrityError, transaction

    ResultVersion.objects.create(game=game, number=1, status="confirmed", rounds=[], totals=[],
                                 entered_by="user:1", confirmed_by="user:2")
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultVersion.objects.create(game=game, number=2, status="confirmed", rounds=[],
                                     totals=[], entered_by="user:1", confirmed_by="user:3")


def test_invalid_sheet_is_refused_with_engine_code_and_changes_nothing(game):
    bad = sheet(1)
    bad["sides"][0]["wild_books"] = 40
    with pytest.raises(Invalid) as refused:
        services.submission_create(game=game, document=bad, entrant=side(game, 0),
                                   idempotency_key="k")
    assert refused.value.code == "SHEET_BOOKS"
    assert "wild" in refused.value.message
    assert not Submission.objects.exists()


def test_sheet_naming_other_rules_is_refused(game):
    with pytest.raises(Invalid) as refused:
        services.submission_create(game=game, document=sheet(1, rules="pagat"),
                                   entrant=side(game, 0), idempotency_key="k")
    assert refused.value.code == "RULES_MISMATCH"


def test_sheet_naming_the_event_rules_is_accepted(game):
    submission, created = services.submission_create(
        game=game, document=sheet(1, rules={"preset": "classic", "overrides": {}}),
        entrant=side(game, 0), idempotency_key="k")
    assert created and submission.round_number == 1


def test_sheet_with_wrong_number_of_sides_is_refused(game):
    document = sheet(1)
    document["sides"].append(document["sides"][1])
    with pytest.raises(Invalid) as refused:
        services.submission_create(game=game, document=document, entrant=side(game, 0),
                                   idempotency_key="k")
    assert refused.value.code == "SIDES_MISMATCH"


def test_log_with_other_players_is_refused(game):
    log = stockout_log()
    log["seats"] = ["ann", "cat", "ben", "dan"]
    with pytest.raises(Invalid) as refused:
        services.submission_create(game=game, document=log, entrant=side(game, 0),
                                   idempotency_key="k")
    assert refused.value.code == "SEATS_MISMATCH"


def test_invalid_log_is_refused_with_round_and_event():
    from tests.games.factories import data_file

    log = data_file("below_minimum.json")
    game = named_game(slugs=tuple(log["seats"]), first_dealer=log["rounds"][0]["dealer"])
    game.table.rotation.event.rules_overrides = log["rules"]["overrides"] if isinstance(
        log["rules"], dict) else {}
    game.table.rotation.event.save()
    with pytest.raises(Invalid) as refused:
        services.submission_create(game=game, document=log, entrant=side(game, 0),
                                   idempotency_key="k")
    assert refused.value.code == "BELOW_MINIMUM"
    assert refused.value.details["round"] == 1 and refused.value.details["event"] == 1
    assert "(round 1, event 1)" in refused.value.message


def test_log_projection_matches_the_engine(game):
    log = stockout_log()
    report = check_document(log).to_dict()
    services.submission_create(game=game, document=log, entrant=side(game, 0), idempotency_key="a")
    services.result_confirm(game=game, version_number=1, entrant=side(game, 1))
    for r in report["rounds"]:
        for n, figures in enumerate(r["sides"]):
            row = RoundResult.objects.get(game=game, round_number=r["round"], side=n)
            assert (row.score, row.table_points, row.held_points, row.ended_by) == (
                figures["score"], figures["table_points"], figures["held_points"], r["ended_by"])
        for seat in r["seats"]:
            facts = SeatRoundFacts.objects.get(game=game, round_number=r["round"],
                                               seat_number=seat["seat"])
            assert facts.player.slug == seat["player"]
            assert (facts.turns, facts.cards_held, facts.black_threes_discarded) == (
                seat["turns"], seat["cards_held"], seat["black_threes_discarded"])
    assert SeatRoundFacts.objects.filter(game=game).count() == 16


def test_sheet_differing_from_the_log_is_flagged(game):
    services.submission_create(game=game, document=stockout_log(), entrant=side(game, 0),
                               idempotency_key="log")
    submission, _ = services.submission_create(game=game, document=sheet(2),
                                               entrant=side(game, 1), idempotency_key="s")
    assert submission.differences[0]["round"] == 2
    fields = {d["field"] for d in submission.differences[0]["fields"]}
    assert {"ended_by", "score"} <= fields


def test_same_key_twice_creates_one_submission(game):
    first, created = services.submission_create(game=game, document=sheet(1),
                                                 entrant=side(game, 0), idempotency_key="k")
    again, created_again = services.submission_create(game=game, document=sheet(1),
                                                      entrant=side(game, 0), idempotency_key="k")
    assert (created, created_again, first.pk) == (True, False, again.pk)
    assert Submission.objects.count() == 1


def test_same_key_with_other_body_is_a_conflict(game):
    services.submission_create(game=game, document=sheet(1), entrant=side(game, 0),
                               idempotency_key="k")
    with pytest.raises(Conflict) as refused:
        services.submission_create(game=game, document=sheet(2), entrant=side(game, 0),
                                   idempotency_key="k")
    assert refused.value.code == "IDEMPOTENCY_KEY_REUSED"


def test_entries_after_confirmation_are_refused(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b")
    with pytest.raises(Conflict):
        services.submission_create(game=game, document=sheet(1), entrant=side(game, 0),
                                   idempotency_key="late")


def confirmed(game):
    enter_sheets(game, side(game, 0), key_prefix="a")
    enter_sheets(game, side(game, 1), key_prefix="b")
    return MembershipFactory(club=game.table.rotation.event.club).user


def test_correction_keeps_every_version_and_projects_the_new_one(game):
    director = confirmed(game)
    version = services.result_correct(game=game, user=director, reason="Typo in round 3",
                                      expected_revision=1, documents=[sheet(3, table_points=600)])
    assert (version.number, version.status, version.reason) == (2, "confirmed", "Typo in round 3")
    assert version.based_on.number == 1
    assert dict(game.result_versions.values_list("number", "status")) == {
        1: "superseded", 2: "confirmed"}
    assert RoundResult.objects.get(game=game, round_number=3, side=0).score == 3900
    assert RoundResult.objects.get(game=game, round_number=2, side=0).score == 3855


def test_stale_correction_is_refused(game):
    director = confirmed(game)
    services.result_correct(game=game, user=director, reason="r", expected_revision=1,
                            documents=[sheet(3, table_points=600)])
    with pytest.raises(Stale):
        services.result_correct(game=game, user=director, reason="r2", expected_revision=1,
                                documents=[sheet(3, table_points=650)])
    assert RoundResult.objects.get(game=game, round_number=3, side=0).score == 3900


def test_correction_needs_a_reason(game):
    director = confirmed(game)
    with pytest.raises(Invalid) as refused:
        services.result_correct(game=game, user=director, reason="  ", expected_revision=1,
                                documents=[sheet(3)])
    assert refused.value.code == "REASON_REQUIRED"


def test_projection_enqueues_the_event_recompute_after_commit(game, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    calls = []
    monkeypatch.setattr(analytics_tasks, "enqueue_event_recompute", calls.append)
    with django_capture_on_commit_callbacks(execute=True):
        enter_sheets(game, side(game, 0), key_prefix="a")
        enter_sheets(game, side(game, 1), key_prefix="b")
    assert calls == [game.table.rotation.event_id]
