"""Each request starts and ends in the site's `TIME_ZONE`.

The pages of a club read and take times in the club's own zone: the view that finds the club of
the page activates it (`league.time_zones.club_zone_activate`). Django keeps the active zone per
thread, so this middleware puts the site's zone back around every request: a club's zone never
leaks into the next request the worker serves (another club's page, the API)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class TimeZoneResetMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
