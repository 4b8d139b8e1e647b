"""Pages' side of the one error model: a service's refusal that a page did not handle itself
(most pages show it next to the form or as a message) becomes a page with its plain message and
the status `web.http` gives its kind. The API has its own handler (`config.api_errors`)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import DomainError
from web.http import refusal_status


class DomainErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        return render(
            request, "refused.html", {"refusal": exception}, status=refusal_status(exception)
        )
