"""Divisions of a season: adding them, placing players, a night's division, the tables per
division, and promotion and relegation proposed from them and confirmed into the next season."""

from __future__ import annotations

import pytest

from analytics.handicaps import selectors as tables
from analytics.handicaps import services as table_services
from analytics.models import StandingsSnapshot
from analytics.standings import services as standings
from core.errors import Conflict, Invalid
from league import services
from league.models import Club, Division, DivisionPlace, Event, Season
from league.services.divisions import DivisionTable, TableRow, promotion_propose
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.league.factories import season_of_nights


def _row(name: str, rank: int | None, player: int) -> TableRow:
    return TableRow((player,), name, rank)


def _table(number: int, *rows: TableRow) -> DivisionTable:
    return DivisionTable(number, f"Division {number}", rows,
                         tuple((r.players[0], r.name) for r in rows))


# --- the proposal, pure -----------------------------------------------------------------------


def test_the_top_go_up_and_the_bottom_go_down():
    top = _table(1, _row("A", 1, 1), _row("B", 2, 2), _row("C", 3, 3))
    bottom = _table(2, _row("D", 1, 4), _row("E", 2, 5), _row("F", 3, 6))
    proposal = promotion_propose(tables=[bottom, top], places=1)
    assert [(m.name, m.from_number, m.to_number) for m in proposal.moves] == [
        ("C", 1, 2), ("D", 2, 1)]
    assert proposal.placements == {1: 1, 2: 1, 3: 2, 4: 1, 5: 2, 6: 2}
    assert proposal.notes == []


def test_a_tie_at_the_line_and_a_too_small_division_are_said_in_words():
    top = _table(1, _row("A", 1, 1), _row("B", 2, 2), _row("C", 2, 3), _row("I", 4, 9))
    middle = _table(2, _row("D", 1, 4), _row("E", 2, 5), _row("F", None, 6))
    bottom = _table(3, _row("G", 1, 7), _row("H", 2, 8))
    proposal = promotion_propose(tables=[top, middle, bottom], places=2)
    assert proposal.notes == [
        "B and C share place 2 at the relegation line of Division 1: the proposal moves down "
        "the one listed last, in the table's order; change the places by hand if the league "
        "decides otherwise.",
        "Division 2 has only 2 players ranked, too few to move 2 each way: 1 goes up and 1 goes "
        "down.",
        "F played too few nights to be ranked and stays in Division 2.",
        "Division 3 has only 2 players ranked, too few to move 2: 1 goes up.",
    ]
    assert proposal.placements == {1: 1, 2: 1, 3: 2, 9: 2, 4: 1, 5: 3, 6: 2, 7: 2, 8: 3}


# --- the services -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_divisions_are_numbered_from_the_top_and_players_placed_once():
    season = SeasonFactory()
    first = services.division_create(season=season, name="Premier")
    second = services.division_create(season=season, name="Second")
    assert (first.number, second.number) == (1, 2)
    ann, bob = (PlayerFactory(club=season.league.club) for _ in range(2))
    assert services.division_places_set(season=season, places={ann.pk: first.pk, bob.pk: second.pk}) == 2
    services.division_places_set(season=season, places={ann.pk: second.pk, bob.pk: None})
    assert list(DivisionPlace.objects.filter(season=season).values_list("player", "division")) == [
        (ann.pk, second.pk)]


@pytest.mark.django_db
def test_a_division_of_another_season_is_refused_and_nothing_changes():
    season, other = SeasonFactory(), SeasonFactory()
    mine = services.division_create(season=season, name="Premier")
    theirs = services.division_create(season=other, name="Elsewhere")
    ann = PlayerFactory(club=season.league.club)
    services.division_places_set(season=season, places={ann.pk: mine.pk})
    with pytest.raises(Invalid):
        services.division_places_set(season=season, places={ann.pk: theirs.pk})
    assert DivisionPlace.objects.get(season=season).division == mine
    with pytest.raises(Invalid) as refused:
        services.division_create(season=season, name="  ")
    assert refused.value.message == "The division needs a name."


