"""An event's rotations, each drawn once per version of what it shows and kept in the cache
apart from the others (the event page's seating, the wall's tables). A result at one table
draws that rotation again; the rotations already played are read from the cache, and only the
seating of the rotations not kept is loaded from the database: at 100 tables x 4 rotations the
whole night's seating was most of a wall's drawing."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from django.utils.safestring import SafeString

from analytics.views.page_cache import cache_get_many, cache_set_many, page_key
from league import selectors
from league.models import Event, Game, Player, Rotation, Table

DrawRotations = Callable[[list[Rotation]], dict[int, str]]


def club_names(event: Event) -> list[tuple]:
    """Every player of the event's club as a page names them: a rename draws the pieces again."""
    return list(Player.objects.filter(club=event.club_id).order_by("pk")
                .values_list("pk", "slug", "name", "name_shown"))


# Rotations seated (tables, seats, players, sit-outs) kept in each web process: a night shows
# a few at once, and its results change the games, not the seating.
SEATINGS_KEPT = 16
_seatings: OrderedDict[tuple, Rotation] = OrderedDict()
# The version rows of a rotation that say who sits where (site_pages.views.versions): the
# rotation itself, its seats, tables and sit-outs; not its games and result versions.
SEATING_ROWS = ("r", "s", "t", "o")


def rotations_seated(rotations: Sequence[Rotation], rows: dict[int, list[tuple]],
                     names: list[tuple]) -> list[Rotation]:
    """The given rotations again, with their tables, seats, players, games and sit-outs. The
    seating of a rotation is kept in this process under its seating rows of the event's version
    (`rows`) and the club's names (`names`), so a change of either reads it again; the games
    are read every time (one query): results change them."""
    keys = {r.pk: (r.pk, tuple(row for row in rows.get(r.pk, ()) if row[0] in SEATING_ROWS),
                   tuple(names)) for r in rotations}
    kept = [pk for pk, key in keys.items() if key in _seatings]
    missing = [pk for pk in keys if pk not in kept]
    # Read whole (games too) when not kept; the games alone when kept.
    loaded = list(selectors.rotations_with_seating().filter(pk__in=missing)) if missing else []
    for rotation in loaded:
        _seatings[keys[rotation.pk]] = rotation
    if kept:
        _games_attached([_seatings[keys[pk]] for pk in kept])
    seated = []
    for r in rotations:
        found = _seatings.get(keys[r.pk])
        if found is not None:  # None: gone from the database since the version was read
            _seatings.move_to_end(keys[r.pk])
            seated.append(found)
    while len(_seatings) > SEATINGS_KEPT:
        _seatings.popitem(last=False)
    return seated


def _games_attached(rotations: list[Rotation]) -> None:
    """Each table's game as it is now (the games of all these rotations in one query)."""
    games = {g.table_id: g for g in Game.objects.filter(table__rotation__in=[r.pk for r in rotations])}
    for rotation in rotations:
        for table in rotation.tables.all():
            Table.game.related.set_cached_value(table, games.get(table.pk))


def rotation_pieces(*, event: Event, rotations: Sequence[Rotation], version_rows: list[tuple],
                    kind: str, draw: DrawRotations) -> dict[int, SafeString]:
    """Rotation id → its HTML: kept under the rotation's rows of the event's version
    (`site_pages.views.versions`) and the club's names; `draw` is given only the rotations not
    kept, with their seating loaded (`rotations_seated`), and answers each one's HTML."""
    rows: dict[int, list[tuple]] = {}
    for row in version_rows:
        rows.setdefault(row[1], []).append(row)
    names = club_names(event)
    keys = {r.pk: page_key(kind, event.club.slug, event.slug, r.status, rows.get(r.pk), names)
            for r in rotations}
    kept = cache_get_many(list(keys.values()))
    missing = [r for r in rotations if keys[r.pk] not in kept]
    drawn = draw(rotations_seated(missing, rows, names)) if missing else {}
    if drawn:
        cache_set_many({keys[pk]: html for pk, html in drawn.items()})
    # Drawn by an autoescaping template (or kept from one): safe as it is.
    return {pk: SafeString(kept[key] if key in kept else drawn[pk])  # nosec B703, B308
            for pk, key in keys.items()}
