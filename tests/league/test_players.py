"""The club's players: names matched before creating, rename, merge (results follow), retire."""

import pytest

from analytics import selectors as analytics_selectors
from analytics.models import PlayerRating
from core.errors import DomainError
from league import selectors
from league import services as players
from league.models import AuditEntry, Player, Registration
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("typed", ["grace hopper", "Grâce Hopper", "GRACE  HOPPER", "Grace Hoper",
                                   "Hopper, Grace"])
def test_a_typed_name_finds_the_club_player_whatever_accents_case_or_small_misspellings(typed):
    club = ClubFactory()
    grace = PlayerFactory(club=club, name="Grace Hopper")
    PlayerFactory(club=club, name="Alan Turing")
    PlayerFactory(name="Grace Hopper")  # another club's

    matches = selectors.player_matches(club=club, name=typed)

    assert [m.player for m in matches] == [grace]


def test_exact_means_same_letters_and_different_numbers_never_match():
    club = ClubFactory()
    PlayerFactory(club=club, name="Guest 1")
    assert selectors.player_matches(club=club, name="Guest 2") == []
    assert selectors.player_matches(club=club, name="guest 1")[0].exact


def test_possible_duplicates_pairs_close_names_both_ways():
    club = ClubFactory()
    a = PlayerFactory(club=club, name="Edsger Dijkstra")
    b = PlayerFactory(club=club, name="Edsger Dijkstr")
    PlayerFactory(club=club, name="Barbara Liskov")

    found = selectors.player_possible_duplicates(club=club)

    assert found == {a.pk: [b], b.pk: [a]}


def test_rename_is_logged_with_who_and_refuses_a_name_taken():
    club = ClubFactory()
    user = UserFactory()
    ada = PlayerFactory(club=club, name="Ada")
    PlayerFactory(club=club, name="Grace")

    players.player_rename(player=ada, name="Ada Lovelace", by=user)

    ada.refresh_from_db()
    assert ada.name == "Ada Lovelace"
    entry = AuditEntry.objects.get(action="player_rename")
    assert entry.user == user and entry.player == ada and entry.data == {"old": "Ada", "new": "Ada Lovelace"}
    with pytest.raises(DomainError, match="merge"):
        players.player_rename(player=ada, name="grace", by=user)


def test_retire_and_bring_back():
    ada = PlayerFactory(name="Ada")
    players.player_retire(player=ada)
    ada.refresh_from_db()
    assert ada.retired_at is not None
    with pytest.raises(DomainError):
        players.player_retire(player=ada)
    players.player_reinstate(player=ada)
    ada.refresh_from_db()
    assert ada.retired_at is None
    assert list(AuditEntry.objects.values_list("action", flat=True).order_by("pk")) == [
        "player_retire", "player_reinstate"]


def test_merge_moves_seats_entries_and_results_and_recomputes_standings_and_ratings(
        django_capture_on_commit_callbacks):
    event = EventFactory()
    club = event.club
    grace = PlayerFactory(club=club, name="Grace Hopper")
    duplicate = PlayerFactory(club=club, name="Grace Hoper")
    others = [PlayerFactory(club=club) for _ in range(3)]
    Registration.objects.create(event=event, player=duplicate, checked_in=True)
    game = make_game(event=event, players=[duplicate, *others])
    confirm(game, [[500, 100]])
    from analytics import services as analytics_services
    analytics_services.club_recompute(club_id=club.pk)
    assert PlayerRating.objects.filter(player=duplicate).exists()

    with django_capture_on_commit_callbacks(execute=True):
        players.player_merge(source=duplicate, target=grace, by=UserFactory())

    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert game.table.seats.filter(player=grace).exists()
    assert Registration.objects.get(event=event).player == grace
    rows = analytics_selectors.event_standings(event=event).rows
    assert grace.pk in {p for row in rows for p in row["players"]}
    assert PlayerRating.objects.filter(player=grace, games=1).exists()
    assert AuditEntry.objects.get(action="player_merge").data["source_name"] == "Grace Hoper"


def test_merge_refuses_two_people_who_sat_at_one_table():
    event = EventFactory()
    a, b = PlayerFactory(club=event.club), PlayerFactory(club=event.club)
    make_game(event=event, players=[a, b, PlayerFactory(club=event.club), PlayerFactory(club=event.club)])

    with pytest.raises(DomainError, match="two different people"):
        players.player_merge(source=a, target=b)

    assert Player.objects.filter(pk=a.pk).exists()


def test_merge_refuses_players_of_different_clubs_and_a_player_with_themself():
    a, b = PlayerFactory(), PlayerFactory()
    with pytest.raises(DomainError):
        players.player_merge(source=a, target=b)
    with pytest.raises(DomainError):
        players.player_merge(source=a, target=a)
