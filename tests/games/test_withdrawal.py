"""A director withdraws a wrongly entered sheet or log before confirmation, and restores it:
nothing is deleted, every step is in the audit trail, and the result is read again."""

import pytest

from core.errors import Conflict
from games import services
from games.models import ResultVersion, Submission
from games.services import Entrant
from league import services as league_services
from league.models import AuditEntry, Event, Game
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


@pytest.fixture
def director(game):
    return MembershipFactory(club=game.table.rotation.event.club).user


def side(game, n):
    return Entrant.for_side(game, n)


def enter(game, entrant, n, key, **kwargs):
    submission, _ = services.submission_create(
        game=game, document=sheet(n, **kwargs), entrant=entrant, idempotency_key=key)
    game.refresh_from_db()
    return submission


def enter_all(game, entrant, prefix, **kwargs):
    return [enter(game, entrant, n, f"{prefix}-{n}", **kwargs) for n in (1, 2, 3, 4)]


def statuses(game):
    return dict(game.result_versions.values_list("number", "status"))


def test_withdrawing_a_wrong_sheet_ends_the_dispute_and_keeps_the_sheet(game, director):
    enter_all(game, side(game, 0), "a")
    wrong = enter_all(game, side(game, 1), "b", table_points=560)
    assert game.status == Game.Status.DISPUTED

    services.submission_withdraw(submission=wrong[2], by=director)

    game.refresh_from_db()
    wrong[2].refresh_from_db()
    assert wrong[2].withdrawn_by == director and wrong[2].withdrawn_at is not None
    assert Submission.objects.filter(game=game).count() == 8  # nothing deleted
    assert statuses(game) == {1: "entered", 2: "superseded"}
    assert game.status == Game.Status.ENTERED
    entry = AuditEntry.objects.get(action="result_withdraw")
    assert entry.user == director and entry.event == game.table.rotation.event
    assert entry.summary == (
        "Withdrew the round 3 score sheet of Side 2 (Ben & Dan) at rotation 1, table 1.")


def test_a_withdrawn_version_cannot_be_confirmed(game, director):
    entered = enter_all(game, side(game, 0), "a")
    services.submission_withdraw(submission=entered[0], by=director)
    assert statuses(game) == {1: "superseded"}
    with pytest.raises(Conflict) as refused:
        services.result_confirm(game=game, version_number=1, entrant=side(game, 1))
    assert refused.value.code == "NOT_AWAITING_CONFIRMATION"


def test_after_a_withdrawal_the_table_enters_the_round_again_and_the_other_side_confirms(
        game, director):
    entered = enter_all(game, side(game, 0), "a", table_points=560)
    services.submission_withdraw(submission=entered[1], by=director)
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING  # round 2 is missing again

    enter(game, side(game, 0), 2, "a-2-again", table_points=560)
    assert game.status == Game.Status.ENTERED
    enter_all(game, side(game, 1), "b", table_points=560)
    assert game.status == Game.Status.CONFIRMED


def test_the_other_sides_fresh_entry_is_not_blocked_by_a_withdrawn_one(game, director):
    wrong = enter_all(game, side(game, 0), "a", table_points=995)
    for submission in wrong:
        services.submission_withdraw(submission=submission, by=director)
    enter_all(game, side(game, 1), "b")
    assert game.status == Game.Status.ENTERED  # not disputed by the withdrawn figures
    assert game.result_versions.filter(status="entered").get().entered_by.endswith(":side:1")


def test_withdrawing_a_later_sheet_brings_back_the_earlier_one(game, director):
    """Side 2 entered round 1 right, then wrongly again: withdrawing the wrong one leaves both
    sides agreeing, which confirms the result (as if the wrong sheet had never come)."""
    enter_all(game, side(game, 0), "a")
    enter(game, side(game, 1), 1, "b-1")
    wrong = enter(game, side(game, 1), 1, "b-1-again", table_points=700)
    for n in (2, 3, 4):
        enter(game, side(game, 1), n, f"b-{n}")
    assert game.status == Game.Status.DISPUTED
    services.submission_withdraw(submission=wrong, by=director)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_restore_puts_the_entry_back_and_both_steps_are_logged(game, director):
    enter_all(game, side(game, 0), "a")
    wrong = enter_all(game, side(game, 1), "b", table_points=560)
    services.submission_withdraw(submission=wrong[0], by=director)
    services.submission_restore(submission=wrong[0], by=director)

    game.refresh_from_db()
    wrong[0].refresh_from_db()
    assert wrong[0].withdrawn_at is None and wrong[0].withdrawn_by is None
    assert game.status == Game.Status.DISPUTED
    assert list(game.result_versions.filter(status="disputed").values_list("number", flat=True)) \
        == [1, 3]
    log = list(AuditEntry.objects.exclude(action="result_enter").order_by("pk")
               .values_list("action", "user", "undone_at"))
    assert [(a, u) for a, u, _ in log] == [("result_withdraw", director.pk),
                                           ("result_restore", director.pk)]
    assert log[0][2] is not None  # the withdrawal is marked undone in the history


