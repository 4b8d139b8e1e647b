"""What several league services share: small checks and writes (names, slugs, the event lock)."""

from collections.abc import Iterable
from typing import Any, Protocol

from anyascii import anyascii
from django.core.exceptions import ValidationError
from django.db.models import Model, Q, QuerySet
from django.utils.text import slugify

from core.errors import Invalid
from league.errors import Code, refusal
from league.models import Club, Event, Partnership, Registration

SUFFIX_ROOM = 8  # "-1234567": a number as long as any club will ever reach


def slug_base(text: str, *, fallback: str = "item", max_length: int = 80) -> str:
    """The text as a slug: transliterated to ASCII first (Sørensen -> sorensen, 王小明 ->
    wangxiaoming, Владимир -> vladimir), with room left for a "-N" suffix; `fallback` when
    nothing readable is left."""
    base = slugify(anyascii(text or ""))[: max_length - SUFFIX_ROOM].strip("-")
    return base or fallback


def unique_slug(queryset: QuerySet, text: str, *, max_length: int = 80,
                fallback: str = "item") -> str:
    """A slug for `text` that no row of `queryset` has: the base, or the base with the next
    free number ("ann-lee-3"). One query, however many rows already share the base."""
    base = slug_base(text, fallback=fallback, max_length=max_length)
    taken = set(
        queryset.filter(Q(slug=base) | Q(slug__startswith=f"{base}-"))
        .values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    numbers = [int(rest) for s in taken
               if (rest := s[len(base) + 1:]).isdigit() and len(rest) < SUFFIX_ROOM]
    return f"{base}-{max(numbers, default=1) + 1}"


def require_name(name: str, what: str) -> str:
    name = (name or "").strip()
    if not name:
        raise refusal(Invalid, Code.BAD_NAME, field='name', what=what)
    return name


class InClub(Protocol):
    """A row of one club (a player, a partnership, a season...)."""

    club_id: int


def require_same_club(club: Club, *objects: InClub, what: str) -> None:
    for obj in objects:
        if obj.club_id != club.pk:
            raise refusal(Invalid, Code.WRONG_CLUB, obj=obj, what=what, club=club)


def apply_changes[M: Model](obj: M, changes: dict[str, Any]) -> M:
    for name, value in changes.items():
        setattr(obj, name, value)
    try:
        obj.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        obj.refresh_from_db()
        field, errors = next(iter(exc.message_dict.items()))
        raise refusal(Invalid, Code.BAD_VALUE, field=field, name=field, errors=' '.join(errors)) from exc
    obj.save()
    return obj


def apply_given[M: Model](obj: M, what: str, **given: Any) -> M:
    """`apply_changes` of the fields given (None leaves a field as it is); a name is checked as
    the name of a `what` ("player")."""
    changes = {field: value for field, value in given.items() if value is not None}
    if "name" in changes:
        changes["name"] = require_name(changes["name"], what)
    return apply_changes(obj, changes)


def unsaved_copy[M: Model](obj: M, changes: dict[str, Any]) -> M:
    """An unsaved copy of `obj` with `changes`, to check before touching the real one."""
    copy = type(obj)(**{f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields})
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def refuse_unknown(changes: dict[str, Any], allowed: Iterable[str]) -> None:
    unknown = sorted(set(changes) - set(allowed))
    if unknown:
        raise refusal(Invalid, Code.UNKNOWN_FIELD, fields=', '.join(unknown))


def partnership_of(registration: Registration) -> Partnership:
    """The partnership of a registration without a player (the model's check constraint: a
    player or a partnership, never neither)."""
    if registration.partnership is None:
        raise ValueError(f"registration {registration.pk} has neither a player nor a partnership")
    return registration.partnership


def lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update().get(pk=event_id)
