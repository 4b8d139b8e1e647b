"""What several league services share: small checks and writes (names, slugs, the event lock)."""

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.utils.text import slugify

from core.errors import Invalid
from league.models import Club, Event


def unique_slug(queryset: QuerySet, text: str, *, max_length: int = 80) -> str:
    base = (slugify(text) or "item")[: max_length - 4]
    slug, n = base, 2
    while queryset.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def require_name(name: str, what: str) -> str:
    name = (name or "").strip()
    if not name:
        raise Invalid("BAD_NAME", f"The {what} needs a name.", field="name")
    return name


def require_same_club(club: Club, *objects: Model, what: str) -> None:
    for obj in objects:
        if obj.club_id != club.pk:
            raise Invalid("WRONG_CLUB", f"{obj} is not a {what} of {club}.")


def apply_changes(obj: Model, changes: dict[str, Any]) -> Model:
    for name, value in changes.items():
        setattr(obj, name, value)
    try:
        obj.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        obj.refresh_from_db()
        field, errors = next(iter(exc.message_dict.items()))
        raise Invalid("BAD_VALUE", f"{field}: {' '.join(errors)}", field=field) from exc
    obj.save()
    return obj


def unsaved_copy(obj: Model, changes: dict[str, Any]) -> Model:
    """An unsaved copy of `obj` with `changes`, to check before touching the real one."""
    copy = type(obj)(**{f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields})
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def refuse_unknown(changes: dict[str, Any], allowed: Iterable[str]) -> None:
    unknown = sorted(set(changes) - set(allowed))
    if unknown:
        raise Invalid("UNKNOWN_FIELD", f"Cannot change {', '.join(unknown)}.")


def lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update().get(pk=event_id)