def test_restore_is_refused_when_the_table_entered_that_round_again(game, director):
    wrong = enter(game, side(game, 0), 1, "a-1", table_points=995)
    services.submission_withdraw(submission=wrong, by=director)
    enter(game, side(game, 0), 1, "a-1-again")
    with pytest.raises(Conflict) as refused:
        services.submission_restore(submission=wrong, by=director)
    assert refused.value.code == "NEWER_ENTRY"
    assert "Side 1 (Ann & Cat) entered round 1 again at" in refused.value.message
    wrong.refresh_from_db()
    assert wrong.withdrawn_at is not None


def test_nothing_to_withdraw_once_confirmed_or_finished(game, director):
    entered = enter_all(game, side(game, 0), "a")
    enter_all(game, side(game, 1), "b")
    with pytest.raises(Conflict) as refused:
        services.submission_withdraw(submission=entered[0], by=director)
    assert refused.value.code == "ALREADY_CONFIRMED"

    other = named_game(slugs=("eve", "fay", "gus", "hal"))
    pending = enter(other, side(other, 0), 1, "c-1")
    Event.objects.filter(pk=other.table.rotation.event_id).update(status=Event.Status.FINISHED)
    with pytest.raises(Conflict) as refused:
        services.submission_withdraw(submission=pending, by=director)
    assert refused.value.code == "EVENT_FINISHED"
    assert not AuditEntry.objects.exclude(action="result_enter").exists()


def test_twice_is_refused(game, director):
    submission = enter(game, side(game, 0), 1, "a-1")
    services.submission_withdraw(submission=submission, by=director)
    with pytest.raises(Conflict) as refused:
        services.submission_withdraw(submission=submission, by=director)
    assert refused.value.code == "ALREADY_WITHDRAWN"
    services.submission_restore(submission=submission, by=director)
    with pytest.raises(Conflict) as refused:
        services.submission_restore(submission=submission, by=director)
    assert refused.value.code == "NOT_WITHDRAWN"


def test_the_event_history_undoes_a_withdrawal(game, director):
    submission = enter(game, side(game, 0), 1, "a-1")
    services.submission_withdraw(submission=submission, by=director)
    entry = AuditEntry.objects.get(action="result_withdraw")
    assert league_services.audit_undoable(entry=entry)
    league_services.audit_undo(entry=entry, by=director)
    submission.refresh_from_db()
    assert submission.withdrawn_at is None
    entry.refresh_from_db()
    assert entry.undone_at is not None and not league_services.audit_undoable(entry=entry)


def test_withdrawn_versions_stay_readable(game, director):
    entered = enter_all(game, side(game, 0), "a")
    services.submission_withdraw(submission=entered[3], by=director)
    version = game.result_versions.get(number=1)
    assert version.status == ResultVersion.Status.SUPERSEDED and version.totals


# --- the director's game page ---------------------------------------------------------------