@pytest.mark.django_db
def test_a_night_plays_a_division_of_its_own_season_only():
    season = SeasonFactory()
    division = services.division_create(season=season, name="Premier")
    elsewhere = services.division_create(season=SeasonFactory(league=season.league), name="Old")
    event = EventFactory(club=season.league.club, season=season)
    services.event_update(event=event, division=division)
    assert Event.objects.get(pk=event.pk).division == division
    with pytest.raises(Invalid) as refused:
        services.event_update(event=event, division=elsewhere)
    assert "is a division of another season" in refused.value.message
    assert Event.objects.get(pk=event.pk).division == division


# --- a 12-night season of two divisions -------------------------------------------------------


def _season_of_two_divisions():
    club = MembershipFactory().club
    upper = [PlayerFactory(club=club, name=f"Upper {i}") for i in range(1, 5)]
    lower = [PlayerFactory(club=club, name=f"Lower {i}") for i in range(1, 5)]
    season = SeasonFactory(league__club=club, promotion_places=1)
    one = services.division_create(season=season, name="Division 1")
    two = services.division_create(season=season, name="Division 2")
    services.division_places_set(season=season, places={
        **{p.pk: one.pk for p in upper}, **{p.pk: two.pk for p in lower}})
    season, nights = season_of_nights(groups=[upper, lower], nights=12, seed=29, season=season)
    for index, night in enumerate(nights):  # finished nights: their settings are kept as played
        Event.objects.filter(pk=night.pk).update(division=one if index % 2 == 0 else two)
    standings.club_standings_recompute(club_id=club.pk)
    table_services.club_tables_refresh(club_id=club.pk)
    return season, upper, lower


def _ranked(rows) -> list[str]:
    return [r["name"] for r in rows]


@pytest.mark.django_db
def test_each_division_has_its_own_table_from_the_season(client):
    season, upper, lower = _season_of_two_divisions()
    whole = StandingsSnapshot.objects.get(season=season).rows
    assert all(r["nights"] == 6 for r in whole)
    entries = tables.division_tables(season=season)
    assert [e.division.name for e in entries] == ["Division 1", "Division 2"]
    for entry, group in zip(entries, (upper, lower), strict=True):
        rows = entry.scratch.rows
        # The season's rows of the division's players, in the season's order, placed 1 to 4.
        assert _ranked(rows) == [r["name"] for r in whole if r["players"][0] in {p.pk for p in group}]
        assert [r["rank"] for r in rows] == [1, 2, 3, 4]
        scores = [r["score"] for r in rows]
        assert scores == sorted(scores, reverse=True)


