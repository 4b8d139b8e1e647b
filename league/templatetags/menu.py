"""`{% load menu %}`: what the site header offers the signed-in user."""

from typing import Any

from django import template

from league.models import Membership

register = template.Library()


@register.filter
def runs_a_club(user: Any) -> bool:
    """Whether the header offers the Director pages: staff, or a director of some club (a
    player or scorer without a director's membership gets no Director menu). One query per
    request at most."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser:
        return True
    cached = getattr(user, "_runs_a_club", None)
    if cached is None:
        cached = Membership.objects.filter(user=user, role=Membership.Role.DIRECTOR).exists()
        user._runs_a_club = cached
    return bool(cached)
