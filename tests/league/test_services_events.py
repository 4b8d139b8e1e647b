"""Services for clubs, people, leagues, seasons and events: each rule and each refusal."""

import datetime

import pytest

from core.errors import DomainError
from league import services
from league.models import Event, Membership, Partnership, Registration, Season
from tests.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    RotationFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 12, 5)


def _event(**kwargs):
    club = kwargs.pop("club", None) or ClubFactory()
    return services.event_create(club=club, name=kwargs.pop("name", "Winter Open"), date=DAY, **kwargs)


def test_club_create_makes_its_creator_director_and_a_unique_slug():
    user = UserFactory()
    first = services.club_create(name="Tuesday Club", director=user)
    second = services.club_create(name="Tuesday Club")

    assert Membership.objects.filter(club=first, user=user, role="director").exists()
    assert (first.slug, second.slug) == ("tuesday-club", "tuesday-club-2")


def test_club_create_refuses_a_blank_name():
    with pytest.raises(DomainError, match="needs a name"):
        services.club_create(name="   ")


def test_player_slugs_are_unique_within_a_club_only():
    club, other = ClubFactory(), ClubFactory()
    a = services.player_create(club=club, name="Ann Lee")
    b = services.player_create(club=club, name="Ann Lee")
    c = services.player_create(club=other, name="Ann Lee")

    assert (a.slug, b.slug, c.slug) == ("ann-lee", "ann-lee-2", "ann-lee")


def test_partnership_is_stored_in_canonical_order():
    club = ClubFactory()
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)

    pair = services.partnership_create(club=club, player_a=b, player_b=a)

    assert (pair.player_a, pair.player_b) == (a, b)


@pytest.mark.parametrize("case", ["same", "other_club", "duplicate"])
def test_partnership_create_refusals(case):
    club = ClubFactory()
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    if case == "duplicate":
        services.partnership_create(club=club, player_a=a, player_b=b)
    if case == "other_club":
        b = PlayerFactory()
    before = Partnership.objects.count()

    with pytest.raises(DomainError):
        services.partnership_create(club=club, player_a=a, player_b=a if case == "same" else b)

    assert Partnership.objects.count() == before


def test_season_refuses_ending_before_it_starts():
    league = LeagueFactory()
    with pytest.raises(DomainError, match="end before it starts"):
        services.season_create(
            league=league, name="2026", starts_on=DAY, ends_on=DAY - datetime.timedelta(days=1)
        )
    assert not Season.objects.exists()


def test_season_update_refuses_bad_best_n_and_keeps_the_old_value():
    season = SeasonFactory(best_n_nights=5)
    with pytest.raises(DomainError, match="Best N"):
        services.season_update(season=season, best_n_nights=0)
    season.refresh_from_db()
    assert season.best_n_nights == 5


def test_event_create_stores_a_random_seed_unless_given():
    seeded = _event(seed=7)
    random_ones = {_event(name=f"E{i}").seed for i in range(3)}

    assert seeded.seed == 7
    assert len(random_ones) > 1
    assert all(0 <= s < 2**31 for s in random_ones)


def test_event_create_defaults_and_slug():
    event = _event()

    assert event.status == Event.Status.DRAFT
    assert event.table_sizes == [4]
    assert event.slug == "winter-open-2026-12-05"


def test_event_create_accepts_house_rules_and_keeps_them():
    event = _event(rules_preset="classic", rules_overrides={"going_out_bonus": 200})
    assert event.rules_spec == {"preset": "classic", "overrides": {"going_out_bonus": 200}}


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"rules_overrides": {"going_out_bonus": -5}}, "going_out_bonus"),
        ({"rules_overrides": {"no_such_rule": 1}}, "no_such_rule"),
        ({"rules_preset": "poker"}, "poker"),
        ({"table_sizes": [5]}, "Table sizes"),
        ({"table_sizes": []}, "Table sizes"),
        ({"odd_handling": "table_of_six", "table_sizes": [4]}, "need 6"),
        ({"tie_breaks": ["coin_toss"]}, "Tie-breaks"),
        ({"tie_breaks": ["wins", "wins"]}, "only once"),
        ({"scoring": "golf"}, "Scoring"),
        ({"format": "knockout"}, "Format"),
        ({"planned_rotations": 0}, "between 1 and 60 rotations"),
        ({"planned_rotations": 61}, "between 1 and 60 rotations"),
    ],
)
def test_event_create_refuses_bad_settings_naming_them(kwargs, words):
    with pytest.raises(DomainError, match=words):
        _event(**kwargs)
    assert not Event.objects.exists()


def test_event_create_refuses_a_season_of_another_club():
    with pytest.raises(DomainError, match="another club"):
        _event(season=SeasonFactory())


def test_event_update_changes_settings_before_seating():
    event = _event()
    services.event_update(event=event, table_sizes=[4, 6], odd_handling="table_of_six", name="New")
    event.refresh_from_db()
    assert (event.table_sizes, event.odd_handling, event.name) == ([4, 6], "table_of_six", "New")


def test_event_update_refuses_seating_changes_once_rotations_exist():
    event = EventFactory()
    RotationFactory(event=event, number=1)
    with pytest.raises(DomainError, match="format"):
        services.event_update(event=event, format="swiss")
    event.refresh_from_db()
    assert event.format == "rotating"


