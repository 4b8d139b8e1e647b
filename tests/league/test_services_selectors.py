"""League reads (selectors) and the race the services lock against."""

import datetime
import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from core.errors import DomainError
from league import selectors, services
from league.models import Event, Rotation
from tests.factories import EventFactory, MembershipFactory
from tests.league.factories import checked_in_players, running_event


@pytest.mark.django_db
def test_public_events_split_upcoming_and_recent():
    today = datetime.date(2026, 6, 1)
    EventFactory(name="Next", date=today)
    EventFactory(name="Later", date=today + datetime.timedelta(days=9))
    EventFactory(name="Past", date=today - datetime.timedelta(days=1))
    EventFactory(name="Hidden", date=today, is_public=False)

    events = selectors.public_events(today=today)

    assert [e.name for e in events["upcoming"]] == ["Next", "Later"]
    assert [e.name for e in events["recent"]] == ["Past"]


@pytest.mark.django_db
def test_director_events_are_those_of_my_clubs():
    membership = MembershipFactory(role="director")
    mine = EventFactory(club=membership.club)
    EventFactory()
    assert list(selectors.director_events(user=membership.user)) == [mine]


def _seat_two_rotations(players: int) -> Event:
    event, _ = running_event(players)
    first = services.rotation_start(rotation=services.rotation_generate(event=event))
    from league.models import Game

    Game.objects.filter(table__rotation=first).update(status="confirmed")
    services.rotation_close(rotation=first)
    services.rotation_generate(event=event)
    return event


@pytest.mark.django_db
def test_event_detail_loads_seating_in_a_constant_number_of_queries(django_assert_num_queries):
    small, big = _seat_two_rotations(8), _seat_two_rotations(20)

    def draw(event):
        loaded = selectors.event_detail(slug=event.slug, user=AnonymousUser())
        return [selectors.rotation_plan(rotation=r) for r in loaded.rotations.all()], list(loaded.registrations.all())

    with django_assert_num_queries(6):
        draw(small)
    with django_assert_num_queries(6):
        views, registrations = draw(big)

    assert len(registrations) == 20
    assert [len(v.tables) for v in views] == [5, 5]


@pytest.mark.django_db
def test_event_detail_hides_private_events():
    event = EventFactory(is_public=False)
    with pytest.raises(Event.DoesNotExist):
        selectors.event_detail(slug=event.slug, user=AnonymousUser())


@pytest.mark.django_db
def test_rotation_plan_draws_seats_partners_and_first_dealer():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)

    view = selectors.rotation_plan(rotation=rotation)

    table = view.tables[0]
    assert [s.seat_number for s in table.seats] == [0, 1, 2, 3]
    assert [len(side) for side in table.sides] == [2, 2]
    assert table.sides[0] == [table.seats[0].player, table.seats[2].player]
    assert sum(s.deals_first for s in table.seats) == 1
    assert len(view.players) == 8


@pytest.mark.django_db
def test_rotation_as_plan_round_trips_the_generated_seating():
    event, players = running_event(9)
    rotation = services.rotation_generate(event=event)
    plan = selectors.rotation_as_plan(rotation=rotation)

    services.rotation_update_seating(rotation=rotation, plan=plan)

    assert selectors.rotation_as_plan(rotation=rotation) == plan


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_directors_generating_at_once_make_one_rotation():  # row locks: PostgreSQL
    event = EventFactory(status="running")
    checked_in_players(event, 8)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def generate():
        try:
            barrier.wait()
            services.rotation_generate(event=event)
            outcomes.append("made")
        except DomainError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=generate) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["PREVIOUS_ROTATION_OPEN", "made"]
    assert Rotation.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_seating_quality_of_a_rotating_event_has_no_repeated_partners():
    event = _seat_two_rotations(8)
    quality = selectors.seating_quality(event=event)
    assert quality["rotations"] == 2
    assert quality["partner_repeats"] == 0
    assert quality["deals_max"] <= 1


@pytest.mark.django_db
def test_a_finished_event_is_recent_whatever_its_date_and_never_upcoming():
    today = datetime.date(2026, 6, 1)
    EventFactory(name="Finished ahead", date=today + datetime.timedelta(days=7), status="finished")
    EventFactory(name="Finished today", date=today, status="finished")
    EventFactory(name="Running tonight", date=today, status="running")
    EventFactory(name="Open later", date=today + datetime.timedelta(days=3), status="registration")
    EventFactory(name="Running, dated last week", date=today - datetime.timedelta(days=7),
                 status="running")

    events = selectors.public_events(today=today)

    assert [e.name for e in events["upcoming"]] == ["Running tonight", "Open later"]
    assert [e.name for e in events["recent"]] == [
        "Finished ahead", "Finished today", "Running, dated last week"]
