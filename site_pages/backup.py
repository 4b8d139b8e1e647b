"""A club's backup as versioned JSON, and its restore as a new club.

`club_export` gathers everything that belongs to the club (every row that points to it, directly
or through others, so models added later come along): players, partnerships,
leagues, seasons, events, registrations, rotations, tables, seats, games, and every submission
and result version with its history. The analytics snapshots are left out: they are derived,
and `club_import` recomputes them from the restored results (the same standings and ratings,
exactly). Accounts are referenced by username.

`club_import` cannot take over a site: it restores only a club whose slug no club has; every row
gets a new id (never the file's); only the club's own kinds of records are read (accounts'
passwords and flags, tokens, sessions, other clubs never: a file holding one is refused, in
words naming the record); accounts are created without a password and never staff or superuser,
or, with `link_accounts`, matched to this site's accounts by username. A dry run says what would
be made and stores nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import Any, NoReturn

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.db.models import Model

from analytics.services import club_recompute
from core.errors import Conflict, Invalid
from handfoot.errors import shown
from league.models import AuditEntry, Club
from league.services.undo import RESTORED
from site_pages.errors import Code, refusal

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


@dataclass
class ImportResult:
    """What a restore made (or, for a dry run, would make)."""

    club: Club | None
    counts: dict[str, int] = field(default_factory=dict)
    created_accounts: list[str] = field(default_factory=list)
    linked_accounts: list[str] = field(default_factory=list)
    directors: list[str] = field(default_factory=list)
    dry_run: bool = False


class _DryRun(Exception):
    pass


def _club_models() -> list[type[Model]]:
    """Every model a club's record may hold (reached from Club by foreign keys), in an order
    where each comes after the club models it points to. Taken from the code, never the file."""
    found: set[type[Model]] = {Club}
    frontier: list[type[Model]] = [Club]
    while frontier:
        following = []
        for model in frontier:
            for relation in model._meta.related_objects:
                child = relation.related_model
                if relation.many_to_many or child._meta.app_label in DERIVED_APPS or child in found:
                    continue
                found.add(child)
                following.append(child)
        frontier = following
    order = TopologicalSorter({
        model: {f.related_model for f in model._meta.concrete_fields
                if f.is_relation and f.related_model in found and f.related_model is not model}
        for model in found
    })
    return list(order.static_order())


def _refuse(code: Code, problem: str) -> NoReturn:
    raise refusal(Invalid, code, problem=problem)


def _users_plan(users: Any, *, link_accounts: bool) -> tuple[dict[int, str], list[str], list[str]]:
    """Old user id -> username; the usernames to create (no password, no staff or superuser
    flag) and those to link to this site's accounts of the same name (only with consent)."""
    if not isinstance(users, list):
        _refuse(Code.BAD_FORMAT, "the file's accounts are not a list.")
    names: dict[int, str] = {}
    for data in users:
        if not isinstance(data, dict) or not isinstance(data.get("username"), str) \
                or not isinstance(data.get("id"), int):
            _refuse(Code.BAD_FORMAT, f"an account in the file has no username or id: {shown(data)}.")
        extra = sorted(set(data) - {"id", *USER_FIELDS})
        if extra:
            _refuse(Code.FOREIGN_RECORD, f"the account {data['username']!r} in the file carries "
                    f"{', '.join(map(repr, extra))}, which a restore never takes (passwords, "
                    "staff and superuser flags are set on this site only).")
        names[data["id"]] = data["username"]
    existing = set(get_user_model().objects.filter(username__in=names.values())
                   .values_list("username", flat=True))
    if existing and not link_accounts:
        _refuse(Code.ACCOUNT_EXISTS, f"the accounts {', '.join(sorted(map(repr, existing)))} of the "
                "file already exist on this site. Run again with --link-accounts to attach the "
                "restored records to them, or remove them from the file.")
    return names, sorted(set(names.values()) - existing), sorted(existing)


def _records(data: dict[str, Any], models: list[type[Model]]) -> dict[type[Model], list[dict]]:
    by_label = {m._meta.label_lower: m for m in models}
    grouped: dict[type[Model], list[dict]] = {m: [] for m in models}
    objects = data.get("objects")
    if not isinstance(objects, list):
        _refuse(Code.BAD_FORMAT, "the file holds no list of records.")
    for number, item in enumerate(objects, start=1):
        label = item.get("model") if isinstance(item, dict) else None
        if label not in by_label:
            _refuse(Code.FOREIGN_RECORD, f"record {number} ({shown(label)}) is not part of a club "
                    "(accounts, tokens, sessions and other clubs are never read from a file).")
        if not isinstance(item.get("fields"), dict) or item.get("pk") is None:
            _refuse(Code.BAD_FORMAT, f"record {number} ({label}) has no id or fields.")
        grouped[by_label[label]].append({**item, "number": number})
    clubs = grouped[Club]
    if len(clubs) != 1 or clubs[0]["fields"].get("slug") != data.get("club"):
        _refuse(Code.FOREIGN_RECORD, f"the file must hold exactly one club, {data.get('club')!r}; it "
                f"holds {len(clubs)} club records.")
    return grouped


