"""Issue 42: the night's mail shows the match points it ranks by, and mails and pages say a
game's rounds and scores as figures in words ("Round 1: 7,200 and 3,555"), never a list's
brackets or slashes. Mail read back from a real SMTP server."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as results
from games.models import RoundResult
from league.models import Event, Registration, Seat
from league.services.credentials import side_credentials_ensure
from notifications.models import Contact
from notifications.services.nights import night_results_send
from notifications.services.results import result_mails_send
from tests.factories import EventFactory, PlayerFactory
from tests.games.factories import named_game, stockout_log

pytestmark = pytest.mark.django_db


def _finished_night(scoring: str):
    event = EventFactory(name="Tuesday league", date=timezone.localdate() - datetime.timedelta(days=1),
                         scoring=scoring)
    ann = PlayerFactory(club=event.club, name="Ann Lee")
    Contact.objects.create(player=ann, email="ann@example.net")
    Registration.objects.create(event=event, player=ann)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    return event


ROWS = [  # ranked by match points: Ann above Ben, who has more points
    {"rank": 1, "name": "Ann Lee", "match_points": 4, "victory_points": 26.5, "total_points": 7200},
    {"rank": 2, "name": "Ben Ode", "match_points": 2, "victory_points": 13.5, "total_points": 13555},
]


def test_the_nights_mail_shows_the_match_points_it_ranks_by(smtp):
    event = _finished_night("match_points")
    assert night_results_send(event=event, rows=ROWS) == 1
    message = smtp.messages[0]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "by match points (2 a win, 1 a tie), then points" in text
    assert "1. Ann Lee: 4 match points, 7,200 points" in text
    assert "2. Ben Ode: 2 match points, 13,555 points" in text
    assert ">Match points</th>" in html and ">13,555</td>" in html and ">4</td>" in html


def test_a_night_ranked_by_points_mails_its_points_alone(smtp):
    event = _finished_night("total_points")
    night_results_send(event=event, rows=ROWS)
    text = smtp.messages[0].get_body(("plain",)).get_content()
    assert "1. Ann Lee: 7,200 points" in text and "match point" not in text


@pytest.fixture
def confirmed_game():
    game = named_game()
    side_credentials_ensure(games=[game])
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key="log-0")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))
    return game


def _rounds(game) -> dict[int, list[int]]:
    rounds: dict[int, list[int]] = {}
    for row in RoundResult.objects.filter(game=game).order_by("round_number", "side"):
        rounds.setdefault(row.round_number, []).append(row.score)
    return rounds


def test_the_result_mail_says_each_rounds_scores_in_words(smtp, confirmed_game):
    game = confirmed_game
    seat = Seat.objects.filter(table__game=game).select_related("player").order_by("seat_number")[0]
    Contact.objects.create(player=seat.player, email="ann@example.net")
    assert result_mails_send(game_id=game.pk) == 1
    text = smtp.messages[0].get_body(("plain",)).get_content()
    html = smtp.messages[0].get_body(("html",)).get_content()
    rounds = _rounds(game)
    assert any(abs(score) >= 1000 for scores in rounds.values() for score in scores)
    for number, (one, two) in rounds.items():
        assert f"Round {number}: {one:,} and {two:,}" in text
        assert f">{one:,}</td>" in html
    total = sum(scores[0] for scores in rounds.values())
    assert f"): {total:,}" in text
    assert "[" not in text and " / " not in text


def test_the_table_page_says_the_confirmed_rounds_in_words(client, confirmed_game):
    game = confirmed_game
    token = game.side_credentials.get(side=0).token
    page = client.get(reverse("play-game", args=[token])).content.decode()
    rounds = _rounds(game)
    for number, (one, two) in rounds.items():
        assert f"Round {number}: {one:,} and {two:,}" in page
    totals = [sum(s[i] for s in rounds.values()) for i in (0, 1)]
    assert f"Totals: {totals[0]:,} and {totals[1]:,}" in page
