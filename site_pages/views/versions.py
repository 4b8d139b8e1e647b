"""The version of what an event's public pages show (the event page, the wall), read in two
queries without loading the seating: the key their cached bytes are kept under and their ETag.

It changes with every result version (entered, confirmed, disputed, corrected), game status,
rotation and its status, table, seat (who sits where, for whom, which side), sit-out, entrant,
setting of the event, club, season or league, and every standings snapshot (a player renamed or
shown otherwise redraws the club's snapshots, so names follow). Per rotation each kind of row is
summed weighted by its id: any one change moves the sum."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Max,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import Http404

from analytics.views.page_cache import event_snapshot_times, row_fields
from games.models import ResultVersion
from league.models import Event, Game, Registration, Rotation, Seat, SitOut, Table
from league.permissions import visible_events
from league.selectors import entrants_filter


def _coded(field: str, choices: Any) -> Case:
    """A status as a number (its place among the choices), for weighted sums."""
    return Case(*(When(**{field: value}, then=Value(n + 1)) for n, value in enumerate(choices.values)),
                default=Value(0), output_field=IntegerField())


def _per_rotation(queryset: QuerySet, path: str, **aggregates: Any) -> dict[str, Subquery]:
    """One scalar subquery per aggregate of `queryset`'s rows of the rotation (`path` leads to it)."""
    rows = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return {f"v_{name}": Subquery(rows.annotate(value=aggregate).values("value")[:1])
            for name, aggregate in aggregates.items()}


def _weighted(expression: Any) -> Sum:
    return Sum(expression * F("pk"))


def _rotation_rows(event: Event) -> list[tuple]:
    annotations = {
        **_per_rotation(Table.objects.all(), "rotation", tables=Count("pk"),
                        table_numbers=_weighted(F("number"))),
        **_per_rotation(Seat.objects.all(), "rotation", seats=Count("pk"), seat_top=Max("pk"),
                        who=_weighted(F("player_id")), at=_weighted(F("table_id") * 16 + F("seat_number")),
                        sides=_weighted(F("side")),
                        standing_in=_weighted(Coalesce(F("substitute_for_id"), 0))),
        **_per_rotation(SitOut.objects.all(), "rotation", sit_outs=Count("pk"),
                        sitting=_weighted(F("player_id"))),
        **_per_rotation(Game.objects.all(), "table__rotation", games=Count("pk"),
                        game_status=_weighted(_coded("status", Game.Status)),
                        dealers=_weighted(F("first_dealer"))),
        **_per_rotation(ResultVersion.objects.all(), "game__table__rotation", versions=Count("pk"),
                        version_top=Max("pk"), confirmed_at=Max("confirmed_at"),
                        version_status=_weighted(_coded("status", ResultVersion.Status))),
    }
    rows = Rotation.objects.filter(event=event).order_by("number").annotate(**annotations)
    return list(rows.values_list("pk", "number", "status", *annotations))


def event_for_version(*, user: User | AnonymousUser, slug: str) -> Event:
    """The event the viewer may see (404 alike, as its pages), with its club, season and league,
    its snapshots' times and its entrants counted: one query."""
    entrants = (Registration.objects.filter(entrants_filter(), event=OuterRef("pk")).order_by()
                .values("event").annotate(n=Count("pk")).values("n")[:1])
    event = (visible_events(user).select_related("club", "season__league")
             .annotate(**event_snapshot_times(), entrants=Subquery(entrants))
             .filter(slug=slug).first())
    if event is None:
        raise Http404("No such event.")
    return event


def event_version(event: Event) -> tuple:
    """What the event's pages show, as a value (`event` from `event_for_version`)."""
    season = event.season
    return (row_fields(event), row_fields(event.club),
            row_fields(season) if season else None,
            row_fields(season.league) if season else None,
            event.standings_at, event.handicapped_at, event.entrants,  # type: ignore[attr-defined]
            _rotation_rows(event))

