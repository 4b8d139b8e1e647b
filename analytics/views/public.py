"""Standings, player, partnership, head-to-head and leaderboard pages and their CSV downloads.
Pages read stored snapshots and run a fixed number of queries."""

from __future__ import annotations

import csv
import functools
import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from analytics import charts, selectors, whatif
from analytics.handicaps import selectors as handicap_selectors
from analytics.jobs import whatif_event_job, whatif_season_job
from analytics.models import PlayerRating, StandingsSnapshot
from analytics.ratings.compute import pair_rating, rating_reliability, shown_margin, shown_rating
from analytics.views.page_cache import (
    cached_response,
    event_version_row,
    page_key,
    printed_minute,
    row_fields,
    shared_variant,
)
from handfoot.rules import ENTERED_PARTS
from jobs.models import Job
from jobs.selectors import job_progress
from league.models import Club, Event, Player, Season
from league.permissions import check_can_view_event, check_directs_club, is_director
from league.time_zones import club_zone_activate

STANDINGS_COLUMNS = {
    "total_points": ["rank", "name", "games", "wins", "ties", "losses", "total_points",
                     "point_difference", "held_points"],
    "match_points": ["rank", "name", "games", "wins", "ties", "losses", "match_points",
                     "total_points", "point_difference", "held_points"],
    "victory_points": ["rank", "name", "games", "wins", "ties", "losses", "victory_points",
                       "total_points", "point_difference", "held_points"],
}
SEASON_COLUMNS = ["rank", "name", "nights", "counted_nights", "score", "total_points"]
RECENT_GAMES = 10
# How often an open standings page asks for its fragment (a 304 while nothing changed).
STANDINGS_REFRESH_SECONDS = 1
PARTNERS_TABLE_SECONDS = 24 * 3600

log = logging.getLogger(__name__)


def _csv_cell(value: object) -> object:
    """Empty for None; whole figures as integers, others to two places at most; text a
    spreadsheet would run as a formula (a name like "=1+1") is quoted so it stays text."""
    if value is None:
        return ""
    if isinstance(value, float):  # a whole figure as a whole number (10240, not 10240.0)
        return int(value) if value.is_integer() else round(value, 2)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


# The CSV headers in the pages' words (a column without an entry is named from its key).
CSV_HEADERS = {
    "rank": "Place", "name": "Name", "games": "Games", "wins": "Won", "ties": "Tied",
    "losses": "Lost", "match_points": "Match points", "victory_points": "Victory points",
    "total_points": "Total points", "point_difference": "Point difference",
    "held_points": "Points left in hand", "nights": "Nights", "counted_nights": "Nights counted",
    "score": "Score", "rotation": "Rotation", "table": "Table", "round": "Round",
    "side": "Side", "players": "Players", "game_total": "Game total",
    # the parts a scorer writes, in the sheet's words
    **{part.name: part.words for part in ENTERED_PARTS},
}


def csv_header(column: str) -> str:
    return CSV_HEADERS.get(column, column.replace("_", " ").capitalize())


def _csv_response(filename: str, columns: Sequence[str], rows: Iterable[dict],
                  headers: dict[str, str] | None = None) -> HttpResponse:
    """`headers` names columns as the page names them where the words depend on the data."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([(headers or {}).get(c) or csv_header(c) for c in columns])
    for row in rows:
        writer.writerow([_csv_cell(row.get(c)) for c in columns])
    return response


def _is_fragment(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or "fragment" in request.GET


def _event_or_404(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    check_can_view_event(request.user, event)
    club_zone_activate(event.club)
    return event


def _player_or_404(club: str, pk: int) -> Player:
    """The player with their club, statistics and rating read along (`selectors.player_by_pk`)."""
    player = selectors.player_by_pk(club=club, pk=pk)
    if player is None:  # as get_object_or_404 answers
        raise Http404(translation.gettext("No %s matches the given query.") % Player._meta.object_name)
    club_zone_activate(player.club)
    return player


def _stats_shown(request: HttpRequest, player: Player) -> bool:
    """A player's statistics are public unless they chose otherwise; they themself and the
    club's directors see them anyway."""
    return (player.stats_public or (request.user.is_authenticated and (
        player.user_id == request.user.pk or is_director(request.user, player.club_id))))


