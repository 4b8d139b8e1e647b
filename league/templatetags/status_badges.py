"""The one status badge of the site (a builtin tag: no `{% load %}` needed).

`{% status_badge obj %}` for an event, rotation, game or result version: its status in the same
words everywhere ("Live" for a running event, else the status's display name), coloured by the
status (`.badge.status-<status>` in site.css), and "Members only" after a private event.
"""

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("components/status_badge.html")
def status_badge(obj: Any, id: str = "") -> dict[str, Any]:
    """`id`: an HTML id for the badge (for a script that updates it)."""
    status = obj.status
    return {
        "id": id,
        "status": status,
        "label": "Live" if status == "running" else obj.get_status_display(),
        "members_only": getattr(obj, "is_public", True) is False,
    }
