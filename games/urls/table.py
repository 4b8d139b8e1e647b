from django.urls import path

from games.views import table as views

urlpatterns = [
    path("", views.play_home, name="play-home"),
    path("sw.js", views.service_worker, name="play-service-worker"),
    path("<str:token>/", views.play_game, name="play-game"),
    path("<str:token>/sheet/", views.submit_sheet, name="play-sheet"),
    path("<str:token>/log/", views.upload_log, name="play-log"),
    path("<str:token>/log/seats/", views.log_map, name="play-log-map"),
    path("<str:token>/check/", views.check_sheet, name="play-check"),
    path("<str:token>/confirm/", views.confirm_result, name="play-confirm"),
    path("<str:token>/dispute/", views.dispute_result, name="play-dispute"),
]
