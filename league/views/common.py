"""What every director view of the league needs: the event the user directs, a posted form
checked with what to do said on the page, and a service run whose outcome is said there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from core.errors import DomainError
from league.models import Event
from league.permissions import check_directs_event
from league.time_zones import club_zone_activate


def directed_event(request: HttpRequest, slug: str) -> Event:
    """The event if the user directs its club: 404 if they may not even see it, else 403."""
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    check_directs_event(request.user, event)
    club_zone_activate(event.club)
    return event


def attempt(request: HttpRequest, done: str, service: Callable[..., Any], **kwargs: Any) -> Any:
    """Run a service and say on the page what was done (`done`, unless empty) or why it was
    refused; None when it was refused."""
    try:
        result = service(**kwargs)
    except DomainError as error:
        messages.error(request, error.message)
        return None
    if done:
        messages.success(request, done)
    return result


def form_valid(request: HttpRequest, form: forms.Form, refused: str) -> bool:
    """Whether the posted `form` is valid; if not, `refused` (what to do, in words) is said on
    the page the view goes back to."""
    if form.is_valid():
        return True
    messages.error(request, refused)
    return False
