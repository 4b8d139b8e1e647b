from django.urls import path

from analytics.api import views as api

urlpatterns = [
    path("standings/events/<slug:slug>/", api.EventStandings.as_view(), name="api-event-standings"),
    path("standings/seasons/<int:season_id>/", api.SeasonStandings.as_view(),
         name="api-season-standings"),
    path("ratings/leaderboard/", api.Leaderboard.as_view(), name="api-leaderboard"),
    path("ratings/players/<slug:club>/<slug:slug>/", api.PlayerRatings.as_view(),
         name="api-player-ratings"),
    path("statistics/players/<slug:club>/<slug:slug>/", api.PlayerStatistics.as_view(),
         name="api-player-statistics"),
]
