"""Builders for the public site's tests: events with seated rotations."""

from league.models import Event, Game, Registration, Rotation
from tests.factories import EventFactory, PlayerFactory, make_game


def seated_event(*, players: int = 8, rotations: int = 1, status: str = Rotation.Status.STARTED,
                 **event_fields) -> Event:
    """An event with `players` registered (a multiple of 4), seated at tables of four in each of
    its rotations."""
    event = EventFactory(**event_fields)
    people = [PlayerFactory(club=event.club, name=f"Player {chr(65 + i)}") for i in range(players)]
    Registration.objects.bulk_create(
        Registration(event=event, player=player, checked_in=True) for player in people
    )
    for number in range(1, rotations + 1):
        shifted = people[number - 1:] + people[:number - 1]
        for table in range(players // 4):
            make_game(event=event, players=shifted[table * 4:table * 4 + 4],
                      rotation_number=number, table_number=table + 1)
        Rotation.objects.filter(event=event, number=number).update(status=status)
    return event


def games_of(event: Event) -> list[Game]:
    return list(Game.objects.filter(table__rotation__event=event).order_by("table__rotation__number",
                                                                           "table__number"))
