"""Demo data, built through the same services the pages use, so every demo result is a legal game
from the engine's simulator that went through intake, confirmation and the analytics jobs.

The content (players, seating, every game and score) comes from fixed seeds and is the same on
every day; only the dates are placed relative to today (`demo_today`, which the environment
variable HANDFOOT_TODAY=YYYY-MM-DD overrides). League nights fall on the league's weekday and are
numbered forwards in time.

Used by `python manage.py demo` (the run command), `make screenshots` and the browser tests.
"""

import datetime
import functools
import json
import math
import os
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone

from analytics.tasks import recompute_held
from games import services as results
from games.models import ResultVersion, Submission
from games.selectors.tables import event_rules
from handfoot.checking import check_document
from handfoot.formats import SHEET_FORMAT
from handfoot.rules import ENTERED_PARTS
from handfoot.simulate import simulate_game
from league import services as league
from league.models import Club, Event, Game, Membership, Player, Rotation, Season
from league.services._common import unique_slug
from league.time_zones import night_start

DEMO_CLUB_SLUG = "riverside-card-club"
DIRECTOR_USERNAME = "director"
# The demo's published sign-in (README), not a secret.
DIRECTOR_PASSWORD = "handfoot-demo"  # nosec B105
SCORER_USERNAME = "scorer"
TODAY_VARIABLE = "HANDFOOT_TODAY"
LEAGUE_WEEKDAY = 1  # Tuesday (Monday is 0), as the club's description says
TOURNAMENT_WEEKDAY = 5  # Saturday
# Every seed is fixed (events 100 apart; a game adds 10 per rotation and its table number), so the
# content is the same on every day.
SEED = 1_000
# A finished night's times (issue 47's forecast learns the club's pace from them): from 19:00 in
# the club's zone, a table's rounds 20-45 minutes around its own pace, a few minutes to seat the
# next rotation once the last table is done.
NIGHT_FROM = datetime.time(19, 0)
DAY_FROM = datetime.time(10, 0)  # a tournament's first rotation
ROUND_MINUTES = (20.0, 45.0)

PLAYER_NAMES = (
    "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra",
    "Barbara Liskov", "Donald Knuth", "Frances Allen", "John Backus",
    "Margaret Hamilton", "Ken Thompson", "Radia Perlman", "Dennis Ritchie",
    "Katherine Johnson", "Tim Berners-Lee", "Hedy Lamarr", "Niklaus Wirth",
)


@dataclass
class Demo:
    club: Club
    season: Season
    event: Event
    players: list[Player]
    director_username: str
    games: int = 0


def demo_today() -> datetime.date:
    """Today, or the date in HANDFOOT_TODAY (YYYY-MM-DD) to move the demo's clock."""
    raw = os.environ.get(TODAY_VARIABLE, "").strip()
    if not raw:
        return timezone.localdate()
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError as error:
        raise ImproperlyConfigured(f"{TODAY_VARIABLE}={raw!r} is not a date (YYYY-MM-DD).") from error


def weekday_on_or_before(day: datetime.date, weekday: int) -> datetime.date:
    return day - datetime.timedelta(days=(day.weekday() - weekday) % 7)


def sheets_from_report(report: dict) -> list[dict]:
    """One score sheet per round with the figures the engine found in a move log."""
    fields = [part.name for part in ENTERED_PARTS]
    return [
        {
            "format": SHEET_FORMAT,
            "round": r["round"],
            "ended_by": r["ended_by"],
            "sides": [{f: side[f] for f in fields} for side in r["sides"]],
        }
        for r in report["rounds"]
    ]


@functools.lru_cache(maxsize=256)
def _simulated_log(rules: str, players: int, seed: int, first_dealer: int) -> str:
    """The simulator's game for these inputs (it is deterministic), kept as text: a demo built
    again in the same process (the browser tests build one each) does not play it again."""
    return json.dumps(simulate_game(rules=json.loads(rules), players=players, seed=seed,
                                    first_dealer=first_dealer))


