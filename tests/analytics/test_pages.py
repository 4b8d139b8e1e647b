"""Standings, player, partnership, head-to-head, leaderboard and what-if pages; CSV; API."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from analytics.ratings import services as ratings_services
from analytics.standings import services as standings_services
from analytics.statistics import services as statistics_services
from handfoot.rules import PRESETS
from league.models import Player
from tests.analytics.factories import confirm, make_game
from tests.factories import (
    ClubFactory,
    EventFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def build_event(games: int = 1, *, club=None, **event_fields):
    club = club or ClubFactory()
    event = EventFactory(club=club, **event_fields)
    players = [PlayerFactory(club=club) for _ in range(4)]
    for number in range(1, games + 1):
        order = players if number % 2 else [players[0], players[2], players[1], players[3]]
        confirm(make_game(event=event, players=order, rotation_number=number),
                [[100 * number, 50], [200, 20 * number]], clean_books=[[1, 0], [0, 2]])
    standings_services.event_recompute(event_id=event.pk)
    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)
    return event, players


def queries_for(client, url, **headers) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, headers=headers).status_code == 200
    return len(captured)


def test_event_standings_page_and_fragment(client):
    event, players = build_event(2)
    page = client.get(f"/events/{event.slug}/standings/")
    assert page.status_code == 200
    assert "<html" in page.content.decode() and players[0].name in page.content.decode()
    fragment = client.get(f"/events/{event.slug}/standings/", headers={"X-Requested-With": "fetch"})
    assert "<html" not in fragment.content.decode()
    assert "standings-table" in fragment.content.decode()


def test_event_standings_fragment_is_drawn_again_when_the_standings_change(client):
    """The polled fragment is kept in the cache per snapshot: a new result shows at once."""
    event, players = build_event(1)
    url, fetch = f"/events/{event.slug}/standings/", {"X-Requested-With": "fetch"}
    assert "1 confirmed game " in client.get(url, headers=fetch).content.decode()
    assert "1 confirmed game " in client.get(url, headers=fetch).content.decode()
    confirm(make_game(event=event, players=players, rotation_number=2), [[100, 50], [200, 20]],
            clean_books=[[1, 0], [0, 2]])
    standings_services.event_recompute(event_id=event.pk)
    assert "2 confirmed games" in client.get(url, headers=fetch).content.decode()


def test_event_standings_fragment_is_drawn_without_the_cache(client, monkeypatch):
    class Down:
        def get(self, *args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        set = get

    event, players = build_event(1)
    monkeypatch.setattr("analytics.views.page_cache.cache", Down())
    fragment = client.get(f"/events/{event.slug}/standings/", headers={"X-Requested-With": "fetch"})
    assert fragment.status_code == 200 and players[0].name in fragment.content.decode()
    season = client.get(f"/seasons/{event.season_id}/standings/") if event.season_id else None
    assert season is None or season.status_code == 200


def test_event_standings_csv_lists_the_ranked_rows(client):
    event, players = build_event(1, scoring="total_points")
    response = client.get(f"/events/{event.slug}/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["Place"] for r in rows] == ["1", "1", "3", "3"]
    assert {r["Total points"] for r in rows} == {"300", "70"}


def test_private_event_standings_are_hidden_from_outsiders_but_not_members(client):
    event, _ = build_event(1, is_public=False)
    assert client.get(f"/events/{event.slug}/standings/").status_code == 404
    assert client.get(f"/events/{event.slug}/standings.csv").status_code == 404
    scorer = MembershipFactory(club=event.club, role="scorer").user
    client.force_login(scorer)
    assert client.get(f"/events/{event.slug}/standings/").status_code == 200


def test_standings_page_queries_do_not_grow_with_the_event(client):
    small, _ = build_event(1)
    large, _ = build_event(6)
    for suffix, headers in (("standings/", {}), ("standings/", {"X-Requested-With": "fetch"}),
                            ("standings.csv", {})):
        assert queries_for(client, f"/events/{small.slug}/{suffix}", **headers) == queries_for(
            client, f"/events/{large.slug}/{suffix}", **headers)


def test_player_page_queries_do_not_grow_with_the_games(client, django_assert_max_num_queries):
    _, few = build_event(1)
    _, many = build_event(8)
    url = lambda p: f"/clubs/{p.club.slug}/players/{p.pk}/"  # noqa: E731
    assert queries_for(client, url(few[0])) == queries_for(client, url(many[0]))
    with django_assert_max_num_queries(12):
        client.get(url(many[0]))


def test_player_page_shows_rating_charts_partners_and_csv(client):
    _, players = build_event(3)
    page = client.get(players[0].get_absolute_url()).content.decode()
    assert "/static/vendor/plotly/plotly-cartesian.min.js" in page
    assert page.count("plotly-graph-div") == 5  # rating, distribution, rounds, books, partners
    assert players[2].name in page  # partner in games 1 and 3
    rows = list(csv.reader(io.StringIO(
        client.get(f"{players[0].get_absolute_url()}stats.csv").content.decode())))
    assert rows[0] == ["Statistic", "Value"]
    assert ["Games", "3"] in rows


def test_player_page_partners_table_is_cached_but_never_stale(client, monkeypatch):
    from django.core.cache.backends.locmem import LocMemCache

    from analytics.views import public as views

    monkeypatch.setattr(views, "cache", LocMemCache("partners-table-test", {}))
    event, players = build_event(3)
    rendered = []
    real = views.render_to_string
    monkeypatch.setattr(views, "render_to_string",
                        lambda name, context: rendered.append(name) or real(name, context))
    url = players[0].get_absolute_url()
    first = client.get(url).content.decode()
    assert client.get(url).content.decode() == first
    assert rendered == ["analytics/_partners_table.html"]  # the second page used the cache
    partner = players[2]
    partner.name = "Renamed Partner"
    partner.save()
    assert "Renamed Partner</a></th>" in client.get(url).content.decode()
    # A new game changes the pair's figures: the table shows them at once.
    confirm(make_game(event=event, players=players, rotation_number=4), [[900, 10]])
    standings_services.event_recompute(event_id=event.pk)
    change = ratings_services.ratings_update(club_id=event.club_id, event_id=event.pk)
    statistics_services.statistics_refresh(club_id=event.club_id, player_ids=change.players)
    page = client.get(url).content.decode()
    assert len(rendered) == 3
    assert '<td class="num">3</td><td class="num">3–0–0</td>' in page  # with players[2]


def test_player_page_renders_its_partners_while_the_cache_is_down(client, monkeypatch):
    from analytics.views import public as views

    class Down:
        def get(self, *args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        set = get

    monkeypatch.setattr(views, "cache", Down())
    _, players = build_event(2)
    page = client.get(players[0].get_absolute_url()).content.decode()
    assert f"{players[2].name}</a></th>" in page


def test_player_statistics_show_shares_as_percentages_in_the_page_and_the_csv(client):
    event, players = build_event(2)  # player 0 wins both games: 300-70, then 400-90

    page = client.get(players[0].get_absolute_url()).content.decode()
    assert '<th scope="row">Win rate</th><td class="num">100%</td>' in page
    rows = dict(csv.reader(io.StringIO(client.get(
        f"/clubs/{players[0].club.slug}/players/{players[0].pk}/stats.csv").content.decode())))
    assert rows["Win rate"] == "100%"


def test_unknown_player_is_404(client):
    club = ClubFactory()
    assert client.get(f"/clubs/{club.slug}/players/999999/").status_code == 404
    assert client.get(f"/players/{club.slug}/nobody/").status_code == 404  # an old address


@pytest.mark.parametrize(("chosen", "moved"), [("full", True), ("initial", False), ("hidden", False)])
def test_old_player_addresses_by_name_move_for_good_only_while_the_name_is_shown_in_full(
        client, chosen, moved):
    """A player's page, statistics file and partnership page are addressed by number; the old
    addresses (by slug, i.e. by name) answer 301 to the new ones while the name is public in
    full, and 404 (as for no one) once the player shows an initial or no name."""
    _, players = build_event(3)
    a, _, c, _ = players
    a.name, a.slug, a.name_shown = "Ann Lee", "ann-lee", chosen
    a.save(update_fields=["name", "slug", "name_shown"])
    club = a.club.slug
    assert a.get_absolute_url() == f"/clubs/{club}/players/{a.pk}/"
    olds = {f"/players/{club}/{a.slug}/": a.get_absolute_url(),
            f"/players/{club}/{a.slug}/stats.csv": f"{a.get_absolute_url()}stats.csv",
            f"/partnerships/{club}/{a.slug}/{c.slug}/": f"/clubs/{club}/partnerships/{a.pk}/{c.pk}/",
            f"/partnerships/{club}/{c.slug}/{a.slug}/": f"/clubs/{club}/partnerships/{c.pk}/{a.pk}/"}
    for old, new in olds.items():
        response = client.get(old)
        if moved:
            assert (response.status_code, response["Location"]) == (301, new), old
            assert client.get(new).status_code == 200, new
        else:
            assert response.status_code == 404, old
            assert a.slug not in response.content.decode()
    # A player who shows their full name still has the old address of their partner's pages.
    assert client.get(f"/players/{club}/{c.slug}/").status_code == 301
    page = client.get(c.get_absolute_url()).content.decode()
    assert a.slug not in page and f"/clubs/{club}/partnerships/{c.pk}/{a.pk}/" in page


def test_partnership_page(client):
    _, players = build_event(3)
    a, _, c, _ = players
    page = client.get(f"/clubs/{a.club.slug}/partnerships/{a.pk}/{c.pk}/")
    assert page.status_code == 200
    assert "Better together than expected" in page.content.decode()
    assert client.get(f"/clubs/{a.club.slug}/partnerships/{a.pk}/{a.pk}/").status_code == 404


def test_head_to_head_page_and_its_errors(client):
    _, (a, b, _, _) = build_event(2)
    ok = client.get("/head-to-head/", {"club": a.club.slug, "a": a.pk, "b": b.pk})
    assert ok.status_code == 200 and "Games as opponents" in ok.content.decode()
    assert client.get("/head-to-head/").status_code == 200
    assert client.get("/head-to-head/", {"club": "nope", "a": "x", "b": "y"}).status_code == 404
    missing = client.get("/head-to-head/", {"club": a.club.slug, "a": a.pk, "b": "ghost"})
    assert missing.status_code == 404 and "ghost" in missing.content.decode()
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.pk, "b": a.pk}).status_code == 400
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.pk, "b": a.slug}).status_code == 400
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.pk, "b": ""}).status_code == 404


def test_head_to_head_takes_an_old_links_slug_only_of_a_player_who_shows_the_full_name(client):
    _, (a, b, _, _) = build_event(2)
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.slug, "b": b.slug}).status_code == 200
    b.name_shown = "hidden"
    b.save(update_fields=["name_shown"])
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.slug, "b": b.slug}).status_code == 404
    assert client.get("/head-to-head/", {"club": a.club.slug, "a": a.slug, "b": b.pk}).status_code == 200


def test_head_to_head_of_two_sides(client):
    _, (a, b, c, d) = build_event(3)  # games 1 and 3: A+C against B+D
    response = client.get("/head-to-head/", {"club": a.club.slug, "a": f"{a.pk},{c.pk}",
                                             "b": f"{b.pk}, {d.pk}"})
    assert response.status_code == 200
    assert response.context["result"]["games"] == 2


def test_leaderboard_lists_only_players_with_enough_games(client, settings):
    event, players = build_event(2)
    settings.ANALYTICS_LEADERBOARD_MIN_GAMES = 3
    assert players[0].name not in client.get("/leaderboard/").content.decode()
    settings.ANALYTICS_LEADERBOARD_MIN_GAMES = 2
    page = client.get("/leaderboard/", {"club": event.club.slug}).content.decode()
    assert all(p.name in page for p in players)


def test_season_standings_fragment_and_csv(client):
    season = SeasonFactory()
    event, _ = build_event(1, club=season.league.club, season=season)
    standings_services.event_recompute(event_id=event.pk)
    fragment = client.get(f"/seasons/{season.pk}/standings/", headers={"X-Requested-With": "fetch"})
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
    rows = list(csv.DictReader(io.StringIO(
        client.get(f"/seasons/{season.pk}/standings.csv").content.decode())))
    assert len(rows) == 4
    # The score column is named as the season page names it, for nights scored by match points.
    assert list(rows[0]) == ["Place", "Name", "Nights", "Nights counted", "Match points",
                             "Total points"]
    assert client.get("/seasons/999999/standings/").status_code == 404


class TestWhatIf:
    def url(self, event):
        return f"/events/{event.slug}/what-if/"

    def test_outsider_and_scorer_are_refused_director_allowed(self, client):
        event, _ = build_event(1)
        assert client.get(self.url(event)).status_code == 403
        client.force_login(UserFactory())
        assert client.get(self.url(event)).status_code == 403
        client.force_login(MembershipFactory(club=event.club, role="scorer").user)
        assert client.get(self.url(event)).status_code == 403
        client.force_login(MembershipFactory(club=event.club, role="director").user)
        assert client.get(self.url(event)).status_code == 200

    def test_private_event_is_404_for_outsiders(self, client):
        event, _ = build_event(1, is_public=False)
        client.force_login(UserFactory())
        assert client.get(self.url(event)).status_code == 404

    def test_rescoring_from_parts_applies_new_bonuses(self, client):
        event, _ = build_event(1, scoring="total_points")
        client.force_login(MembershipFactory(club=event.club, role="director").user)
        response = client.get(self.url(event), {"preset": event.rules_preset,
                                                "overrides": '{"going_out_bonus": 0}'})
        assert response.status_code == 200
        result = response.context["result"]
        assert result.rescored_from_parts and not result.rescored_from_logs
        rules = PRESETS[event.rules_preset]
        # Round 1: side 0 had 1 clean book and went out; round 2: side 1 had 2 clean books.
        totals = sorted({r["total_points"] for r in result.rows})
        assert totals == sorted({rules.book_bonus.clean, 2 * rules.book_bonus.clean + 0})
        assert not result.notes  # a scoring-only change is exact

    def test_bad_overrides_are_explained(self, client):
        event, _ = build_event(1)
        client.force_login(MembershipFactory(club=event.club, role="director").user)
        for overrides in ("{not json", "[1]", '{"no_such_rule": 1}'):
            response = client.get(self.url(event), {"preset": "classic", "overrides": overrides})
            assert response.status_code == 400
            assert response.context["error"]
        assert client.get(self.url(event), {"preset": "nonsense"}).status_code == 400

    def test_penalty_changes_are_flagged_as_approximate(self, client):
        event, _ = build_event(1)
        client.force_login(MembershipFactory(club=event.club, role="director").user)
        response = client.get(self.url(event), {"preset": "classic",
                                                "overrides": '{"black_three_penalty": 50}'})
        notes = list(response.context["result"].notes.values())
        assert notes and "held points" in notes[0][0]
        assert f"{event.name}, rotation 1, table 1: held points" in response.content.decode()


class TestApi:
    def test_event_standings(self, api_client):
        event, _ = build_event(1)
        data = api_client.get(f"/api/standings/events/{event.slug}/").json()
        assert data["games"] == 1 and len(data["rows"]) == 4

    def test_private_event_is_not_found(self, api_client):
        event, _ = build_event(1, is_public=False)
        response = api_client.get(f"/api/standings/events/{event.slug}/")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "NOT_FOUND"

    def test_leaderboard_ratings_and_statistics(self, api_client):
        event, players = build_event(3)
        board = api_client.get("/api/ratings/leaderboard/", {"club": event.club.slug}).json()
        assert len(board["results"]) == 4 and board["results"][0]["rank"] == 1
        assert api_client.get("/api/ratings/leaderboard/", {"min_games": "x"}).status_code == 400
        p = players[0]
        assert {row["player"] for row in board["results"]} == {q.pk for q in players}
        ratings = api_client.get(f"/api/ratings/players/{p.pk}/").json()
        assert ratings["player"] == p.pk and ratings["club"] == p.club.slug
        assert len(ratings["history"]) == 3 and ratings["rating"]["games"] == 3
        stats = api_client.get(f"/api/statistics/players/{p.pk}/").json()
        assert stats["player"] == p.pk and stats["statistics"]["games"] == 3 and stats["partners"]
        assert {row["partner"] for row in stats["partners"]} <= {q.pk for q in players}
        assert api_client.get("/api/ratings/players/999999/").json()["error"]["code"] == "NOT_FOUND"

    @pytest.mark.parametrize("shown", ["full", "initial", "hidden"])
    def test_an_old_address_by_slug_moves_to_the_number_only_while_the_name_shows_in_full(
            self, api_client, shown):
        _, players = build_event(1)
        p = players[0]
        Player.objects.filter(pk=p.pk).update(name_shown=shown)
        for what, name in (("ratings", "api-player-ratings"), ("statistics", "api-player-statistics")):
            answer = api_client.get(f"/api/{what}/players/{p.club.slug}/{p.slug}/")
            if shown == "full":
                assert answer.status_code == 301
                assert answer["Location"] == reverse(name, args=[p.pk])
            else:
                assert answer.status_code == 404 and p.slug not in answer.content.decode()
                assert answer.json()["error"]["code"] == "NOT_FOUND"

    def test_the_player_list_gives_a_slug_only_with_the_full_name_except_to_directors(
            self, api_client):
        event, players = build_event(1)
        Player.objects.filter(pk=players[0].pk).update(name_shown="initial")
        Player.objects.filter(pk=players[1].pk).update(name_shown="hidden", name="Zora Quill")
        listed = api_client.get("/api/players/", {"club": event.club.pk}).json()["results"]
        assert [row["id"] for row in listed] == sorted(p.pk for p in players)  # by number
        slugs = {row["id"]: row["slug"] for row in listed}
        assert slugs[players[0].pk] is None and slugs[players[1].pk] is None
        assert slugs[players[2].pk] == players[2].slug
        hidden_name = "quill"
        assert api_client.get("/api/players/", {"name": hidden_name}).json()["results"] == []
        director = MembershipFactory(club=event.club).user
        api_client.force_authenticate(director)
        listed = api_client.get("/api/players/", {"club": event.club.pk}).json()["results"]
        assert {row["id"]: row["slug"] for row in listed} == {p.pk: p.slug for p in players}
        found = api_client.get("/api/players/", {"name": hidden_name}).json()["results"]
        assert [row["id"] for row in found] == [players[1].pk]

    def test_season_standings(self, api_client):
        season = SeasonFactory()
        assert api_client.get(f"/api/standings/seasons/{season.pk}/").json()["rows"] == []


def test_season_whatif_rescores_every_night_for_directors_only(client):
    season = SeasonFactory()
    event, _ = build_event(1, club=season.league.club, season=season, scoring="total_points")
    url = f"/seasons/{season.pk}/what-if/"
    client.force_login(MembershipFactory(club=season.league.club, role="scorer").user)
    assert client.get(url).status_code == 403
    client.force_login(MembershipFactory(club=season.league.club, role="director").user)
    response = client.get(url, {"preset": "classic", "overrides": '{"going_out_bonus": 0}'})
    assert response.status_code == 200
    result = response.context["result"]
    assert len(result.rescored_from_parts) == 1
    assert [r["nights"] for r in result.rows] == [1, 1, 1, 1]
    clean = PRESETS["classic"].book_bonus.clean
    assert sorted({r["total_points"] for r in result.rows}) == [clean, 2 * clean]


def test_season_leaderboard_and_partnership_queries_do_not_grow(client):
    sizes = []
    for games in (1, 6):
        season = SeasonFactory()
        _, players = build_event(games, club=season.league.club, season=season)
        standings_services.event_recompute(event_id=season.events.first().pk)
        club = season.league.club
        sizes.append([
            queries_for(client, f"/seasons/{season.pk}/standings/"),
            queries_for(client, f"/leaderboard/?club={club.slug}"),
            queries_for(client, f"/clubs/{club.slug}/partnerships/{players[0].pk}/{players[2].pk}/"),
            queries_for(client, f"/head-to-head/?club={club.slug}&a={players[0].pk}&b={players[1].pk}"),
        ])
    assert sizes[0] == sizes[1]
    assert max(sizes[1]) < 20


def test_csv_keeps_formula_like_names_as_text(client):
    event, players = build_event(1)
    players[0].name = "=HYPERLINK(1)"
    players[0].save()
    standings_services.event_recompute(event_id=event.pk)
    body = client.get(f"/events/{event.slug}/standings.csv").content.decode()
    assert "'=HYPERLINK(1)" in body
    assert ",=HYPERLINK" not in body


def test_head_to_head_by_name_pickers_lists_the_games(client):
    _, (a, b, c, d) = build_event(3)  # games 1 and 3: A+C against B+D
    page = client.get("/head-to-head/", {"club": a.club.slug, "a1": a.pk, "a2": c.pk,
                                         "b1": b.pk, "b2": d.pk})
    text = page.content.decode()
    assert page.status_code == 200 and page.context["result"]["games"] == 2
    assert len(page.context["games"]) == 2 and "Their games, newest first" in text
    assert f'<option value="{a.pk}" selected>{a.name}</option>' in text


def test_head_to_head_is_in_the_navigation_and_picks_the_only_club(client):
    _, (a, _, _, _) = build_event(1)
    page = client.get("/head-to-head/").content.decode()
    assert '<a href="/head-to-head/">Head to head</a>' in page
    assert f"<option value=\"{a.pk}\">{a.name}</option>" in page


def test_games_csv_lists_every_round_of_every_side_by_name(client):
    event, players = build_event(2)
    response = client.get(f"/events/{event.slug}/games.csv")
    lines = response.content.decode().splitlines()
    assert lines[0] == ("Rotation,Table,Round,Side,Players,Score,Went out,Clean books,Dirty books,"
                        "Wild books,Red 3s,Points left in hand,Game total")
    assert len(lines) == 1 + 2 * 2 * 2  # two games, two rounds, two sides
    first = lines[1].split(",")
    assert first[:5] == ["1", "1", "1", "1", f"{players[0].name} & {players[2].name}"]
    assert first[5] == "100" and first[-1] == "300"


def test_printed_standings_carry_club_event_and_date(client):
    event, _ = build_event(1)
    text = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert f'<p class="print-header">{event.club.name} &middot; {event.name} &middot; ' in text
    assert event.date.strftime("%B %Y").lstrip("0") in text


def test_a_polled_fragment_is_not_modified_until_a_result_changes_it(client):
    """live-refresh.js asks every second with the last ETag: 304 and no body while nothing
    changed, the new fragment as soon as the standings are recomputed."""
    event, players = build_event(1)
    url, fetch = f"/events/{event.slug}/standings/", {"X-Requested-With": "fetch"}
    first = client.get(url, headers=fetch)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, headers={**fetch, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    confirm(make_game(event=event, players=players, rotation_number=2), [[300, 0], [100, 0]])
    standings_services.event_recompute(event_id=event.pk)
    changed = client.get(url, headers={**fetch, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.content != first.content


def test_a_polled_season_fragment_is_not_modified_while_unchanged(client):
    season = SeasonFactory()
    build_event(1, club=season.league.club, season=season)
    url, fetch = f"/seasons/{season.pk}/standings/", {"X-Requested-With": "fetch"}
    first = client.get(url, headers=fetch)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    assert client.get(url, headers={**fetch, "If-None-Match": first["ETag"]}).status_code == 304
    assert client.get(url, headers={**fetch, "If-None-Match": '"other"'}).status_code == 200


def _recent(response) -> list[tuple]:
    return [(g["event"].pk, g["rotation"], g["table"], g["own"], g["best_other"], g["result"],
             g["note"]) for g in response.context["recent_games"]]


def _figures(response) -> dict:
    context = response.context
    return {"recent": _recent(response), "dashboard": context["dashboard"],
            "stats": context["stats"], "stat_rows": context["stat_rows"],
            "rating": (context["rating"].pk, context["rating"].ordinal, context["rating"].games),
            "partners": [(p.pk, p.shown_name, p.slug, data) for p, data in context["partners"]],
            "partners_table": str(context["partners_table"])}


def test_player_page_not_signed_in_shows_what_a_director_sees_of_public_games_and_no_private_one(
        client):
    """Not signed in, the page's reads are compiled once (`core.compiled_query`): they give the
    recent games, charts and figures a signed-in viewer's querysets give for the same events,
    and a private night's game never."""
    import datetime

    from league.models import Seat

    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(6)]
    ann, substitute = players[0], PlayerFactory(club=club, name="Sam Substitute")
    older = EventFactory(club=club, date=datetime.date(2026, 10, 1), name="Older night")
    newer = EventFactory(club=club, date=datetime.date(2026, 11, 1), name="Newer night")
    private = EventFactory(club=club, date=datetime.date(2026, 12, 1), name="Secret night",
                           is_public=False)
    for number in range(1, 7):  # twelve public games: more than the page lists
        for event in (older, newer):
            order = players[:4] if number % 2 else [players[0], players[2], players[1], players[3]]
            confirm(make_game(event=event, players=order, rotation_number=number),
                    [[100 * number, 150], [50, 10 * number]])
    three_sides = make_game(event=newer, players=players, rotation_number=7, sides=3)
    confirm(three_sides, [[300, 420, 380], [10, -20, 5]])  # ann's side 310, best other 400
    subbed = make_game(event=newer, players=[substitute, *players[1:4]], rotation_number=8)
    Seat.objects.filter(table__game=subbed, player=substitute).update(substitute_for=ann)
    confirm(subbed, [[500, 500]])  # a tie, played for ann
    confirm(make_game(event=private, players=players[:4]), [[7385, 4620]])
    for event in (older, newer, private):
        standings_services.event_recompute(event_id=event.pk)
    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)
    url = ann.get_absolute_url()

    anonymous = client.get(url)
    client.force_login(MembershipFactory(role="director").user)  # of another club: public only
    outsider = client.get(url)
    client.force_login(MembershipFactory(club=club, role="director").user)
    director = client.get(url)

    shown = _figures(anonymous)
    assert shown == _figures(outsider)
    assert len(shown["recent"]) == 10
    assert shown["recent"][:2] == [(newer.pk, 8, 1, 500, 500, "tie",
                                    f"played by {substitute.shown_name} for {ann.shown_name}"),
                                   (newer.pk, 7, 1, 310, 400, "loss", "")]
    assert {event for event, *_ in shown["recent"]} == {older.pk, newer.pk}
    # The club's director also sees the private night's game, first (the newest); the public
    # ones follow as the page not signed in lists them.
    seen = _recent(director)
    assert seen[0] == (private.pk, 1, 1, 7385, 4620, "win", "")
    assert seen[1:] == shown["recent"][:9]
    page = anonymous.content.decode()
    assert "Secret night" not in page and "7385" not in page
    assert "Secret night" in director.content.decode()
    assert "7385" in director.content.decode()  # in the score distribution


