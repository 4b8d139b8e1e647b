"""Demo-like data for the browser tests and screenshots: the run command's demo builder
(`league.demo`), built small, plus what the tests look up in it."""

from league.demo import DIRECTOR_PASSWORD as PASSWORD
from league.demo import Demo, build_demo, play_game
from league.models import Event, Game, Rotation

__all__ = ["PASSWORD", "Demo", "build_demo", "next_pending_game", "play_game"]


def next_pending_game(event: Event) -> Game:
    return (
        Game.objects.filter(table__rotation__event=event, status=Game.Status.PENDING,
                            table__rotation__status=Rotation.Status.STARTED)
        .order_by("table__rotation__number", "table__number")
        .first()
    )
