"""Substitutes in a league: the league's choice of whom a substitute's result counts for (its
settings page), seating a substitute for an absent member and undoing it, and the refusals."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, Invalid
from league import services
from league.models import AuditEntry, Event, League, Player, Registration, Seat, Substitution
from tests.factories import (
    EventFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
)
from tests.league.factories import (
    checked_in_partnerships,
    confirm_all_games,
    running_event,
    user_with_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


def _settings_url(league: League) -> str:
    return reverse("director-league-settings", args=[league.club.slug, league.slug])


def _settings(league: League, **changes: str) -> dict[str, str]:
    """The settings form as the page sends it: the league's values, with `changes`."""
    from league.forms.league_settings import LeagueSettingsForm

    values = {k: "" if v is None else str(v) for k, v in LeagueSettingsForm.initial_for(league).items()}
    return {**values, **changes}


def test_the_club_page_links_each_leagues_settings(director_client, membership):
    league = LeagueFactory(club=membership.club, name="Tuesday League")
    page = director_client.get(reverse("director-club", args=[membership.club.slug]))
    assert _settings_url(league) in page.text


def test_a_director_chooses_whom_a_substitute_counts_for_and_the_cap(director_client, membership):
    league = LeagueFactory(club=membership.club)
    page = director_client.post(_settings_url(league), _settings(
        league, substitute_counts_for="neither", substitute_cap="2"), follow=True)
    assert "are saved" in page.text
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("neither", 2)
    assert AuditEntry.objects.filter(club=league.club, action="league_settings").count() == 1
    director_client.post(_settings_url(league), _settings(league, substitute_counts_for="member",
                                                          substitute_cap=""))
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("member", None)


@pytest.mark.parametrize("cap", ["101", "-1", "two"])
def test_a_cap_out_of_range_is_refused_in_words_and_changes_nothing(director_client, membership, cap):
    league = LeagueFactory(club=membership.club)
    page = director_client.post(_settings_url(league), _settings(
        league, substitute_counts_for="neither", substitute_cap=cap))
    assert page.status_code == 200
    assert "Give a whole number of nights" in page.text or "from 0 to 100" in page.text
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("member", None)


@pytest.mark.parametrize("role", ["outsider", "scorer", "other_director"])
def test_only_the_clubs_directors_change_league_settings(client, membership, role):
    league = LeagueFactory(club=membership.club)
    client.force_login(user_with_role(role, membership.club))
    response = client.post(_settings_url(league), _settings(league, substitute_counts_for="neither"))
    assert response.status_code in (403, 404)
    league.refresh_from_db()
    assert league.substitute_counts_for == "member"


# --- seating a substitute ---------------------------------------------------------------------


def _seated_night(players: int = 8, planned_rotations: int = 3):
    event, entrants = running_event(players)
    Event.objects.filter(pk=event.pk).update(planned_rotations=planned_rotations)
    event.refresh_from_db()
    rotation = services.rotation_generate(event=event)
    return event, entrants, rotation


def test_a_substitute_takes_the_members_seat_and_is_entered_in_their_place():
    event, players, rotation = _seated_night()
    member = players[0]
    sub = PlayerFactory(club=event.club, name="Sam Sub")
    services.substitute_seat(event=event, member=member, substitute=sub, by=None)
    seat = Seat.objects.get(rotation=rotation, player=sub)
    assert seat.substitute_for == member
    assert not Seat.objects.filter(rotation=rotation, player=member).exists()
    assert Registration.objects.get(event=event, player=member).withdrawn_after_rotation == 0
    assert Registration.objects.get(event=event, player=sub).checked_in


def test_the_substitute_is_seated_for_the_member_in_the_rotations_seated_later():
    event, players, rotation = _seated_night()
    member, sub = players[0], PlayerFactory(club=event.club)
    services.substitute_seat(event=event, member=member, substitute=sub, by=None)
    services.rotation_start(rotation=rotation)
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation)
    later = services.rotation_generate(event=event)
    assert Seat.objects.get(rotation=later, player=sub).substitute_for == member
    assert not Seat.objects.filter(rotation=later, player=member).exists()


