from django.urls import path

from games import director_views, views

urlpatterns = [
    path("", views.play_home, name="play-home"),
    path(
        "director/events/<slug:slug>/results/",
        director_views.event_results,
        name="director-results",
    ),
    path("director/games/<int:game_id>/", director_views.game_result, name="director-result"),
    path(
        "director/games/<int:game_id>/confirm/",
        director_views.confirm_version,
        name="director-result-confirm",
    ),
    path(
        "director/games/<int:game_id>/check/",
        director_views.check_sheet,
        name="director-result-check",
    ),
    path(
        "director/games/<int:game_id>/correct/",
        director_views.correct_result,
        name="director-result-correct",
    ),
    path("<str:token>/", views.play_game, name="play-game"),
    path("<str:token>/sheet/", views.submit_sheet, name="play-sheet"),
    path("<str:token>/log/", views.upload_log, name="play-log"),
    path("<str:token>/log/seats/", views.log_map, name="play-log-map"),
    path("<str:token>/check/", views.check_sheet, name="play-check"),
    path("<str:token>/confirm/", views.confirm_result, name="play-confirm"),
]