@pytest.mark.django_db
def test_the_promotion_proposal_is_confirmed_into_the_next_season_once():
    season, upper, lower = _season_of_two_divisions()
    entries = tables.division_tables(season=season)
    last_of_one = entries[0].scratch.rows[-1]["players"][0]
    first_of_two = entries[1].scratch.rows[0]["players"][0]
    proposal = promotion_propose(tables=tables.promotion_tables(season=season), places=1)
    assert [(m.players[0], m.to_number) for m in proposal.moves] == [(last_of_one, 2), (first_of_two, 1)]
    following = SeasonFactory(league=season.league, name="2027")
    placed = services.divisions_promotion_confirm(season=season, target=following,
                                                  placements=proposal.placements)
    assert placed == 8
    assert list(following.divisions.values_list("number", "name")) == [
        (1, "Division 1"), (2, "Division 2")]
    places = dict(DivisionPlace.objects.filter(season=following).values_list("player", "division__number"))
    assert places[last_of_one] == 2 and places[first_of_two] == 1
    assert sorted(places.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    with pytest.raises(Conflict) as refused:
        services.divisions_promotion_confirm(season=season, target=following,
                                             placements={p: 1 for p in proposal.placements})
    assert "2027" in refused.value.message  # names the season
    assert "nothing was changed" in refused.value.message
    assert dict(DivisionPlace.objects.filter(season=following).values_list(
        "player", "division__number")) == places


@pytest.mark.django_db
def test_confirming_into_the_same_or_another_leagues_season_is_refused():
    season, _upper, _lower = _season_of_two_divisions()
    with pytest.raises(Invalid):
        services.divisions_promotion_confirm(season=season, target=season, placements={})
    with pytest.raises(Invalid):
        services.divisions_promotion_confirm(season=season, target=SeasonFactory(), placements={})
    assert Season.objects.count() == 2 and Division.objects.count() == 2


# --- the pages --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_adds_a_division_and_places_players_on_the_page(client):
    membership = MembershipFactory()
    season = SeasonFactory(league__club=membership.club)
    event = EventFactory(club=membership.club, season=season)
    ann = PlayerFactory(club=membership.club, name="Ann Lee")
    event.registrations.create(player=ann)
    client.force_login(membership.user)
    url = f"/director/seasons/{season.pk}/divisions/"
    client.post(url, {"action": "add", "name": "Premier"})
    division = Division.objects.get(season=season)
    page = client.get(url).content.decode()
    assert "Premier" in page and "Ann Lee" in page
    client.post(url, {"action": "places", f"player_{ann.pk}": str(division.pk)})
    assert DivisionPlace.objects.get(season=season).player == ann
    response = client.post(url, {"action": "promotion_places", "promotion_places": "99"}, follow=True)
    assert "Give a number from 0 to 20." in response.content.decode()
    assert Season.objects.get(pk=season.pk).promotion_places == 1


@pytest.mark.django_db
def test_someone_else_may_not_open_the_divisions_page(client):
    season = SeasonFactory()
    client.force_login(MembershipFactory().user)
    assert client.get(f"/director/seasons/{season.pk}/divisions/").status_code in (403, 404)


@pytest.mark.django_db
def test_the_season_page_csv_and_api_show_each_division(client):
    season, upper, lower = _season_of_two_divisions()
    url = f"/clubs/{season.league.club.slug}/leagues/{season.league.slug}/seasons/{season.slug}/"
    page = client.get(url).content.decode()
    assert "<h2 id=\"divisions-heading\">Divisions</h2>" in page
    assert page.index("Division 1") < page.index("Division 2")
    csv = client.get(f"/seasons/{season.pk}/divisions/2/standings.csv").content.decode()
    assert csv.splitlines()[0].startswith("Place,Name,Nights")
    assert all(f"Lower {i}" in csv for i in range(1, 5)) and "Upper" not in csv
    body = client.get(f"/api/standings/seasons/{season.pk}/").json()
    assert [d["number"] for d in body["divisions"]] == [1, 2]
    assert len(body["divisions"][0]["scratch"]["rows"]) == 4
    assert body["handicapped"] is None
    director = client.get(f"/director/seasons/{season.pk}/divisions/")
    assert director.status_code in (302, 403, 404)  # not signed in


@pytest.mark.django_db
def test_the_director_sees_the_proposal_and_confirms_it_on_the_page(client):
    season, upper, lower = _season_of_two_divisions()
    following = SeasonFactory(league=season.league, name="2027")
    client.force_login(season.league.club.memberships.get().user)
    url = f"/director/seasons/{season.pk}/divisions/"
    page = client.get(url).content.decode()
    assert ": up from Division 2 to Division 1" in page and ": down from Division 1 to Division 2" in page
    done = client.post(url, {"action": "confirm", "target": following.pk}, follow=True).content.decode()
    assert "Confirmed: the players are placed in the divisions of 2027." in done
    assert DivisionPlace.objects.filter(season=following).count() == 8
    again = client.post(url, {"action": "confirm", "target": following.pk}, follow=True).content.decode()
    assert "already has players placed in divisions: nothing was changed" in again


@pytest.mark.django_db
def test_the_director_chooses_a_nights_division_in_its_settings(client):
    from league.forms import EventForm

    membership = MembershipFactory()
    season = SeasonFactory(league__club=membership.club)
    division = services.division_create(season=season, name="Premier")
    event = EventFactory(club=membership.club, season=season, kind="league_night")
    client.force_login(membership.user)
    url = f"/director/events/{event.slug}/edit/"
    assert "The whole season" in client.get(url).content.decode()
    clubs = Club.objects.filter(pk=membership.club.pk)
    form = EventForm(initial=EventForm.initial_for(event), clubs=clubs)
    data = {}  # the settings as they are, then the division
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value is None or value is False:
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list) else getattr(value, "pk", value)
    data["division"] = division.pk
    client.post(url, data)
    assert Event.objects.get(pk=event.pk).division == division