def _values(model: type[Model], item: dict, ids: dict, users: Mapping[int, int | None]) -> dict:
    """The row's field values with every reference translated to this site's new ids."""
    fields = {f.name: f for f in model._meta.concrete_fields if not f.primary_key}
    unknown = set(item["fields"]) - set(fields)
    if unknown:
        _refuse(Code.BAD_FORMAT, f"record {item['number']} ({model._meta.label_lower}) has unknown "
                f"fields {', '.join(sorted(unknown))}.")
    values = {}
    user_model = get_user_model()
    if model is AuditEntry:  # its undo data names the old site's ids: words only, no undo
        item = {**item, "fields": {**item["fields"], "data": {RESTORED: True}}}
    for name, value in item["fields"].items():
        f = fields[name]
        if f.is_relation and value is not None:
            target = f.related_model
            if target is user_model:
                value = users.get(value)
            elif (target, value) in ids:
                value = ids[(target, value)]
            else:
                pointed = target._meta.label_lower if isinstance(target, type) else target
                _refuse(Code.FOREIGN_RECORD, f"record {item['number']} ({model._meta.label_lower} "
                        f"{item['pk']}) points to {pointed} {value}, which is not "
                        "in the club's file.")
            if value is None and not f.null:
                _refuse(Code.BAD_FORMAT, f"record {item['number']} ({model._meta.label_lower}) names "
                        "an account the file does not list.")
            values[f.attname] = value
        else:
            try:
                values[f.attname] = f.to_python(value) if value is not None else None
            except ValidationError as err:
                _refuse(Code.BAD_FORMAT, f"record {item['number']} ({model._meta.label_lower}): "
                        f"{name} {'; '.join(err.messages)}")
    return values


def _taken(model: type[Model], rows: list[dict]) -> None:
    """Refuse values that must be unique on the whole site (slugs, table links) and are taken."""
    for f in model._meta.concrete_fields:
        if not f.unique or f.primary_key or f.is_relation:
            continue
        wanted = {row["fields"].get(f.name) for row in rows} - {None}
        clash = model._base_manager.filter(**{f"{f.name}__in": wanted}).values_list(f.name,
                                                                                    flat=True)
        first = next(iter(clash), None)
        if first is not None:
            _refuse(Code.ALREADY_HERE, f"this site already has a {model._meta.verbose_name} with "
                    f"{f.verbose_name} {first!r}, as the file has.")


def club_import(*, data: dict[str, Any], link_accounts: bool = False,
                dry_run: bool = False) -> ImportResult:
    """Restore a `club_export` as a new club: only when no club has its slug; every row gets a
    new id; accounts are created without a password (never staff or superuser), or matched by
    username only with `link_accounts`; nothing outside the club is read. A dry run says what
    would be made and stores nothing. Then recomputes standings, ratings and statistics."""
    _check_format(data)
    models = _club_models()
    grouped = _records(data, models)
    names, create, link = _users_plan(data.get("users", []), link_accounts=link_accounts)
    result = ImportResult(club=None, created_accounts=create, linked_accounts=link,
                          dry_run=dry_run)
    try:
        with transaction.atomic():
            user_ids = _accounts_make(create, link)
            users = {old: user_ids[name] for old, name in names.items()}
            ids: dict[tuple[type[Model], Any], Any] = {}
            for model in models:
                rows = sorted(grouped[model], key=lambda row: repr(row["pk"]).zfill(20))
                _taken(model, rows)
                for row in _self_ordered(model, rows):
                    obj = model(**_values(model, row, ids, users))
                    obj.save_base(raw=True)  # new id; times and figures kept as in the file
                    ids[(model, row["pk"])] = obj.pk
                if rows:
                    result.counts[str(model._meta.verbose_name_plural)] = len(rows)
            result.club = Club.objects.get(slug=data["club"])
            result.directors = sorted(result.club.memberships.filter(role="director")
                                      .values_list("user__username", flat=True))
            if dry_run:
                raise _DryRun
    except _DryRun:
        return result
    except IntegrityError as err:
        raise refusal(Invalid, Code.BAD_RECORDS, problem=str(err).splitlines()[0]) from None
    club_recompute(club_id=result.club.pk)
    return result


def _self_ordered(model: type[Model], rows: list[dict]) -> list[dict]:
    """Rows that point to rows of their own model (a version based on another) after those."""
    selfs = [f.name for f in model._meta.concrete_fields if f.is_relation and f.related_model is model]
    if not selfs:
        return rows
    order = TopologicalSorter({row["pk"]: {row["fields"].get(n) for n in selfs} - {None}
                               for row in rows})
    by_pk = {row["pk"]: row for row in rows}
    try:
        return [by_pk[pk] for pk in order.static_order() if pk in by_pk]
    except CycleError:
        _refuse(Code.BAD_FORMAT, f"the file's {model._meta.verbose_name_plural} refer to each other "
                "in a circle.")
        raise  # pragma: no cover


def _check_format(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise refusal(Invalid, Code.NOT_A_CLUB_EXPORT, format=FORMAT)
    if not isinstance(data.get("club"), str) or Club.objects.filter(slug=data["club"]).exists():
        raise refusal(Conflict, Code.CLUB_EXISTS, club=data.get("club"))


def _accounts_make(create: list[str], link: list[str]) -> dict[str, int]:
    """This site's account ids by username: new accounts without a usable password, no staff or
    superuser flag; linked ones as they are."""
    user_model = get_user_model()
    for name in create:
        user = user_model(username=name, is_staff=False, is_superuser=False, is_active=True)
        user.set_unusable_password()
        user.save()
    return dict(user_model.objects.filter(username__in=[*create, *link])
                .values_list("username", "pk"))


def _sequences_reset(models: Iterable[type[Model]]) -> None:
    """After rows with explicit ids, new rows must not reuse them (PostgreSQL sequences)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
