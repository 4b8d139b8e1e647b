"""The director's substitutes of a night (event page): seat a substitute for an absent member,
or end a substitution. Thin: the form checks the shape, `league.services.substitutes` decides."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from league import selectors, services
from league.forms.substitutes import SubstituteForm
from league.models import Event, Player
from league.views.common import attempt, directed_event
from league.views.room import _event_url


def substitutes_context(event: Event) -> dict[str, Any]:
    """What the event page's substitutes section (`_substitutes.html`) draws."""
    substitutions = selectors.substitutions_list(event=event)
    taken = {s.member.pk for s in substitutions}
    return {
        "substitutions": substitutions,
        "substitute_form": SubstituteForm(event=event, taken=taken),
        "substitute_names": list(event.club.players.filter(retired_at__isnull=True)
                                 .order_by("name").values_list("name", flat=True)[:500]),
    }


@login_required
@require_POST
def substitute_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    taken = set(selectors.event_substitutions(event_id=event.pk))
    form = SubstituteForm(request.POST, event=event, taken=taken)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(map(str, errors)))
        return redirect(_event_url(event, "substitutes"))
    member, name = form.cleaned_data["member"], form.cleaned_data["substitute"]
    attempt(request, f"{' '.join(name.split())} plays for {member.name} tonight.",
             services.substitute_seat, event=event, member=member, substitute=name, by=request.user)
    return redirect(_event_url(event, "substitutes"))


@login_required
@require_POST
def substitute_end(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    event = directed_event(request, slug)
    member = get_object_or_404(Player, pk=member_id, club=event.club)
    attempt(request, f"{member.name} takes their own seats again.", services.substitute_remove,
             event=event, member=member, by=request.user)
    return redirect(_event_url(event, "substitutes"))
