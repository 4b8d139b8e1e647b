"""Demo data, built through the same services the pages use, so every demo result is a legal game
from the engine's simulator that went through intake, confirmation and the analytics jobs.

Used by `python manage.py demo` (the run command) and by the browser tests.
"""

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import services as results
from games.engine.checking import check_document
from games.engine.formats import SHEET_FORMAT
from games.engine.sheets import SIDE_NUMBER_FIELDS
from games.engine.simulate import simulate_game
from league import services as league
from league.models import Club, Event, Game, Membership, Player, Rotation, Season

DEMO_CLUB_SLUG = "riverside-card-club"
DIRECTOR_USERNAME = "director"
# The demo's published sign-in (README), not a secret.
DIRECTOR_PASSWORD = "handfoot-demo"  # nosec B105
SCORER_USERNAME = "scorer"

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


def sheets_from_report(report: dict) -> list[dict]:
    """One score sheet per round with the figures the engine found in a move log."""
    fields = (*SIDE_NUMBER_FIELDS, "went_out")
    return [
        {
            "format": SHEET_FORMAT,
            "round": r["round"],
            "ended_by": r["ended_by"],
            "sides": [{f: side[f] for f in fields} for side in r["sides"]],
        }
        for r in report["rounds"]
    ]


def play_game(game: Game, seed: int, as_sheets: bool = False) -> None:
    """Enter a simulated game from side 0 and confirm it from side 1, as one move log or (as a
    club scorer would) as its figures on four score sheets."""
    table = results.game_table(game=game)
    log = simulate_game(rules=table.rules_spec, players=len(table.players), seed=seed,
                        first_dealer=table.first_dealer)
    log["seats"] = table.players
    documents = sheets_from_report(check_document(log).to_dict()) if as_sheets else [log]
    side_0 = results.Entrant.for_side(game, 0)
    for n, document in enumerate(documents):
        results.submission_create(game=game, document=document, entrant=side_0,
                                  idempotency_key=f"demo-{game.pk}-{n}")
    version = game.result_versions.get()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))


def play_rotation(event: Event, number: int, seed: int) -> Rotation:
    """Generate, start, play (every table entered and confirmed) and close one rotation."""
    rotation = league.rotation_start(rotation=league.rotation_generate(event=event))
    for game in Game.objects.filter(table__rotation=rotation).order_by("table__number"):
        # Most tables report on paper; every third one from a scoring app's move log.
        play_game(game, seed=seed + number * 10 + game.table.number,
                  as_sheets=game.table.number % 3 != 1)
    return league.rotation_close(rotation=rotation)


def run_event(*, club: Club, players: list[Player], name: str, date: datetime.date,
              played_rotations: int, start_next: bool, season: Season | None = None,
              kind: str = Event.Kind.LEAGUE_NIGHT, planned_rotations: int = 3,
              **settings: object) -> Event:
    """An event with everyone entered and checked in (in pairs of consecutive players for
    fixed partnerships), `played_rotations` rotations played, confirmed and closed, then the
    next rotation started (or the event finished). `settings` go to `event_create`."""
    event = league.event_create(club=club, name=name, date=date, kind=kind, season=season,
                                seed=date.toordinal(), planned_rotations=planned_rotations,
                                **settings)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    size = 2 if event.is_fixed_partnerships else 1
    for i in range(0, len(players), size):
        registration = league.registration_add_entrant(event=event, players=players[i:i + size])
        league.registration_check_in(registration=registration)
    event = league.event_set_status(event=event, status=Event.Status.RUNNING)
    for number in range(1, played_rotations + 1):
        play_rotation(event, number, seed=date.toordinal())
    if start_next:
        league.rotation_start(rotation=league.rotation_generate(event=event))
    else:
        event = league.event_set_status(event=event, status=Event.Status.FINISHED)
    return event


def build_demo(*, played_rotations: int = 1, start_next: bool = True, past_nights: int = 0,
               player_count: int = 8, tournament: bool = False) -> Demo:
    """A club whose running night tonight has `played_rotations` played; `past_nights` finished
    nights in the weeks before fill the season; `tournament` adds a finished 16-player
    tournament and an upcoming one open for registration."""
    user_model = get_user_model()
    director = user_model.objects.create_user(DIRECTOR_USERNAME, password=DIRECTOR_PASSWORD)
    club = league.club_create(name="Riverside Card Club", director=director,
                              description="Hand and Foot every Tuesday at the library hall.")
    scorer = user_model.objects.create_user(SCORER_USERNAME, password=DIRECTOR_PASSWORD)
    league.membership_add(club=club, user=scorer, role=Membership.Role.SCORER)
    tuesday = league.league_create(club=club, name="Tuesday League")
    season = league.season_create(league=tuesday, name="Autumn 2026",
                                  starts_on=datetime.date(2026, 9, 1), best_n_nights=8)
    players = [league.player_create(club=club, name=name)
               for name in PLAYER_NAMES[:max(player_count, 8)]]
    today = timezone.localdate()
    if tournament:
        run_event(club=club, players=players[:16], name="Harvest Classic",
                  date=today - datetime.timedelta(weeks=past_nights + 2), played_rotations=5,
                  start_next=False, kind=Event.Kind.TOURNAMENT, planned_rotations=5)
        run_event(club=club, players=players[:16], name="Canasta Pairs",
                  date=today - datetime.timedelta(weeks=past_nights + 1), played_rotations=3,
                  start_next=False, kind=Event.Kind.TOURNAMENT, planned_rotations=3,
                  format=Event.Format.SWISS, rules_preset="canasta",
                  scoring=Event.Scoring.VICTORY_POINTS,
                  tie_breaks=["total_points", "head_to_head", "opponents_strength"])
    for weeks_ago in range(past_nights, 0, -1):
        # A different eight each week, so partners, opponents and attendance vary.
        night_players = players[weeks_ago % 2 * 4:][:8] if len(players) > 8 else players
        run_event(club=club, season=season, players=night_players,
                  name=f"Tuesday Night {weeks_ago}", played_rotations=2, start_next=False,
                  date=today - datetime.timedelta(weeks=weeks_ago))
    event = run_event(club=club, season=season, players=players[:8], name="Tuesday Night",
                      date=today, played_rotations=played_rotations, start_next=start_next)
    if tournament:
        upcoming = league.event_create(club=club, name="Winter Open", kind=Event.Kind.TOURNAMENT,
                                       date=today + datetime.timedelta(weeks=3),
                                       planned_rotations=5)
        league.event_set_status(event=upcoming, status=Event.Status.REGISTRATION)
        for player in players[:10]:
            league.registration_add(event=upcoming, player=player)
    return Demo(club=club, season=season, event=event, players=players,
                director_username=director.username)


def demo_load() -> Demo | None:
    """The run command's demo: loaded once; None when it is already there."""
    if Club.objects.filter(slug=DEMO_CLUB_SLUG).exists():
        return None
    with transaction.atomic():
        demo = build_demo(past_nights=3, player_count=16, tournament=True)
        director = get_user_model().objects.get(username=DIRECTOR_USERNAME)
        director.is_staff = director.is_superuser = True
        director.save(update_fields=["is_staff", "is_superuser"])
    return demo
