from django.urls import path

from analytics.api import views as api

urlpatterns = [
    path("standings/events/<slug:slug>/", api.EventStandings.as_view(), name="api-event-standings"),
    path("standings/seasons/<int:season_id>/", api.SeasonStandings.as_view(),
         name="api-season-standings"),
    path("ratings/leaderboard/", api.Leaderboard.as_view(), name="api-leaderboard"),
    # A player by their number (id), public whatever name they show, never by the slug made
    # from their name.
    path("ratings/players/<int:player_id>/", api.PlayerRatings.as_view(),
         name="api-player-ratings"),
    path("statistics/players/<int:player_id>/", api.PlayerStatistics.as_view(),
         name="api-player-statistics"),
    # The old addresses by slug: 301 while the name shows in full, 404 otherwise.
    path("ratings/players/<slug:club>/<slug:slug>/",
         api.PlayerByOldSlug.as_view(moved_to="api-player-ratings"),
         name="api-player-ratings-by-slug"),
    path("statistics/players/<slug:club>/<slug:slug>/",
         api.PlayerByOldSlug.as_view(moved_to="api-player-statistics"),
         name="api-player-statistics-by-slug"),
]
