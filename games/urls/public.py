"""Pages of games anyone may see where the event is public (outside /play/, the tables' own
entry pages, which the table page's service worker keeps for offline use)."""

from django.urls import path

from games.views import replay as replay_views

urlpatterns = [
    path("games/<int:game_id>/replay/", replay_views.replay_page, name="game-replay"),
]
