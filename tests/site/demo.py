"""Demo-like data for the browser tests and screenshots: the run command's demo builder
(`site_pages.demo`), built small, plus what the tests look up in it."""

from league.models import Event, Game, Rotation
from league.services.credentials import game_side_credentials
from site_pages.demo import DIRECTOR_PASSWORD as PASSWORD
from site_pages.demo import Demo, build_demo, play_game

__all__ = ["PASSWORD", "Demo", "build_demo", "next_pending_game", "play_game", "side_entry_url"]


def next_pending_game(event: Event) -> Game:
    return (
        Game.objects.filter(table__rotation__event=event, status=Game.Status.PENDING,
                            table__rotation__status=Rotation.Status.STARTED)
        .order_by("table__rotation__number", "table__number")
        .first()
    )


def side_entry_url(game: Game, side: int) -> str:
    """The entry link printed on the table card for one side (0-based, as the engine counts)."""
    return game_side_credentials(game=game)[side].entry_url
