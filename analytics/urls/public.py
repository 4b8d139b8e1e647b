from django.urls import path

from analytics.views import exports, handicaps, ratings_accuracy
from analytics.views import public as views
from analytics.views.ladder import ladder

urlpatterns = [
    path("events/<slug:slug>/standings/", views.event_standings, name="event-standings"),
    path("events/<slug:slug>/standings.csv", views.event_standings_csv, name="event-standings-csv"),
    path("events/<slug:slug>/games.csv", views.event_games_csv, name="event-games-csv"),
    path("events/<slug:slug>/results.xlsx", exports.event_results_xlsx, name="event-results-xlsx"),
    path("seasons/<int:season_id>/results.xlsx", exports.season_results_xlsx,
         name="season-results-xlsx"),
    path("seasons/<int:season_id>/games.csv", exports.season_games_csv, name="season-games-csv"),
    path("events/<slug:slug>/what-if/", views.event_whatif, name="event-whatif"),
    path("seasons/<int:season_id>/standings/", views.season_standings, name="season-standings"),
    path("seasons/<int:season_id>/standings.csv", views.season_standings_csv,
         name="season-standings-csv"),
    path("seasons/<int:season_id>/what-if/", views.season_whatif, name="season-whatif"),
    path("events/<slug:slug>/standings-with-handicaps.csv", handicaps.event_handicapped_csv,
         name="event-standings-handicapped-csv"),
    path("seasons/<int:season_id>/standings-with-handicaps.csv", handicaps.season_handicapped_csv,
         name="season-standings-handicapped-csv"),
    path("seasons/<int:season_id>/divisions/<int:number>/standings.csv", handicaps.division_csv,
         name="division-standings-csv"),
    path("seasons/<int:season_id>/divisions/<int:number>/standings-with-handicaps.csv",
         handicaps.division_handicapped_csv, name="division-standings-handicapped-csv"),
    path("clubs/<slug:club>/ratings/how-well-they-predict/", ratings_accuracy.club_ratings_accuracy,
         name="club-ratings-accuracy"),
    path("clubs/<slug:club>/players/<int:pk>/", views.player_detail, name="player-detail"),
    path("clubs/<slug:club>/players/<int:pk>/stats.csv", views.player_stats_csv,
         name="player-stats-csv"),
    path("clubs/<slug:club>/partnerships/<int:pk_a>/<int:pk_b>/", views.partnership_detail,
         name="partnership-detail"),
    # The old addresses held the player's slug (their name): moved for good while the name is
    # public in full, not found once the player shows an initial or no name.
    path("players/<slug:club>/<slug:slug>/", views.player_detail_by_slug,
         name="player-detail-by-slug"),
    path("players/<slug:club>/<slug:slug>/stats.csv", views.player_stats_csv_by_slug,
         name="player-stats-csv-by-slug"),
    path("partnerships/<slug:club>/<slug:slug_a>/<slug:slug_b>/",
         views.partnership_detail_by_slugs, name="partnership-detail-by-slugs"),
    path("head-to-head/", views.head_to_head, name="head-to-head"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("ladder/", ladder, name="ladder"),
]