def test_unknown_player_is_404_signed_in_or_not(client):
    club = ClubFactory()
    PlayerFactory(club=ClubFactory(), slug="ann")
    assert client.get(f"/players/{club.slug}/ann/").status_code == 404
    client.force_login(UserFactory())
    assert client.get(f"/players/{club.slug}/ann/").status_code == 404


def test_player_page_without_games_or_with_private_statistics_is_alike_signed_in_or_not(client):
    _, players = build_event(1)
    newcomer = PlayerFactory(club=players[0].club, name="New Comer")
    private = players[1]
    private.stats_public = False
    private.save()
    anonymous = {p.pk: client.get(p.get_absolute_url()) for p in (newcomer, private)}
    client.force_login(MembershipFactory(role="director").user)  # of another club
    outsider = {p.pk: client.get(p.get_absolute_url()) for p in (newcomer, private)}
    first, seen = anonymous[newcomer.pk], outsider[newcomer.pk]
    assert (first.context["stats"], first.context["rating"], first.context["recent_games"],
            first.context["partners"], first.context["dashboard"]) == ({}, None, [], [], [])
    assert (seen.context["stats"], seen.context["rating"], seen.context["recent_games"]) == (
        {}, None, [])
    assert "No confirmed games yet." in first.content.decode()
    for response in (anonymous[private.pk], outsider[private.pk]):
        assert "keeps their statistics private" in response.content.decode()
        assert "stats" not in response.context
