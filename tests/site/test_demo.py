"""The demo: the same content on every day (fixed seeds); only its dates follow today, with the
league nights on the league's weekday and numbered forwards in time."""

import datetime

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from analytics.models import PlayerRating
from analytics.tasks import recompute_all_clubs
from games.models import RoundResult
from league.models import Club, Event, Registration, Seat, SitOut
from site_pages.demo import LEAGUE_WEEKDAY, build_demo, demo_today

# demo_load's demo (what `make run` shows), built for two days of different weekdays and years.
FULL = {"past_nights": 3, "player_count": 16, "tournament": True}
DAYS = (datetime.date(2026, 11, 30), datetime.date(2027, 6, 5))


def content(club: Club) -> dict:
    """Everything the demo made except dates, slugs, tokens and database ids."""
    event_order = ("name",)
    rotation = "rotation__event__name", "rotation__number"
    game = "game__table__rotation__event__name", "game__table__rotation__number", "game__table__number"
    return {
        "players": list(club.players.order_by("name").values_list("name", flat=True)),
        "events": list(Event.objects.filter(club=club).order_by(*event_order).values_list(
            "name", "kind", "status", "seed", "format", "rules_preset", "scoring",
            "planned_rotations", "season__name")),
        "registrations": list(Registration.objects.filter(event__club=club).order_by(
            "event__name", "player__name", "partnership__name").values_list(
            "event__name", "player__name", "partnership__name", "checked_in")),
        "seats": list(Seat.objects.filter(rotation__event__club=club).order_by(
            *rotation, "table__number", "seat_number").values_list(
            *rotation, "table__number", "seat_number", "side", "player__name",
            "table__game__first_dealer", "table__game__status")),
        "sit_outs": list(SitOut.objects.filter(rotation__event__club=club).order_by(
            *rotation, "player__name").values_list(*rotation, "player__name")),
        "rounds": list(RoundResult.objects.filter(game__table__rotation__event__club=club).order_by(
            *game, "round_number", "side").values_list(
            *game, "round_number", "side", "score", "clean_books", "dirty_books", "wild_books",
            "red_threes", "table_points", "held_points", "went_out", "ended_by")),
        "ratings": [(name, round(mu, 9), round(sigma, 9), games) for name, mu, sigma, games in
                    PlayerRating.objects.filter(club=club).order_by("player__name").values_list(
                        "player__name", "mu", "sigma", "games")],
    }


def build(day: datetime.date) -> tuple[dict, dict[str, datetime.date], datetime.date]:
    """The demo's content and event dates for `day`, then the database as it was before."""
    savepoint = transaction.savepoint_create()
    demo = build_demo(today=day, **FULL)
    recompute_all_clubs()  # what the jobs on commit would compute, once
    dates = dict(Event.objects.filter(club=demo.club).values_list("name", "date"))
    found = content(demo.club), dates, demo.season.starts_on
    transaction.savepoint_rollback(savepoint)
    return found


@pytest.mark.django_db
def test_the_demo_has_the_same_content_on_any_day_and_only_its_dates_move():
    (first, first_dates, first_start), (second, second_dates, _) = (build(day) for day in DAYS)

    assert first == second
    assert len(first["rounds"]) > 100 and len(first["ratings"]) == 16
    assert first_dates.keys() == second_dates.keys()
    assert first_dates != second_dates
    for day, dates in zip(DAYS, (first_dates, second_dates), strict=True):
        nights = [dates[f"Tuesday Night {n}"] for n in range(1, 5)]
        assert all(night.weekday() == LEAGUE_WEEKDAY for night in nights)
        assert nights == [nights[0] + datetime.timedelta(weeks=n) for n in range(4)]
        assert day - datetime.timedelta(days=6) <= nights[-1] <= day  # tonight or the latest night
        assert dates["Harvest Classic"] < dates["Canasta Pairs"] < nights[0]
        assert dates["Winter Open"] > day
    assert first_start == first_dates["Tuesday Night 1"]


def test_the_demo_clock_follows_handfoot_today(monkeypatch):
    monkeypatch.setenv("HANDFOOT_TODAY", "2031-02-27")
    assert demo_today() == datetime.date(2031, 2, 27)
    monkeypatch.setenv("HANDFOOT_TODAY", "next tuesday")
    with pytest.raises(ImproperlyConfigured, match="HANDFOOT_TODAY"):
        demo_today()
    monkeypatch.delenv("HANDFOOT_TODAY")
    assert demo_today() == datetime.date.today() or demo_today() - datetime.date.today() in (
        datetime.timedelta(days=-1), datetime.timedelta(days=1))  # timezone vs. local clock