def page(client, game):
    response = client.get(f"/director/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_offers_withdraw_then_restore_in_names_not_keys(client, game, director):
    enter_all(game, side(game, 0), "a")
    wrong = enter_all(game, side(game, 1), "b", table_points=560)
    client.force_login(director)
    html = page(client, game)
    assert 'aria-label="Withdraw the round 2 score sheet of Side 2 (Ben &amp; Dan)"' in html
    assert "game:" not in html and "user:" not in html

    response = client.post(f"/director/games/{game.pk}/entries/{wrong[1].pk}/withdraw/")
    assert response.status_code == 302
    html = page(client, game)
    assert "The round 2 score sheet is withdrawn" in html
    assert f"withdrawn by {director.username} at" in html
    assert 'aria-label="Restore the round 2 score sheet of Side 2 (Ben &amp; Dan)"' in html
    assert "game:" not in html

    client.post(f"/director/games/{game.pk}/entries/{wrong[1].pk}/restore/")
    wrong[1].refresh_from_db()
    assert wrong[1].withdrawn_at is None
    assert "The round 2 score sheet counts again." in page(client, game)


def test_the_page_hides_the_actions_when_they_do_not_apply(client, game, director):
    client.force_login(director)
    enter_all(game, side(game, 0), "a")
    enter_all(game, side(game, 1), "b")  # confirmed
    html = page(client, game)
    assert "Withdraw the" not in html and "Restore the" not in html

    other = named_game(slugs=("eve", "fay", "gus", "hal"))
    enter(other, side(other, 0), 1, "c-1")
    Event.objects.filter(pk=other.table.rotation.event_id).update(status=Event.Status.FINISHED)
    client.force_login(MembershipFactory(club=other.table.rotation.event.club).user)
    assert "Withdraw the" not in page(client, other)


def test_restore_is_not_offered_when_a_newer_entry_counts(client, game, director):
    wrong = enter(game, side(game, 0), 1, "a-1", table_points=995)
    services.submission_withdraw(submission=wrong, by=director)
    enter(game, side(game, 0), 1, "a-1-again")
    client.force_login(director)
    html = page(client, game)
    assert "Restore the" not in html
    response = client.post(f"/director/games/{game.pk}/entries/{wrong.pk}/restore/", follow=True)
    assert "entered round 1 again at" in response.content.decode()


def test_only_directors_withdraw(client, game):
    submission = enter(game, side(game, 0), 1, "a-1")
    scorer = MembershipFactory(club=game.table.rotation.event.club, role="scorer").user
    client.force_login(scorer)
    response = client.post(f"/director/games/{game.pk}/entries/{submission.pk}/withdraw/")
    assert response.status_code == 403
    submission.refresh_from_db()
    assert submission.withdrawn_at is None


def test_the_event_history_names_the_withdrawal_with_an_undo(client, game, director):
    submission = enter(game, side(game, 0), 1, "a-1")
    services.submission_withdraw(submission=submission, by=director)
    client.force_login(director)
    event = game.table.rotation.event
    html = client.get(f"/director/events/{event.slug}/").content.decode()
    assert "Withdrew the round 1 score sheet of Side 1 (Ann &amp; Cat) at rotation 1, table 1." in html
    entry = AuditEntry.objects.get(action="result_withdraw")
    assert f"/history/{entry.pk}/undo/" in html


# --- the API --------------------------------------------------------------------------------


def api_url(game, submission, action):
    return f"/api/results/{game.pk}/submissions/{submission.pk}/{action}/"


def test_api_withdraw_and_restore(api_client, game, director):
    submission = enter(game, side(game, 0), 1, "a-1")
    api_client.force_authenticate(director)
    response = api_client.post(api_url(game, submission, "withdraw"))
    assert response.status_code == 200 and response.json()["withdrawn_at"]
    again = api_client.post(api_url(game, submission, "withdraw"))
    assert again.status_code == 409 and again.json()["error"]["code"] == "ALREADY_WITHDRAWN"
    response = api_client.post(api_url(game, submission, "restore"))
    assert response.status_code == 200 and response.json()["withdrawn_at"] is None


def test_api_withdraw_is_409_once_confirmed_and_403_for_scorers(api_client, game, director):
    entered = enter_all(game, side(game, 0), "a")
    scorer = MembershipFactory(club=game.table.rotation.event.club, role="scorer").user
    api_client.force_authenticate(scorer)
    assert api_client.post(api_url(game, entered[0], "withdraw")).status_code == 403
    enter_all(game, side(game, 1), "b")
    api_client.force_authenticate(director)
    response = api_client.post(api_url(game, entered[0], "withdraw"))
    assert response.status_code == 409 and response.json()["error"]["code"] == "ALREADY_CONFIRMED"


def test_the_history_offers_the_undo_only_while_it_can_work(game, director):
    submission = enter(game, side(game, 0), 1, "a-1", table_points=995)
    services.submission_withdraw(submission=submission, by=director)
    enter(game, side(game, 0), 1, "a-1-again")  # the table entered round 1 again
    entry = AuditEntry.objects.get(action="result_withdraw")
    assert not league_services.audit_undoable(entry=entry)