def play_game(game: Game, seed: int, as_sheets: bool = False) -> None:
    """Enter a simulated game from side 0 and confirm it from side 1, as one move log or (as a
    club scorer would) as its figures on four score sheets."""
    table = results.game_table(game=game)
    log = json.loads(_simulated_log(json.dumps(table.rules_spec, sort_keys=True),
                                    len(table.players), seed, table.first_dealer))
    log["seats"] = table.players
    documents = sheets_from_report(check_document(log).to_dict()) if as_sheets else [log]
    side_0 = results.Entrant.for_side(game, 0)
    for n, document in enumerate(documents):
        results.submission_create(game=game, document=document, entrant=side_0,
                                  idempotency_key=f"demo-{game.pk}-{n}")
    version = game.result_versions.get()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))


def play_rotation(event: Event, number: int) -> Rotation:
    """Generate, start, play (every table entered and confirmed) and close one rotation. Each
    game's seed comes from the event's seed, the rotation and the table."""
    rotation = league.rotation_start(rotation=league.rotation_generate(event=event))
    for game in Game.objects.filter(table__rotation=rotation).order_by("table__number"):
        # Most tables report on paper; every third one from a scoring app's move log.
        play_game(game, seed=event.seed + number * 10 + game.table.number,
                  as_sheets=game.table.number % 3 != 1)
    return league.rotation_close(rotation=rotation)


def run_event(*, club: Club, players: list[Player], name: str, date: datetime.date, seed: int,
              played_rotations: int, start_next: bool, season: Season | None = None,
              kind: str = Event.Kind.LEAGUE_NIGHT, planned_rotations: int = 3,
              **settings: Any) -> Event:
    """An event with everyone entered and checked in (in pairs of consecutive players for
    fixed partnerships), `played_rotations` rotations played, confirmed and closed, then the
    next rotation started (or the event finished). `settings` go to `event_create`."""
    event = league.event_create(club=club, name=name, date=date, kind=kind, season=season,
                                seed=seed, planned_rotations=planned_rotations, **settings)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    size = 2 if event.is_fixed_partnerships else 1
    for i in range(0, len(players), size):
        registration = league.registration_add_entrant(event=event, players=players[i:i + size])
        league.registration_check_in(registration=registration)
    event = league.event_set_status(event=event, status=Event.Status.RUNNING)
    for number in range(1, played_rotations + 1):
        play_rotation(event, number)
    if start_next:
        league.rotation_start(rotation=league.rotation_generate(event=event))
    else:
        event = league.event_set_status(event=event, status=Event.Status.FINISHED)
        night_timed(event)
    return event


def night_timed(event: Event) -> None:
    """Give a finished night's rotations and entries the times of a real night (the demo plays
    it in a moment; a tournament's day from 10:00): each rotation starts once the last table of the one before is done plus
    3-8 minutes; each table plays at its own pace (0.8-1.25 of 32 minutes a round, each round
    within ROUND_MINUTES); a round's sheet arrives as the round ends (a move log, and the
    other side's confirmation, once the game is over). Seeded by the event's seed."""
    rng = random.Random(event.seed)
    rounds = event_rules(event=event).rounds
    default = NIGHT_FROM if event.kind == Event.Kind.LEAGUE_NIGHT else DAY_FROM
    start = night_start(event, default=default) or timezone.now()
    for rotation in event.rotations.order_by("number"):
        Rotation.objects.filter(pk=rotation.pk).update(started_at=start)
        done = [_game_timed(game, start, rounds, rng)
                for game in Game.objects.filter(table__rotation=rotation).order_by("table__number")]
        start = max(done, default=start) + datetime.timedelta(minutes=rng.uniform(3, 8))