@require_safe
def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    fragment = _is_fragment(request)
    if fragment or shared_variant(request):  # the page: everyone not signed in alike
        # The version in one query; the event is read only when the page is drawn.
        kind, draw = (("event-standings", event_standings_fragment) if fragment
                      else ("event-standings-page", _event_standings_page))
        key = page_key(kind, event_version_row(user=request.user, slug=slug), printed_minute())
        return cached_response(request, key, lambda: draw(request, slug))
    return HttpResponse(_event_standings_page(request, slug))


def _event_standings_page(request: HttpRequest, slug: str) -> str:
    event = _event_or_404(request, slug)
    context = {**_event_standings_context(event), "refresh_seconds": STANDINGS_REFRESH_SECONDS,
               "live": event.status == Event.Status.RUNNING}
    return render_to_string("analytics/event_standings.html", context, request)


def event_standings_fragment(request: HttpRequest, slug: str) -> str:
    """The standings fragment the event's pages poll, drawn now for this viewer (uncached)."""
    return render_to_string("analytics/_event_standings.html",
                            _event_standings_context(_event_or_404(request, slug)), request)


def _event_standings_context(event: Event) -> dict:
    return {"event": event, "standings": selectors.event_standings(event=event),
            "handicapped": handicap_selectors.event_handicapped(event=event),
            "columns": STANDINGS_COLUMNS.get(event.scoring, STANDINGS_COLUMNS["match_points"])}


@require_safe
def event_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event_or_404(request, slug)
    snapshot = selectors.event_standings(event=event)
    columns = STANDINGS_COLUMNS.get(event.scoring, STANDINGS_COLUMNS["match_points"])
    return _csv_response(f"{event.slug}-standings.csv", columns, snapshot.rows if snapshot else [])


@require_safe
def event_games_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The night's games round by round: one row per side and round."""
    event = _event_or_404(request, slug)
    return _csv_response(f"{event.slug}-games.csv", selectors.game_round_columns(event=event),
                         selectors.event_game_rounds(event=event))


def _season_or_404(season_id: int) -> Season:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=season_id)
    club_zone_activate(season.league.club)
    return season


@require_safe
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season_or_404(season_id)
    computed_at = (StandingsSnapshot.objects.filter(season=season)
                   .values_list("computed_at", flat=True).first())
    fragment = _is_fragment(request)
    kind = "season-standings-fragment" if fragment else "season-standings"
    key = page_key(kind, row_fields(season), row_fields(season.league),
                   row_fields(season.league.club), computed_at)

    def draw() -> str:
        context = {"season": season, "standings": selectors.season_standings(season=season)}
        if fragment:
            return render_to_string("analytics/_season_standings.html", context, request)
        return render_to_string("analytics/season_standings.html", context, request)

    if fragment or shared_variant(request):
        return cached_response(request, key, draw)
    return HttpResponse(draw())


@require_safe
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season_or_404(season_id)
    snapshot = selectors.season_standings(season=season)
    # The score column as the season page names it ("Match points" when its nights are scored
    # by match points), not "Score".
    return _csv_response(f"{season.league.slug}-{season.slug}-standings.csv", SEASON_COLUMNS,
                         snapshot.rows if snapshot else [], headers={"score": season.score_label})


