"""Disputes settled by the log: the director's dispute view shows what the move log says beside
each figure, and one click settles the dispute as the log says (the version equal to it, or a
correction with its figures), kept in the event's history with the reason."""

import pytest
from django.urls import reverse

from core.errors import Conflict, Forbidden, Stale
from games import services
from games.models import ResultVersion, RoundResult
from games.services import Entrant, submission_create
from handfoot.simulate import simulate_game
from league.models import AuditEntry, Game
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet
from tests.games.test_replay_pages import FOUR, SIX

pytestmark = pytest.mark.django_db

NUMBERS = ("clean_books", "dirty_books", "wild_books", "red_threes", "table_points", "held_points")


def a_log(slugs=FOUR, seed=3, rounds=None):
    log = simulate_game("classic", len(slugs), seed=seed, sides=2 if len(slugs) == 6 else None)
    log["seats"] = list(slugs)
    if rounds is not None:
        log["rounds"] = log["rounds"][:rounds]
    return log


def sheet_from(round_report, *, table_points_delta=0):
    """The score sheet of one round as the log's report has it (side 1's table points moved
    by `table_points_delta`: a typo)."""
    sides = [{k: side[k] for k in (*NUMBERS, "went_out")} for side in round_report["sides"]]
    sides[0]["table_points"] += table_points_delta
    return {"format": "hand-and-foot-sheet/1", "round": round_report["round"],
            "ended_by": round_report["ended_by"], "sides": sides}


def enter(game, side, document, key):
    submission, _ = submission_create(game=game, document=document,
                                      entrant=Entrant.for_side(game, side), idempotency_key=key)
    return submission


def log_report(game):
    return game.submissions.get(kind="log").report["rounds"]


def disputed_with_log(slugs=FOUR, *, typo_round=2):
    """Side 1 uploads the move log; side 2 types the four sheets with a typo in one round."""
    game = named_game(slugs=slugs, first_dealer=len(slugs) - 1)
    enter(game, 0, a_log(slugs), f"log-{game.pk}")
    for r in log_report(game):
        delta = 5 if r["round"] == typo_round else 0
        enter(game, 1, sheet_from(r, table_points_delta=delta), f"s-{game.pk}-{r['round']}")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    return game


def director_of(game):
    return MembershipFactory(club=game.table.rotation.event.club).user


def settle(game, user=None, revision=None):
    return services.dispute_settle_by_log(
        game=game, user=user or director_of(game),
        expected_revision=services.result_revision(game=game) if revision is None else revision,
    )


def statuses(game):
    return dict(game.result_versions.values_list("number", "status"))


# --- the service -------------------------------------------------------------------------------


@pytest.mark.parametrize("slugs", [FOUR, SIX], ids=["four", "six"])
def test_the_version_equal_to_the_log_is_chosen_and_the_history_says_why(slugs):
    game = disputed_with_log(slugs)
    version = settle(game)
    assert version.number == 1  # side 1's, from the log
    assert statuses(game) == {1: "confirmed", 2: "superseded"}
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    log_totals = [sum(r["sides"][s]["score"] for r in log_report(game)) for s in range(2)]
    assert version.totals == log_totals
    assert RoundResult.objects.filter(game=game, round_number=2, side=0).get().score == \
        log_report(game)[1]["sides"][0]["score"]
    entry = AuditEntry.objects.filter(action="result_decide").get()
    assert "(as the move log says)" in entry.summary
    assert entry.summary.startswith("Decided the dispute at rotation 1, table 1")
    assert entry.data["reason"] == "as the move log says"


def test_when_neither_version_equals_the_log_its_figures_become_a_correction():
    game = named_game(first_dealer=3)
    enter(game, 0, a_log(), "log")
    report = log_report(game)
    # side 1 replaces its round 3 by a sheet of its own, side 2 mistypes round 2
    enter(game, 0, sheet_from(report[2], table_points_delta=10), "s0-3")
    for r in report:
        enter(game, 1, sheet_from(r, table_points_delta=5 if r["round"] == 2 else 0), f"s1-{r['round']}")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    before = set(statuses(game))

    version = settle(game)

    assert version.number not in before and version.status == ResultVersion.Status.CONFIRMED
    assert version.reason == "as the move log says"
    assert version.totals == [sum(r["sides"][s]["score"] for r in report) for s in range(2)]
    assert {n: s for n, s in statuses(game).items() if n != version.number} == {
        n: "superseded" for n in before}
    entry = AuditEntry.objects.filter(action="result_correct").get()
    assert entry.summary.endswith("Reason: as the move log says")


def test_a_game_without_a_log_is_refused_in_words_and_nothing_changes():
    game = named_game()
    for n in (1, 2, 3, 4):
        enter(game, 0, sheet(n), f"a{n}")
        enter(game, 1, sheet(n, table_points=560), f"b{n}")
    before = statuses(game)
    with pytest.raises(Conflict) as refused:
        settle(game)
    assert refused.value.code == "NO_MOVE_LOG"
    assert "No move log of this game was accepted" in refused.value.message
    assert statuses(game) == before
    assert not AuditEntry.objects.filter(action__in=["result_decide", "result_correct"]).exists()


