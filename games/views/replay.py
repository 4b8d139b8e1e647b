"""Watching a logged game again: /games/<id>/replay/ (public where the event is public)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games import replays, selectors


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(replays.replay_games(user=request.user), pk=game_id)
    replay = replays.game_replay(game=game)
    if replay is None:
        raise Http404("This game has no move log to replay.")
    context = {
        "game": game,
        "event": selectors.game_event(game=game),
        "sides": selectors.game_sides_shown(game=game),  # a public page: public names
        "replay": replay,
        "story": replay["story"],
    }
    return render(request, "games/replay.html", context)
