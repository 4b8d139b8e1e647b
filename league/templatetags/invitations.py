"""`{% invitations_notice %}`: a line telling a signed-in account that invitations wait for its
answer, with a link to them (nothing for anyone else)."""

from typing import Any

from django import template

from league import selectors

register = template.Library()


@register.inclusion_tag("league/_invitations_notice.html", takes_context=True)
def invitations_notice(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"invitations": list(selectors.invitations_for(user=user)) if user is not None else []}
