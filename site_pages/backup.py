"""A club's backup as versioned JSON, and its restore into an empty database.

`club_export` gathers everything that belongs to the club (every row that points to it, directly
or through others, so models added later come along): players, partnerships,
leagues, seasons, events, registrations, rotations, tables, seats, games, and every submission
and result version with its history. The analytics snapshots are left out: they are derived,
and `club_import` recomputes them from the restored results (the same standings and ratings,
exactly). Accounts are referenced by username; they come back without a password (set one with
`manage.py changepassword`), matched by username when they already exist.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Model

from analytics.services import club_recompute
from core.errors import Conflict, Invalid
from league.models import Club

FORMAT = "hand-and-foot-club-export/1"
DERIVED_APPS = {"analytics"}
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")


class ExportEncoder(DjangoJSONEncoder):
    """Django's JSON encoder, but times keep their microseconds (it rounds to milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def _club_objects(club: Club) -> list[Model]:
    """The club and every row that points to it, directly or through others (reverse foreign
    keys, followed model by model: one query per relation and level, not per row)."""
    found: dict[type[Model], dict[Any, Model]] = {Club: {club.pk: club}}
    frontier: dict[type[Model], set[Any]] = {Club: {club.pk}}
    while frontier:
        following: dict[type[Model], set[Any]] = {}
        for model, pks in frontier.items():
            for relation in model._meta.related_objects:
                child = relation.related_model
                if relation.many_to_many or child._meta.app_label in DERIVED_APPS:
                    continue
                rows = child._base_manager.filter(**{f"{relation.field.name}__in": pks})
                for row in rows:
                    if row.pk not in found.setdefault(child, {}):
                        found[child][row.pk] = row
                        following.setdefault(child, set()).add(row.pk)
        frontier = following
    return [row for model in sorted(found, key=lambda m: m._meta.label)
            for _, row in sorted(found[model].items())]


def _user_fields(model: type[Model]) -> list[str]:
    user_model = get_user_model()
    return [f.attname for f in model._meta.concrete_fields
            if f.is_relation and f.related_model is user_model]


def _referenced_users(objects: Iterable[Model]) -> list[dict[str, Any]]:
    ids = {getattr(obj, name) for obj in objects for name in _user_fields(type(obj))} - {None}
    users = get_user_model().objects.filter(pk__in=ids).order_by("pk")
    return [{"id": u.pk, **{name: getattr(u, name) for name in USER_FIELDS}} for u in users]


def club_export(*, club: Club) -> dict[str, Any]:
    """The club's whole record as a JSON-ready dict (see the module's docstring)."""
    objects = _club_objects(club)
    return {
        "format": FORMAT,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "club": club.slug,
        "users": _referenced_users(objects),
        "objects": serializers.serialize("python", objects),
    }


def _users_restore(users: list[dict[str, Any]]) -> dict[int, int]:
    """Old user id -> new user id; accounts are matched by username or created unusable."""
    mapping = {}
    for data in users:
        user, created = get_user_model().objects.get_or_create(
            username=data["username"], defaults={k: data[k] for k in USER_FIELDS[1:]}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        mapping[data["id"]] = user.pk
    return mapping


def _check_format(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Invalid("BAD_FORMAT", f"This is not a club export ({FORMAT}).")
    if Club.objects.filter(slug=data.get("club")).exists():
        raise Conflict(
            "CLUB_EXISTS", f"A club {data.get('club')!r} is already here; restore into an "
            "empty database (or delete that club first)."
        )


def club_import(*, data: dict[str, Any]) -> Club:
    """Restore a `club_export` (same ids) and recompute its standings, ratings and statistics."""
    _check_format(data)
    with transaction.atomic():
        users = _users_restore(data.get("users", []))
        tables = set()
        with connection.constraint_checks_disabled():
            for item in serializers.deserialize("python", data["objects"]):
                obj = item.object
                for name in _user_fields(type(obj)):
                    if getattr(obj, name) is not None:
                        setattr(obj, name, users[getattr(obj, name)])
                item.save()
                tables.add(type(obj))
        connection.check_constraints(table_names=[m._meta.db_table for m in tables])
        _sequences_reset(tables)
        club = Club.objects.get(slug=data["club"])
    club_recompute(club_id=club.pk)
    return club


def _sequences_reset(models: Iterable[type[Model]]) -> None:
    """After rows with explicit ids, new rows must not reuse them (PostgreSQL sequences)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