def test_a_new_name_becomes_a_player_of_the_club():
    event, players, _ = _seated_night()
    services.substitute_seat(event=event, member=players[0], substitute="  Nora   New ", by=None)
    nora = Player.objects.get(club=event.club, name="Nora New")
    assert Seat.objects.get(player=nora).substitute_for == players[0]


def test_in_fixed_partnerships_the_partnership_stays_and_the_substitute_sits_in_the_members_seat():
    event = EventFactory(status=Event.Status.RUNNING, format=Event.Format.ROUND_ROBIN, planned_rotations=2)
    pairs = checked_in_partnerships(event, 4)
    rotation = services.rotation_generate(event=event)
    member, partner = pairs[0].player_a, pairs[0].player_b
    sub = PlayerFactory(club=event.club)
    services.substitute_seat(event=event, member=member, substitute=sub, by=None)
    seat = Seat.objects.get(rotation=rotation, player=sub)
    assert seat.substitute_for == member
    assert Seat.objects.get(rotation=rotation, player=partner).side == seat.side
    assert not Registration.objects.filter(event=event, player=sub).exists()
    services.rotation_start(rotation=rotation)  # the seating still covers every entrant
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation)
    later = services.rotation_generate(event=event)
    assert Seat.objects.get(rotation=later, player=sub).substitute_for == member


def test_removing_the_substitution_gives_the_member_their_seat_back():
    event, players, rotation = _seated_night()
    member, sub = players[0], PlayerFactory(club=event.club)
    services.substitute_seat(event=event, member=member, substitute=sub, by=None)
    services.substitute_remove(event=event, member=member, by=None)
    assert Seat.objects.get(rotation=rotation, player=member).substitute_for is None
    assert not Registration.objects.filter(event=event, player=sub).exists()
    assert Registration.objects.get(event=event, player=member).withdrawn_after_rotation is None
    assert AuditEntry.objects.filter(event=event, action="substitute_remove").exists()


def _refusal(error_class, **kwargs):
    with pytest.raises(error_class) as caught:
        services.substitute_seat(by=None, **kwargs)
    return caught.value


def test_refusals_are_in_words_and_change_nothing():
    event, players, rotation = _seated_night()
    outsider = PlayerFactory(club=event.club, name="Olive Out")
    error = _refusal(Invalid, event=event, member=outsider, substitute=PlayerFactory(club=event.club))
    assert error.code == "SUBSTITUTE_MEMBER_ABSENT" and "Olive Out is not entered" in error.message
    error = _refusal(Invalid, event=event, member=players[0], substitute=players[0])
    assert error.code == "SUBSTITUTE_IS_MEMBER"
    error = _refusal(Conflict, event=event, member=players[0], substitute=players[1])
    assert error.code == "SUBSTITUTE_PLAYING" and "already playing tonight" in error.message
    assert not Seat.objects.filter(substitute_for__isnull=False).exists()


def test_a_closed_night_or_a_finished_event_refuses():
    event, players, rotation = _seated_night(planned_rotations=1)
    services.rotation_start(rotation=rotation)
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation)
    error = _refusal(Conflict, event=event, member=players[0], substitute=PlayerFactory(club=event.club))
    assert error.code == "SUBSTITUTE_TOO_LATE" and "closed" in error.message
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    error = _refusal(Conflict, event=event, member=players[0], substitute=PlayerFactory(club=event.club))
    assert error.code == "EVENT_FINISHED"


def test_a_member_has_one_substitute_at_a_time_and_the_history_undoes_it():
    event, players, rotation = _seated_night()
    member = players[0]
    entry = services.substitute_seat(event=event, member=member, substitute=PlayerFactory(club=event.club), by=None)
    error = _refusal(Conflict, event=event, member=member, substitute=PlayerFactory(club=event.club))
    assert error.code == "SUBSTITUTE_EXISTS"
    assert services.audit_undoable(entry=entry)
    services.audit_undo(entry=entry)
    assert Seat.objects.get(rotation=rotation, player=member).substitute_for is None


