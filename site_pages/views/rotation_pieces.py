"""An event's rotations, each drawn once per version of what it shows and kept in the cache
apart from the others (the event page's seating, the wall's tables). A result at one table
draws that rotation again; the rotations already played are read from the cache, and only the
seating of the rotations not kept is loaded from the database: at 100 tables x 4 rotations the
whole night's seating was most of a wall's drawing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.safestring import SafeString

from analytics.views.page_cache import cache_get_many, cache_set_many, page_key
from league import selectors
from league.models import Event, Player, Rotation

DrawRotations = Callable[[list[Rotation]], dict[int, str]]


def club_names(event: Event) -> list[tuple]:
    """Every player of the event's club as a page names them: a rename draws the pieces again."""
    return list(Player.objects.filter(club=event.club_id).order_by("pk")
                .values_list("pk", "slug", "name", "name_shown"))


def rotations_seated(rotations: Sequence[Rotation]) -> list[Rotation]:
    """The given rotations again, with their tables, seats, players, games and sit-outs."""
    if not rotations:
        return []
    return list(selectors.rotations_with_seating().filter(pk__in=[r.pk for r in rotations]))


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
    drawn = draw(rotations_seated(missing)) if missing else {}
    if drawn:
        cache_set_many({keys[pk]: html for pk, html in drawn.items()})
    # Drawn by an autoescaping template (or kept from one): safe as it is.
    return {pk: SafeString(kept[key] if key in kept else drawn[pk])  # nosec B703, B308
            for pk, key in keys.items()}