def _game_timed(game: Game, start: datetime.datetime, rounds: int,
                rng: random.Random) -> datetime.datetime:
    """Time one game's entries from `start`; returns when the game was over."""
    pace = rng.uniform(0.8, 1.25)
    ends, at = [], start
    for _round in range(rounds):
        minutes = rng.lognormvariate(math.log(32 * pace), 0.2)
        at += datetime.timedelta(minutes=min(max(minutes, ROUND_MINUTES[0]), ROUND_MINUTES[1]))
        ends.append(at)
    over = ends[-1]
    for submission in Submission.objects.filter(game=game).order_by("created_at", "pk"):
        number = submission.round_number
        when = ends[number - 1] if number is not None and number <= len(ends) else over
        Submission.objects.filter(pk=submission.pk).update(created_at=when)
    confirmed = over + datetime.timedelta(minutes=rng.uniform(1, 3))
    ResultVersion.objects.filter(game=game).update(created_at=over, confirmed_at=confirmed)
    return over


def night_seed(number: int) -> int:
    return SEED + 1000 + 100 * number


def build_demo(*, played_rotations: int = 1, start_next: bool = True, past_nights: int = 0,
               player_count: int = 8, tournament: bool = False,
               today: datetime.date | None = None) -> Demo:
    """A club whose running night (on the league's weekday, today or the latest one before) has
    `played_rotations` played; `past_nights` finished nights in the weeks before fill the
    season; `tournament` adds two finished tournaments before the season and an upcoming one
    open for registration. `today` defaults to `demo_today()`. The analytics are computed once
    at the end, not after every game (what they give is the same)."""
    with recompute_held():
        return _build_demo(played_rotations=played_rotations, start_next=start_next,
                           past_nights=past_nights, player_count=player_count,
                           tournament=tournament, today=today)


def _build_demo(*, played_rotations: int, start_next: bool, past_nights: int, player_count: int,
                tournament: bool, today: datetime.date | None) -> Demo:
    night = weekday_on_or_before(today or demo_today(), LEAGUE_WEEKDAY)
    first_night = night - datetime.timedelta(weeks=past_nights)
    user_model = get_user_model()
    director = user_model.objects.create_user(DIRECTOR_USERNAME, password=DIRECTOR_PASSWORD)
    club = league.club_create(name="Riverside Card Club", director=director,
                              description="Hand and Foot every Tuesday at the library hall.")
    scorer = user_model.objects.create_user(SCORER_USERNAME, password=DIRECTOR_PASSWORD)
    league.membership_add(club=club, user=scorer, role=Membership.Role.SCORER)
    tuesday = league.league_create(club=club, name="Tuesday League")
    season = league.season_create(league=tuesday, name="Season 1", starts_on=first_night,
                                  best_n_nights=8)
    players = [league.player_create(club=club, name=name)
               for name in PLAYER_NAMES[:max(player_count, 8)]]
    if tournament:
        saturday = weekday_on_or_before(first_night, TOURNAMENT_WEEKDAY)
        run_event(club=club, players=players[:16], name="Harvest Classic", seed=SEED + 100,
                  date=saturday - datetime.timedelta(weeks=1), played_rotations=5,
                  start_next=False, kind=Event.Kind.TOURNAMENT, planned_rotations=5)
        run_event(club=club, players=players[:16], name="Canasta Pairs", seed=SEED + 200,
                  date=saturday, played_rotations=3,
                  start_next=False, kind=Event.Kind.TOURNAMENT, planned_rotations=3,
                  format=Event.Format.SWISS, rules_preset="canasta",
                  scoring=Event.Scoring.VICTORY_POINTS,
                  tie_breaks=["total_points", "head_to_head", "opponents_strength"])
    for number in range(1, past_nights + 1):
        # A different eight each week, so partners, opponents and attendance vary.
        night_players = players[number % 2 * 4:][:8] if len(players) > 8 else players
        run_event(club=club, season=season, players=night_players, seed=night_seed(number),
                  name=f"Tuesday Night {number}", played_rotations=2, start_next=False,
                  date=first_night + datetime.timedelta(weeks=number - 1))
    number = past_nights + 1
    event = run_event(club=club, season=season, players=players[:8], seed=night_seed(number),
                      name=f"Tuesday Night {number}", date=night,
                      played_rotations=played_rotations, start_next=start_next)
    if tournament:
        upcoming = league.event_create(
            club=club, name="Winter Open", kind=Event.Kind.TOURNAMENT, seed=SEED + 300,
            date=weekday_on_or_before(night + datetime.timedelta(weeks=4), TOURNAMENT_WEEKDAY),
            planned_rotations=5)
        league.event_set_status(event=upcoming, status=Event.Status.REGISTRATION)
        for player in players[:10]:
            league.registration_add(event=upcoming, player=player)
    games = Game.objects.filter(table__rotation__event__club=club, round_results__isnull=False)
    return Demo(club=club, season=season, event=event, players=players,
                director_username=director.username, games=games.distinct().count())