def test_a_withdrawn_log_does_not_settle():
    game = named_game(first_dealer=3)
    enter(game, 0, a_log(), "log")
    for r in log_report(game):  # side 1 also typed its sheets, side 2 mistyped round 2
        enter(game, 0, sheet_from(r), f"s0-{r['round']}")
        enter(game, 1, sheet_from(r, table_points_delta=5 if r["round"] == 2 else 0), f"s1-{r['round']}")
    services.submission_withdraw(submission=game.submissions.get(kind="log"), by=director_of(game))
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED  # side 1's sheets still dispute side 2's
    before = statuses(game)
    with pytest.raises(Conflict) as refused:
        settle(game)
    assert refused.value.code == "NO_MOVE_LOG"
    assert statuses(game) == before


def test_a_log_that_does_not_cover_the_differing_round_is_refused():
    game = named_game(first_dealer=3)
    enter(game, 0, a_log(rounds=2), "log")  # rounds 1 and 2 only; side 1 types rounds 3 and 4
    enter(game, 0, sheet(3), "s0-3")
    enter(game, 0, sheet(4), "s0-4")
    for r in log_report(game):
        enter(game, 1, sheet_from(r), f"s1-{r['round']}")
    enter(game, 1, sheet(3, table_points=560), "s1-3")
    enter(game, 1, sheet(4), "s1-4")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    before = statuses(game)
    with pytest.raises(Conflict) as refused:
        settle(game)
    assert refused.value.code == "LOG_MISSES_ROUNDS"
    assert refused.value.message.startswith(
        "The move log covers rounds 1 and 2 only, and the entries also differ in round 3")
    assert statuses(game) == before


def test_a_stale_page_is_refused():
    game = disputed_with_log()
    with pytest.raises(Stale):
        settle(game, revision=services.result_revision(game=game) - 1)
    assert set(statuses(game).values()) == {"disputed"}


def test_a_scorer_may_not_settle():
    game = disputed_with_log()
    scorer = MembershipFactory(club=game.table.rotation.event.club, role="scorer").user
    with pytest.raises(Forbidden):
        settle(game, user=scorer)
    assert set(statuses(game).values()) == {"disputed"}


def test_an_undisputed_game_has_nothing_to_settle():
    game = named_game(first_dealer=3)
    enter(game, 0, a_log(), "log")
    with pytest.raises(Conflict) as refused:
        settle(game)
    assert refused.value.code == "NOT_DISPUTED"


# --- the pages ---------------------------------------------------------------------------------


def test_the_dispute_view_shows_what_the_log_says_beside_each_figure(client):
    game = disputed_with_log(typo_round=2)
    client.force_login(director_of(game))
    html = client.get(reverse("director-result", args=[game.pk])).content.decode()
    round2 = html.split('data-round="2"')[1].split("</table>")[0]
    assert "The move log says" in round2
    logged = log_report(game)[1]["sides"][0]["table_points"]
    # the differing row: version 1 (the log's), version 2 (the typo), then the log's figure
    assert (f"<td>Points on the table</td><td class=\"num\"><mark>{logged}</mark></td>"
            f"<td class=\"num\"><mark>{logged + 5}</mark></td>"
            f"<td class=\"num log-says\"><strong>{logged}</strong></td>") in round2
    assert "The move log (entered by Side 1 (Ann &amp; Cat)) agrees with <strong>version 1</strong>" in html
    assert "Settle as the move log says (version 1)" in html
    assert "The story of the game" in html and "Watch the game again" in html


def test_settling_from_the_page_in_one_click(client):
    game = disputed_with_log()
    client.force_login(director_of(game))
    revision = services.result_revision(game=game)
    response = client.post(reverse("director-result-settle-by-log", args=[game.pk]),
                           {"revision": revision}, follow=True)
    html = response.content.decode()
    assert "Settled as the move log says: version 1" in html
    assert statuses(game) == {1: "confirmed", 2: "superseded"}
    history = client.get(reverse("director-event-history",
                                 args=[game.table.rotation.event.slug])).content.decode()
    assert "(as the move log says)" in history


def test_the_page_refuses_in_words_without_a_log_and_shows_no_button(client):
    game = named_game()
    for n in (1, 2, 3, 4):
        enter(game, 0, sheet(n), f"a{n}")
        enter(game, 1, sheet(n, table_points=560), f"b{n}")
    client.force_login(director_of(game))
    page = client.get(reverse("director-result", args=[game.pk])).content.decode()
    assert "Settle as the move log says" not in page and "The move log says" not in page
    assert "The story of the game" not in page
    response = client.post(reverse("director-result-settle-by-log", args=[game.pk]),
                           {"revision": services.result_revision(game=game)}, follow=True)
    assert "No move log of this game was accepted" in response.content.decode()


@pytest.mark.parametrize("revision", ["", "-1", "abc", "99999999999999999999"])
def test_a_bad_revision_changes_nothing(client, revision):
    game = disputed_with_log()
    client.force_login(director_of(game))
    response = client.post(reverse("director-result-settle-by-log", args=[game.pk]),
                           {"revision": revision}, follow=True)
    assert response.status_code == 200
    assert set(statuses(game).values()) == {"disputed"}


def test_others_may_not_settle_from_the_page(client):
    game = disputed_with_log()
    scorer = MembershipFactory(club=game.table.rotation.event.club, role="scorer").user
    client.force_login(scorer)
    response = client.post(reverse("director-result-settle-by-log", args=[game.pk]), {"revision": 2})
    assert response.status_code == 403
    assert set(statuses(game).values()) == {"disputed"}
