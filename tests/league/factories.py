"""League test builders on top of tests/factories.py: events with entrants ready to seat."""

from league.models import Club, Event, Game, Partnership, Player, Registration, Rotation
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, UserFactory


def checked_in_players(event: Event, count: int) -> list[Player]:
    """`count` new players of the event's club, registered and checked in."""
    players = [PlayerFactory(club=event.club) for _ in range(count)]
    for player in players:
        Registration.objects.create(event=event, player=player, checked_in=True)
    return players


def checked_in_partnerships(event: Event, count: int) -> list[Partnership]:
    pairs = []
    for _ in range(count):
        a, b = sorted((PlayerFactory(club=event.club), PlayerFactory(club=event.club)), key=lambda p: p.pk)
        pair = Partnership.objects.create(club=event.club, player_a=a, player_b=b)
        Registration.objects.create(event=event, partnership=pair, checked_in=True)
        pairs.append(pair)
    return pairs


def running_event(players: int = 8, **fields) -> tuple[Event, list[Player]]:
    """A running rotating-partners event with `players` checked-in players."""
    event = EventFactory(status=Event.Status.RUNNING, planned_rotations=3, **fields)
    return event, checked_in_players(event, players)


def confirm_all_games(rotation: Rotation) -> None:
    Game.objects.filter(table__rotation=rotation).update(status=Game.Status.CONFIRMED)



def user_with_role(role: str, club: Club):
    """A user who is an "outsider", a "scorer" or "director" of `club`, or an "other_director"
    (directs another club)."""
    if role == "outsider":
        return UserFactory()
    if role == "other_director":
        return MembershipFactory(role="director").user
    return MembershipFactory(club=club, role=role).user


def season_of_nights(*, groups: list[list[Player]], nights: int, seed: int, season=None):
    """A season of `nights` finished league nights (seeded totals): night n is played by the
    group n % len(groups) (e.g. a division), one game of its four players per rotation, two
    rotations. Returns the season and its nights."""
    import datetime
    import random

    from tests.analytics.factories import confirm
    from tests.factories import SeasonFactory, make_game

    club = groups[0][0].club
    season = season or SeasonFactory(league__club=club)
    rng = random.Random(seed)
    events = []
    for n in range(nights):
        group = groups[n % len(groups)]
        event = EventFactory(club=club, season=season, kind=Event.Kind.LEAGUE_NIGHT,
                             status=Event.Status.FINISHED,
                             date=season.starts_on + datetime.timedelta(days=7 * n))
        for rotation in (1, 2):
            order = group if rotation == 1 else [group[0], group[2], group[1], group[3]]
            game = make_game(event=event, players=order, rotation_number=rotation)
            confirm(game, [[rng.randrange(1000, 6000, 5), rng.randrange(1000, 6000, 5)]])
        events.append(event)
    return season, events
