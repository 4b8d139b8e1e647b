from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import path, reverse

from games.views import table as views


def _moved(request: HttpRequest, rest: str) -> HttpResponsePermanentRedirect:
    """The director's result pages moved to /director/...: old links follow (308 keeps a POST a
    POST), query string included."""
    query = request.META.get("QUERY_STRING", "")
    url = reverse("director-home") + rest + (f"?{query}" if query else "")
    return HttpResponsePermanentRedirect(url, preserve_request=True)


urlpatterns = [
    path("", views.play_home, name="play-home"),
    path("sw.js", views.service_worker, name="play-service-worker"),
    path("director/<path:rest>", _moved, name="play-director-moved"),
    path("<str:token>/", views.play_game, name="play-game"),
    path("<str:token>/sheet/", views.submit_sheet, name="play-sheet"),
    path("<str:token>/log/", views.upload_log, name="play-log"),
    path("<str:token>/log/seats/", views.log_map, name="play-log-map"),
    path("<str:token>/check/", views.check_sheet, name="play-check"),
    path("<str:token>/confirm/", views.confirm_result, name="play-confirm"),
]