@functools.cache
def _partners_template_digest() -> str:
    """The partners table's template, as part of its cache key: a new release with a changed
    template never serves the old markup from the cache."""
    # The project's one template engine is Django's (settings.TEMPLATES), whose templates
    # carry their source; get_template is typed for any engine.
    template = cast(DjangoTemplate, get_template("analytics/_partners_table.html"))
    source = template.template.source
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def _partners_table(player: Player, partners: list[tuple[selectors.Partner, dict]]) -> SafeString:
    """The player page's partners table (a player may have hundreds of partners: half of the
    page's time went into rendering it). Cached under a digest of everything it shows, so a
    changed figure or name is another key: never stale. Without the cache it is rendered."""
    shown = [_partners_template_digest(), translation.get_language(), player.club.slug,
             player.slug, player.shown_name,
             [(p.pk, p.shown_name, p.slug, data) for p, data in partners]]
    digest = hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()
    key = f"analytics:partners-table:{digest}"
    try:
        html = cache.get(key)
    except Exception:  # Redis down: render it
        log.warning("cache unavailable for the partners table", exc_info=True)
        html = None
    if html is None:
        html = render_to_string("analytics/_partners_table.html",
                                {"player": player, "partners": partners})
        try:
            cache.set(key, html, timeout=PARTNERS_TABLE_SECONDS)
        except Exception:
            log.warning("cache unavailable for the partners table", exc_info=True)
    # Rendered above by an autoescaping template (or cached from one): safe to insert as is.
    return SafeString(html)  # nosec B703, B308


def _rating_words(player: Player, rating: PlayerRating | None,
                  partners: list[tuple[selectors.Partner, dict]]) -> dict[str, object]:
    """How sure the player's rating is, in words, and the pair's joint figure when the player
    has only ever played with one partner who never played without them."""
    if rating is None:
        return {}
    words: dict[str, object] = {"reliability": rating_reliability(
        sigma=rating.sigma, games=rating.games,
        nights=selectors.player_rated_nights(player=player))}
    pair = selectors.inseparable_partner(player=player, rating=rating, partners=partners)
    if pair is not None:
        partner, theirs = pair
        mu, sigma = pair_rating((rating.mu, theirs.mu), (rating.sigma, theirs.sigma))
        words["pair"] = {"partner": partner, "rating": f"{shown_rating(mu):,}",
                         "margin": f"±{shown_margin(sigma):,}"}
    return words