def test_event_update_refuses_bad_house_rules_and_unknown_fields():
    event = _event()
    with pytest.raises(DomainError, match="hand_size"):
        services.event_update(event=event, rules_overrides={"hand_size": "many"})
    with pytest.raises(DomainError, match="Cannot change status"):
        services.event_update(event=event, status="finished")
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_event_status_moves_one_step_at_a_time():
    event = _event()
    for status in ("registration", "running", "finished"):
        event = services.event_set_status(event=event, status=status)
    assert event.status == "finished"


@pytest.mark.parametrize(
    "start, target", [("draft", "running"), ("registration", "draft"), ("finished", "running")]
)
def test_event_status_refuses_skips_and_going_back(start, target):
    event = EventFactory(status=start)
    with pytest.raises(DomainError, match=f"cannot go from {start} to {target}"):
        services.event_set_status(event=event, status=target)
    event.refresh_from_db()
    assert event.status == start


def test_event_cannot_finish_with_an_open_rotation():
    event = EventFactory(status="running")
    RotationFactory(event=event, number=1, status="started")
    with pytest.raises(DomainError, match="rotation"):
        services.event_set_status(event=event, status="finished")


# Registrations ----------------------------------------------------------------------------------


def test_registration_of_a_player_in_a_rotating_event():
    event = EventFactory(status="registration")
    registration = services.registration_add(event=event, player=PlayerFactory(club=event.club))
    assert (registration.checked_in, registration.joins_at_rotation) == (False, 1)


@pytest.mark.parametrize("case", ["twice", "other_club", "partnership_in_rotating", "finished"])
def test_registration_refusals(case):
    event = EventFactory(status="finished" if case == "finished" else "registration")
    player = PlayerFactory(club=event.club)
    kwargs = {"player": player}
    if case == "twice":
        Registration.objects.create(event=event, player=player)
    if case == "other_club":
        kwargs = {"player": PlayerFactory()}
    if case == "partnership_in_rotating":
        other = PlayerFactory(club=event.club)
        kwargs = {"partnership": services.partnership_create(club=event.club, player_a=player, player_b=other)}
    before = Registration.objects.count()

    with pytest.raises(DomainError):
        services.registration_add(event=event, **kwargs)

    assert Registration.objects.count() == before


def test_fixed_partnership_event_refuses_single_players_and_overlapping_pairs():
    event = EventFactory(format="swiss", status="registration")
    a, b, c = (PlayerFactory(club=event.club) for _ in range(3))
    services.registration_add(
        event=event, partnership=services.partnership_create(club=event.club, player_a=a, player_b=b)
    )
    with pytest.raises(DomainError, match="fixed partnerships"):
        services.registration_add(event=event, player=c)
    with pytest.raises(DomainError, match="Already entered"):
        services.registration_add(
            event=event, partnership=services.partnership_create(club=event.club, player_a=b, player_b=c)
        )
    assert event.registrations.count() == 1


def test_late_arrival_joins_at_the_next_rotation_checked_in():
    event = EventFactory(status="running")
    RotationFactory(event=event, number=1, status="closed")
    RotationFactory(event=event, number=2, status="started")

    registration = services.registration_add(event=event, player=PlayerFactory(club=event.club))

    assert (registration.checked_in, registration.joins_at_rotation) == (True, 3)


def test_withdrawal_keeps_the_rotations_already_played():
    event = EventFactory(status="running")
    RotationFactory(event=event, number=1, status="closed")
    RotationFactory(event=event, number=2, status="started")
    registration = Registration.objects.create(event=event, player=PlayerFactory(club=event.club))

    services.registration_withdraw(registration=registration)

    registration.refresh_from_db()
    assert registration.withdrawn_after_rotation == 2
    with pytest.raises(DomainError, match="already withdrawn"):
        services.registration_withdraw(registration=registration)
    with pytest.raises(DomainError, match="withdrawn"):
        services.registration_check_in(registration=registration)


def test_check_in_toggles():
    event = EventFactory(status="registration")
    registration = Registration.objects.create(event=event, player=PlayerFactory(club=event.club))
    services.registration_check_in(registration=registration)
    assert Registration.objects.get(pk=registration.pk).checked_in
    services.registration_check_in(registration=registration, checked_in=False)
    assert not Registration.objects.get(pk=registration.pk).checked_in


def test_add_entrant_creates_a_new_player_by_name():
    event = EventFactory(status="registration")
    registration = services.registration_add_entrant(event=event, players=["New Person"])
    assert registration.player.name == "New Person"
    assert registration.player.club == event.club


def test_add_entrant_pairs_two_players_in_fixed_formats():
    event = EventFactory(status="registration", format="swiss")
    existing = PlayerFactory(club=event.club)
    registration = services.registration_add_entrant(event=event, players=[existing, "Partner"])
    pair = registration.partnership
    assert {pair.player_a.name, pair.player_b.name} == {existing.name, "Partner"}


def test_add_entrant_refused_leaves_no_new_player_behind():
    event = EventFactory(status="registration")
    existing = PlayerFactory(club=event.club)
    Registration.objects.create(event=event, player=existing)
    players_before = event.club.players.count()

    with pytest.raises(DomainError, match="one player"):
        services.registration_add_entrant(event=event, players=["Someone", "Else"])
    event.format = "swiss"
    event.save()
    with pytest.raises(DomainError):
        services.registration_add_entrant(event=event, players=["Brand New", existing])

    assert event.club.players.count() == players_before


def test_update_with_a_too_long_name_is_refused_and_keeps_the_old_one():
    club = ClubFactory(name="Short")
    with pytest.raises(DomainError, match="name"):
        services.club_update(club=club, name="x" * 500)
    club.refresh_from_db()
    assert club.name == "Short"
