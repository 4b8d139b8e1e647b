"""Demo-like data for the site's browser tests and screenshots, built through the services the
real pages use: a club with a league and season, a running night of eight players whose first
rotation is played and confirmed (so standings, ratings and statistics exist) and whose second
rotation has started."""

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as results
from games.engine.checking import check_document
from games.engine.simulate import simulate_game
from league import services as league
from league.models import Club, Event, Game, Membership, Player, Rotation, Season

PLAYER_NAMES = (
    "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra",
    "Barbara Liskov", "Donald Knuth", "Frances Allen", "John Backus",
)
PASSWORD = "demo-pass-123"


@dataclass
class Demo:
    club: Club
    season: Season
    event: Event
    players: list[Player]
    director_username: str


def sheets_from_report(report: dict) -> list[dict]:
    """One score sheet per round with the figures the engine found in a move log."""
    fields = ("clean_books", "dirty_books", "wild_books", "red_threes", "table_points",
              "held_points", "went_out")
    return [
        {
            "format": "hand-and-foot-sheet/1",
            "round": r["round"],
            "ended_by": r["ended_by"],
            "sides": [{f: side[f] for f in fields} for side in r["sides"]],
        }
        for r in report["rounds"]
    ]


def play_game(game: Game, seed: int) -> None:
    """Enter a simulated game from side 0 and confirm it from side 1. A move log when the
    seating's first dealer matches the simulator's (seat 3), else its figures as score sheets."""
    table = results.game_table(game)
    log = simulate_game(rules=table.rules_spec, players=len(table.players), seed=seed)
    log["seats"] = table.players
    if log["rounds"][0]["dealer"] == table.first_dealer:
        documents = [log]
    else:
        documents = sheets_from_report(check_document(log).to_dict())
    side_0 = results.Entrant.for_side(game, 0)
    for n, document in enumerate(documents):
        results.submission_create(game=game, document=document, entrant=side_0,
                                  idempotency_key=f"demo-{game.pk}-{n}")
    version = game.result_versions.get()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))


def run_night(*, club: Club, season: Season, players: list[Player], name: str,
              date: datetime.date, played_rotations: int, start_next: bool) -> Event:
    """A league night: everyone entered and checked in, `played_rotations` rotations played,
    confirmed and closed, then the next rotation started (or the night finished)."""
    event = league.event_create(club=club, name=name, date=date, kind=Event.Kind.LEAGUE_NIGHT,
                                season=season, seed=date.toordinal(), planned_rotations=3)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    for player in players:
        registration = league.registration_add(event=event, player=player)
        league.registration_check_in(registration=registration)
    event = league.event_set_status(event=event, status=Event.Status.RUNNING)
    for number in range(1, played_rotations + 1):
        rotation = league.rotation_start(rotation=league.rotation_generate(event=event))
        for game in Game.objects.filter(table__rotation=rotation).order_by("table__number"):
            play_game(game, seed=date.toordinal() + number * 10 + game.table.number)
        league.rotation_close(rotation=rotation)
    if start_next:
        league.rotation_start(rotation=league.rotation_generate(event=event))
    else:
        event = league.event_set_status(event=event, status=Event.Status.FINISHED)
    return event


def build_demo(*, played_rotations: int = 1, start_next: bool = True,
               past_nights: int = 0) -> Demo:
    """A club whose running night tonight has `played_rotations` played; `past_nights` finished
    nights in the weeks before fill the season (slower: each plays two rotations)."""
    user_model = get_user_model()
    director = user_model.objects.create_user("director", password=PASSWORD)
    club = league.club_create(name="Riverside Card Club", director=director,
                              description="Hand and Foot every Tuesday at the library hall.")
    scorer = user_model.objects.create_user("scorer", password=PASSWORD)
    league.membership_add(club=club, user=scorer, role=Membership.Role.SCORER)
    tuesday = league.league_create(club=club, name="Tuesday League")
    season = league.season_create(league=tuesday, name="Autumn 2026",
                                  starts_on=datetime.date(2026, 9, 1), best_n_nights=8)
    players = [league.player_create(club=club, name=name) for name in PLAYER_NAMES]
    today = timezone.localdate()
    for weeks_ago in range(past_nights, 0, -1):
        run_night(club=club, season=season, players=players, name=f"Tuesday Night {weeks_ago}",
                  date=today - datetime.timedelta(weeks=weeks_ago), played_rotations=2,
                  start_next=False)
    event = run_night(club=club, season=season, players=players, name="Tuesday Night",
                      date=today, played_rotations=played_rotations, start_next=start_next)
    return Demo(club=club, season=season, event=event, players=players,
                director_username=director.username)


def next_pending_game(event: Event) -> Game:
    return (
        Game.objects.filter(table__rotation__event=event, status=Game.Status.PENDING,
                            table__rotation__status=Rotation.Status.STARTED)
        .order_by("table__rotation__number", "table__number")
        .first()
    )