@require_safe
def player_detail(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    player = _player_or_404(club, pk)
    if not _stats_shown(request, player):
        return render(request, "analytics/player_private.html", {"player": player})
    viewer = request.user
    stats = selectors.player_stats(player=player)
    rating = selectors.player_rating(player=player)
    history = selectors.rating_history(player=player)
    partners = selectors.player_partners(player=player)
    dashboard = []
    if history:
        dashboard.append(charts.rating_over_time(history))
    if stats:
        dashboard += [
            charts.score_distribution(selectors.player_game_totals(player=player, viewer=viewer)),
            charts.round_averages(stats),
            charts.books_by_type(stats),
        ]
    if partners:
        dashboard.append(charts.partner_heat_map([(p.shown_name, data) for p, data in partners]))
    context = {
        "player": player, "stats": stats, "rating": rating, "partners": partners,
        **_rating_words(player, rating, partners),
        "recent_games": selectors.recent_games(player=player, limit=RECENT_GAMES, viewer=viewer),
        "score_only": selectors.score_only_record(player=player, viewer=viewer),
        "dashboard": dashboard, "stat_rows": selectors.stat_rows(stats=stats),
        "partners_table": _partners_table(player, partners) if partners else "",
    }
    return render(request, "analytics/player.html", context)


@require_safe
def player_stats_csv(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    player = _player_or_404(club, pk)
    if not _stats_shown(request, player):
        raise Http404("No such statistics")
    # Rates as the pages show them (67%), never as a fraction (0.67).
    rows = [{"statistic": label,
             "value": f"{round(value * 100)}%" if is_rate and isinstance(value, int | float) else value}
            for label, value, is_rate in selectors.stat_rows(stats=selectors.player_stats(player=player))]
    return _csv_response(f"player-{player.pk}-stats.csv", ["statistic", "value"], rows)


@require_safe
def partnership_detail(request: HttpRequest, club: str, pk_a: int, pk_b: int) -> HttpResponse:
    players = {p.pk: p for p in Player.objects.select_related("club")
               .filter(club__slug=club, pk__in=[pk_a, pk_b])}
    if pk_a == pk_b or len(players) != 2:
        raise Http404("No such pair of players.")
    a, b = players[pk_a], players[pk_b]
    data = selectors.partnership_stats(a=a, b=b)
    context = {"club": a.club, "a": a, "b": b, "stats": data,
               "stat_rows": selectors.stat_rows(stats=data)}
    return render(request, "analytics/partnership.html", context)


def _old_address(club: str, slugs: Sequence[str], name: str) -> HttpResponse:
    """An old address by slug (by name): moved for good to the address by number while every
    player in it shows their full name; 404 otherwise, as for no such player."""
    players = [selectors.player_by_old_slug(club=club, slug=slug) for slug in slugs]
    if not all(players):
        raise Http404(translation.gettext("No %s matches the given query.") % Player._meta.object_name)
    return HttpResponsePermanentRedirect(
        reverse(name, args=[club, *(p.pk for p in players if p is not None)]))


@require_safe
def player_detail_by_slug(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _old_address(club, [slug], "player-detail")


@require_safe
def player_stats_csv_by_slug(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _old_address(club, [slug], "player-stats-csv")


@require_safe
def partnership_detail_by_slugs(request: HttpRequest, club: str, slug_a: str,
                                slug_b: str) -> HttpResponse:
    return _old_address(club, [slug_a, slug_b], "partnership-detail")


def _side_keys(raw: str) -> list[str]:
    return [key.strip() for key in raw.split(",") if key.strip()]


def _side(request: HttpRequest, name: str) -> list[str]:
    """A side from the pickers (`a1`, `a2`) or a comma-separated list (`a`): players by number
    (an old link's slug still works for a player who shows their full name)."""
    picked = [request.GET.get(f"{name}{n}", "").strip() for n in (1, 2)]
    return _side_keys(request.GET.get(name, "")) or [key for key in picked if key]


def _side_players(club: Club, keys: list[str]) -> dict[str, Player]:
    """The club's players named by `keys`: numbers, or slugs of players who show their full
    name (a slug never finds a player who hides it)."""
    numbers = [int(k) for k in keys if k.isascii() and k.isdigit() and len(k) < 12]
    found = Player.objects.filter(club=club).filter(
        Q(pk__in=numbers) | Q(slug__in=keys, name_shown=Player.NameShown.FULL))
    by_key = {}
    for player in found:
        by_key[str(player.pk)] = player
        if player.name_shown == Player.NameShown.FULL:
            by_key[player.slug] = player
    return {k: by_key[k] for k in keys if k in by_key}


@require_safe
def head_to_head(request: HttpRequest) -> HttpResponse:
    """Two players or two sides of one club, chosen by name, with their games."""
    clubs = list(Club.objects.order_by("name"))
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    if club is None and len(clubs) == 1 and not request.GET.get("club"):
        club = clubs[0]
    side_a, side_b = _side(request, "a"), _side(request, "b")
    context: dict = {"club": club, "clubs": clubs, "result": None, "error": None,
                     "players": club.players.order_by("name") if club else [],
                     "chosen": {"a1": (side_a + [""])[0], "a2": (side_a + ["", ""])[1],
                                "b1": (side_b + [""])[0], "b2": (side_b + ["", ""])[1]}}
    asked = any(request.GET.get(k) for k in ("a", "b", "a1", "b1"))
    if club is None:
        context["error"] = "Choose a club." if request.GET.get("club") else None
        return render(request, "analytics/head_to_head.html", context,
                      status=404 if request.GET.get("club") else 200)
    if not asked:
        return render(request, "analytics/head_to_head.html", context)
    players = _side_players(club, side_a + side_b)
    missing = [s for s in side_a + side_b if s not in players] or (
        [] if side_a and side_b else ["(empty)"])
    if missing:
        context["error"] = "Pick two players (or two sides) of the club; not found: " + ", ".join(missing)
        return render(request, "analytics/head_to_head.html", context, status=404)
    a, b = [players[s] for s in side_a], [players[s] for s in side_b]
    context["chosen"] = {f"{side}{n}": str(team[n - 1].pk) if len(team) >= n else ""
                         for side, team in (("a", a), ("b", b)) for n in (1, 2)}
    if {p.pk for p in a} & {p.pk for p in b}:
        context["error"] = "A player cannot be on both sides."
        return render(request, "analytics/head_to_head.html", context, status=400)
    result = selectors.head_to_head(club_id=club.pk, a={p.pk for p in a}, b={p.pk for p in b},
                                    viewer=request.user)
    context.update(a=a, b=b, single=len(a) == len(b) == 1, result=result,
                   games=selectors.head_to_head_games(game_ids=result["game_ids"],
                                                      a={p.pk for p in a}))
    return render(request, "analytics/head_to_head.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    min_games = selectors.leaderboard_min_games()
    context = {"club": club, "min_games": min_games, "clubs": Club.objects.all(),
               "ratings": selectors.leaderboard(club_id=club.pk if club else None, min_games=min_games)}
    return render(request, "analytics/leaderboard.html", context)


def _whatif_spec(request: HttpRequest, default_preset: str) -> tuple[object | None, str | None]:
    """The rule set asked for (preset + overrides JSON) or an error message."""
    import json

    preset = request.GET.get("preset", default_preset)
    raw = request.GET.get("overrides", "").strip()
    if not raw:
        return preset, None
    try:
        overrides = json.loads(raw)
    except json.JSONDecodeError as error:
        return None, f"House rules must be a JSON object, e.g. {{\"going_out_bonus\": 200}}: {error.msg}."
    if not isinstance(overrides, dict):
        return None, "House rules must be a JSON object of parameter: value."
    return {"preset": preset, "overrides": overrides}, None


def _whatif_page(request: HttpRequest, *, club: Club, default_preset: str,
                 start: Callable[[object], Job], context: dict) -> HttpResponse:
    """The what-if form and, once submitted, the re-scoring job `start(spec)` asks for: its
    progress bar while it runs, the re-scored standings when it is done (directors only)."""
    from handfoot.errors import EngineError
    from handfoot.rules import PRESETS

    check_directs_club(request.user, club)
    context.update(presets=list(PRESETS), result=None, error=None, progress=None,
                   preset=request.GET.get("preset", default_preset),
                   overrides=request.GET.get("overrides", ""))
    if "preset" in request.GET:
        spec, error = _whatif_spec(request, default_preset)
        if error is None:
            try:
                job = start(spec)
            except EngineError as engine_error:
                error = engine_error.message
            else:
                if job.status == Job.Status.DONE and job.result is not None:
                    context["result"] = whatif.whatif_from_json(job.result)
                else:
                    context["progress"] = job_progress(job=job)
        context["error"] = error
    return render(request, "analytics/whatif.html", context, status=400 if context["error"] else 200)


@require_safe
def event_whatif(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event_or_404(request, slug)
    context = {"event": event, "standings": selectors.event_standings(event=event),
               "columns": STANDINGS_COLUMNS.get(event.scoring, STANDINGS_COLUMNS["match_points"])}
    return _whatif_page(request, club=event.club, default_preset=event.rules_preset,
                        start=lambda spec: whatif_event_job(event=event, rules_spec=spec), context=context)


@require_safe
def season_whatif(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season_or_404(season_id)
    context = {"season": season, "standings": selectors.season_standings(season=season)}
    return _whatif_page(request, club=season.league.club, default_preset="classic",
                        start=lambda spec: whatif_season_job(season=season, rules_spec=spec), context=context)