def test_the_substitution_is_its_own_record_and_a_removed_one_stays_with_its_removal_time():
    event, players, rotation = _seated_night()
    member, sub = players[0], PlayerFactory(club=event.club)
    director = MembershipFactory(club=event.club, role="director").user
    services.substitute_seat(event=event, member=member, substitute=sub, by=director)
    substitution = Substitution.objects.get(event=event)
    assert (substitution.member, substitution.substitute, substitution.from_rotation,
            substitution.created_by, substitution.removed_at) == (member, sub, 1, director, None)
    AuditEntry.objects.filter(event=event, action="substitute_seat").delete()  # the history only says
    assert Seat.objects.get(rotation=rotation, player=sub).substitute_for == member
    services.substitute_remove(event=event, member=member, by=None)
    substitution.refresh_from_db()
    assert substitution.removed_at is not None and substitution.removed_at <= timezone.now()
    assert Seat.objects.get(rotation=rotation, player=member).substitute_for is None
    again = PlayerFactory(club=event.club)
    services.substitute_seat(event=event, member=member, substitute=again, by=None)
    assert [(s.substitute_id, s.removed_at is None) for s in
            Substitution.objects.filter(event=event).order_by("pk")] == [(sub.pk, False), (again.pk, True)]


def test_the_database_refuses_a_second_substitution_in_force_for_a_member():
    event, players, _ = _seated_night()
    member = players[0]
    services.substitute_seat(event=event, member=member, substitute=PlayerFactory(club=event.club), by=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Substitution.objects.create(event=event, member=member, substitute=PlayerFactory(club=event.club),
                                    from_rotation=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Substitution.objects.create(event=event, member=players[1], substitute=players[1], from_rotation=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Substitution.objects.create(event=event, member=players[1], substitute=PlayerFactory(club=event.club),
                                    from_rotation=0)
    services.substitute_remove(event=event, member=member, by=None)
    Substitution.objects.create(event=event, member=member, substitute=PlayerFactory(club=event.club),
                                from_rotation=2)  # removed ones do not count
    assert Substitution.objects.filter(event=event, member=member).count() == 2


def test_merging_a_substitute_into_another_player_moves_their_substitution():
    event, players, rotation = _seated_night()
    member, sub = players[0], PlayerFactory(club=event.club, name="Sam Sub")
    services.substitute_seat(event=event, member=member, substitute=sub, by=None)
    same = PlayerFactory(club=event.club, name="Sam Substitute")
    services.player_merge(source=sub, target=same)
    assert Substitution.objects.get(event=event).substitute == same
    assert Seat.objects.get(rotation=rotation, player=same).substitute_for == member


def test_a_clubs_backup_keeps_its_substitutions_in_force():
    import io
    import json

    from django.core.management import call_command

    from site_pages.backup import club_import
    from tests.site_pages.test_backup import empty_the_database

    event, players, _ = _seated_night()
    member = players[0]
    services.substitute_seat(event=event, member=member, substitute=PlayerFactory(club=event.club, name="Sam"),
                             by=None)
    out = io.StringIO()
    call_command("export_club", event.club.slug, stdout=out)
    empty_the_database()
    restored = club_import(data=json.loads(out.getvalue())).club
    substitution = Substitution.objects.get(event__club=restored)
    assert (substitution.member.name, substitution.substitute.name) == (member.name, "Sam")
    assert substitution.registration.player == substitution.substitute
    services.substitute_remove(event=substitution.event, member=substitution.member, by=None)
    assert Registration.objects.get(event=substitution.event, player=substitution.member).withdrawn_after_rotation is None


# --- the director's page and "played by X for Y" on every page --------------------------------

def _director_night(membership):
    """A running league night of Ann, Bea, Cal and Dee at one table, its first rotation seated."""
    club = membership.club
    season = SeasonFactory(league=LeagueFactory(club=club))
    event = EventFactory(club=club, season=season, status=Event.Status.RUNNING, planned_rotations=2,
                         kind=Event.Kind.LEAGUE_NIGHT)
    names = ("Ann", "Bea", "Cal", "Dee")
    players = {n: PlayerFactory(club=club, name=n) for n in names}
    for player in players.values():
        Registration.objects.create(event=event, player=player, checked_in=True)
    rotation = services.rotation_generate(event=event)
    return event, players, rotation


def test_the_director_seats_a_substitute_from_the_event_page_and_removes_them(director_client, membership):
    event, players, rotation = _director_night(membership)
    page = director_client.get(reverse("director-event", args=[event.slug]))
    assert "Seat a substitute" in page.text and "No substitute tonight." in page.text
    page = director_client.post(reverse("director-substitute-add", args=[event.slug]),
                                {"member": players["Ann"].pk, "substitute": "Sam Sub"}, follow=True)
    assert "Sam Sub plays for Ann tonight." in page.text
    assert "played by Sam Sub for Ann" in page.text
    sam = Player.objects.get(name="Sam Sub")
    assert Seat.objects.get(rotation=rotation, player=sam).substitute_for == players["Ann"]
    page = director_client.post(reverse("director-substitute-remove", args=[event.slug, players["Ann"].pk]),
                                follow=True)
    assert "Ann takes their own seats again." in page.text
    assert Seat.objects.filter(rotation=rotation, player=players["Ann"]).exists()


def test_a_refused_substitute_is_said_in_words_on_the_page(director_client, membership):
    event, players, _ = _director_night(membership)
    page = director_client.post(reverse("director-substitute-add", args=[event.slug]),
                                {"member": players["Ann"].pk, "substitute": "Bea"}, follow=True)
    assert "Bea is already playing tonight" in page.text
    assert not Seat.objects.filter(substitute_for__isnull=False).exists()
    page = director_client.post(reverse("director-substitute-add", args=[event.slug]),
                                {"member": players["Ann"].pk, "substitute": ""}, follow=True)
    assert "Give the substitute&#x27;s name." in page.text or "Give the substitute's name." in page.text


def test_only_the_clubs_directors_seat_substitutes(client, membership):
    event, players, _ = _director_night(membership)
    client.force_login(user_with_role("scorer", membership.club))
    response = client.post(reverse("director-substitute-add", args=[event.slug]),
                           {"member": players["Ann"].pk, "substitute": "Sam"})
    assert response.status_code in (403, 404)
    assert not Seat.objects.filter(substitute_for__isnull=False).exists()


def test_every_page_of_the_night_says_played_by_x_for_y(director_client, membership):
    from analytics.standings.services import event_standings_refresh
    from league.services.credentials import side_credentials_ensure
    from tests.analytics.factories import confirm

    event, players, rotation = _director_night(membership)
    sam = PlayerFactory(club=membership.club, name="Sam")
    services.substitute_seat(event=event, member=players["Ann"], substitute=sam, by=None)
    services.rotation_start(rotation=rotation)
    words = "played by Sam for Ann"
    public = director_client.get(reverse("event-detail", args=[event.slug]))
    assert words in public.text
    cards = director_client.get(reverse("event-table-cards", args=[event.slug]))
    assert words in cards.text
    assert words in director_client.get(reverse("event-wall", args=[event.slug])).text
    game = rotation.tables.get().game
    token = side_credentials_ensure(games=[game])[game.pk][0].token
    assert words in director_client.get(reverse("play-game", args=[token])).text
    confirm(game, [(900, 400)])
    event_standings_refresh(event=event)
    assert words in director_client.get(reverse("event-standings", args=[event.slug])).text
    for player in (players["Ann"], sam):
        page = director_client.get(player.get_absolute_url())
        assert words in page.text, player.name
    sam.user = membership.user
    sam.save()
    Event.objects.filter(pk=event.pk).update(date=timezone.localdate())
    assert words in director_client.get(reverse("my-page")).text


def test_the_api_names_the_member_a_seat_is_played_for(director_client, membership):
    event, players, rotation = _director_night(membership)
    sam = PlayerFactory(club=membership.club, name="Sam")
    services.substitute_seat(event=event, member=players["Ann"], substitute=sam, by=None)
    body = director_client.get("/api/games/", {"event": event.pk, "rotation": 1}).json()
    seats = {s["player"]: s["substitute_for"] for g in body["results"] for s in g["seats"]}
    assert seats[sam.pk] == players["Ann"].pk
    assert seats[players["Bea"].pk] is None
