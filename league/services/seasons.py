"""Leagues and their seasons (how nights add up to a season's standings)."""

import datetime
from typing import Any

from core.errors import Invalid
from league.errors import Code, refusal
from league.models import Club, League, Season
from league.services._common import (
    apply_changes,
    apply_given,
    refuse_unknown,
    require_name,
    unique_slug,
    unsaved_copy,
)


def league_create(*, club: Club, name: str, description: str = "") -> League:
    name = require_name(name, "league")
    return League.objects.create(
        club=club, name=name, slug=unique_slug(club.leagues.all(), name), description=description
    )


def league_update(*, league: League, name: str | None = None, description: str | None = None) -> League:
    return apply_given(league, "league", name=name, description=description)


MAX_PROMOTION_PLACES = 20  # as the divisions page's form allows


def _check_season(season: Season) -> None:
    if season.ends_on and season.ends_on < season.starts_on:
        raise refusal(Invalid, Code.BAD_DATES, field='ends_on')
    if season.aggregate not in Season.Aggregate.values:
        raise refusal(Invalid, Code.BAD_AGGREGATE, field='aggregate', choices=', '.join(Season.Aggregate.values))
    if season.best_n_nights is not None and season.best_n_nights < 1:
        raise refusal(Invalid, Code.BAD_BEST_N, field='best_n_nights')
    if not 0 <= season.promotion_places <= MAX_PROMOTION_PLACES:
        raise refusal(Invalid, Code.BAD_PROMOTION_PLACES, field='promotion_places',
                      most=MAX_PROMOTION_PLACES)


def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    aggregate: str = Season.Aggregate.SUM,
    best_n_nights: int | None = None,
    min_attendance: int = 0,
    season_aware_seating: bool = True,
) -> Season:
    name = require_name(name, "season")
    season = Season(
        league=league, name=name, slug=unique_slug(league.seasons.all(), name),
        starts_on=starts_on, ends_on=ends_on, aggregate=aggregate,
        best_n_nights=best_n_nights, min_attendance=min_attendance,
        season_aware_seating=season_aware_seating,
    )
    _check_season(season)
    season.save()
    return season


SEASON_FIELDS = (
    "name", "starts_on", "ends_on", "aggregate", "best_n_nights", "min_attendance",
    "season_aware_seating", "promotion_places",
)


def season_update(*, season: Season, **changes: Any) -> Season:
    refuse_unknown(changes, SEASON_FIELDS)
    if "name" in changes:
        changes["name"] = require_name(changes["name"], "season")
    candidate = unsaved_copy(season, changes)
    _check_season(candidate)
    return apply_changes(season, changes)