@dataclass(frozen=True)
class DemoMove:
    """What `demo_move` did: weeks moved (0: nothing to move), and the running night's date."""

    weeks: int
    night: datetime.date


def demo_move(*, today: datetime.date | None = None) -> DemoMove | None:
    """Move an existing demo's dates by whole weeks so that its latest league night falls on the
    league's weekday on or before `today` (default `demo_today()`), as a new demo would: every
    event of the demo club and its seasons move together, so weekdays, the order of events and
    which night is tonight's stay right; nothing else changes (results, seating, standings).
    Each moved event's slug gets its new date. None when no demo is loaded."""
    club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first()
    if club is None:
        return None
    night = weekday_on_or_before(today or demo_today(), LEAGUE_WEEKDAY)
    latest = (Event.objects.filter(club=club, kind=Event.Kind.LEAGUE_NIGHT)
              .order_by("-date").values_list("date", flat=True).first())
    if latest is None:
        return DemoMove(0, night)
    weeks = round((night - latest).days / 7)
    if weeks == 0:
        return DemoMove(0, latest)
    shift = datetime.timedelta(weeks=weeks)
    with transaction.atomic():
        for season in Season.objects.filter(league__club=club).select_for_update():
            season.starts_on += shift
            season.ends_on = season.ends_on + shift if season.ends_on else None
            season.save(update_fields=["starts_on", "ends_on"])
        events = list(Event.objects.filter(club=club).select_for_update().order_by("date", "pk"))
        for event in events:  # slugs first out of the way: a new one may be an old one's
            event.slug = f"moving-{event.pk}"
            event.save(update_fields=["slug"])
        for event in events:
            event.date += shift
            event.slug = unique_slug(Event.objects.all(), f"{event.name} {event.date:%Y-%m-%d}",
                                     max_length=100)
            event.save(update_fields=["date", "slug"])
    return DemoMove(weeks, latest + shift)


def demo_load(*, password: str | None = None) -> Demo | None:
    """The run command's demo: loaded once; None when it is already there. `password` replaces
    the published demo password of `director` and `scorer` (on a production site, a random one
    the command prints once)."""
    if Club.objects.filter(slug=DEMO_CLUB_SLUG).exists():
        return None
    # Held around the transaction, not only inside it: the results announce themselves when it
    # commits, and each announcement out of the hold ran a recompute and a ratings job of its own
    # (46 of each, 40 % of the command's CPU) before the one rebuild that gives the same.
    with recompute_held(), transaction.atomic():
        demo = build_demo(past_nights=3, player_count=16, tournament=True)
        director = get_user_model().objects.get(username=DIRECTOR_USERNAME)
        director.is_staff = director.is_superuser = True
        director.save(update_fields=["is_staff", "is_superuser"])
        if password is not None:
            for user in get_user_model().objects.filter(
                    username__in=[DIRECTOR_USERNAME, SCORER_USERNAME]):
                user.set_password(password)
                user.save(update_fields=["password"])
    return demo
