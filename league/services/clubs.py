"""Clubs and their directors and scorers."""

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core.errors import Invalid
from league.errors import Code, refusal
from league.models import Club, League, Membership
from league.services._common import (
    apply_changes,
    apply_given,
    refuse_unknown,
    require_name,
    unique_slug,
)
from league.services.audit import audit_record
from league.signals import club_ladder_changed, league_settings_changed
from league.time_zones import default_time_zone, is_time_zone

# What the league's settings page changes: one name per field, added to as settings are added.
LEAGUE_SETTINGS_FIELDS = (
    "substitute_counts_for",
    "substitute_cap",
    "handicap_formula", "handicap_base", "handicap_percent", "handicap_cap", "handicap_nights",
    "handicap_applies_to",
)


def _time_zone(time_zone: str) -> str:
    time_zone = (time_zone or "").strip()
    if not is_time_zone(time_zone):
        raise refusal(Invalid, Code.BAD_TIME_ZONE, field="time_zone", time_zone=time_zone or "(none)")
    return time_zone


@transaction.atomic
def club_create(*, name: str, director: User | None = None, description: str = "",
                time_zone: str | None = None) -> Club:
    """A club; the user who creates it becomes its first director. Its nights are in
    `time_zone` (the site's `TIME_ZONE` when not given)."""
    name = require_name(name, "club")
    club = Club.objects.create(
        name=name, slug=unique_slug(Club.objects.all(), name, fallback="club"), description=description,
        time_zone=_time_zone(default_time_zone() if time_zone is None else time_zone),
    )
    if director is not None:
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club


def club_update(*, club: Club, name: str | None = None, description: str | None = None,
                time_zone: str | None = None) -> Club:
    """Change the club's name, description or time zone. A new zone moves what is read in it
    (reminders, calendars, the times of its pages), not the nights' typed dates and times."""
    return apply_given(club, "club", name=name, description=description,
                       time_zone=None if time_zone is None else _time_zone(time_zone))


def membership_add(*, club: Club, user: User, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise refusal(Invalid, Code.BAD_ROLE, roles=', '.join(Membership.Role.values))
    membership, _ = Membership.objects.get_or_create(club=club, user=user, role=role)
    return membership


@transaction.atomic
def league_settings_update(*, league: League, by: User | AnonymousUser | None, **changes: Any) -> League:
    """Change how the league runs (`LEAGUE_SETTINGS_FIELDS`): each value is checked against the
    model's choices and ranges; a refusal changes nothing. Logged in the club's history."""
    refuse_unknown(changes, LEAGUE_SETTINGS_FIELDS)
    changed = {name: value for name, value in changes.items() if getattr(league, name) != value}
    if not changed:
        return league
    apply_changes(league, changed)
    audit_record(club=league.club, user=by, action="league_settings",
                 summary=f"Changed the settings of the league {league.name}.",
                 data={"changes": {name: str(value) for name, value in changed.items()}})
    club_id, league_id = league.club_id, league.pk
    transaction.on_commit(lambda: league_settings_changed.send(
        sender=League, club_id=club_id, league_id=league_id))
    return league


def club_ladder_share(*, club: Club, share: bool, by: User | AnonymousUser | None) -> Club:
    """Share the club's players' ratings on the cross-club ladder, or stop sharing them. Logged
    in the club's history. Stopping takes the club's players off the ladder in the same
    transaction (`club_ladder_changed`, which the analytics answer); either way the ladder is
    computed again after commit."""
    with transaction.atomic():
        # (FOR NO KEY UPDATE, as the ladder's store takes: the two never cross.)
        club = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        if club.ladder_shared == share:
            return club
        club.ladder_shared = share
        club.save(update_fields=["ladder_shared"])
        summary = (f"{club.name} now shares its players' ratings on the cross-club ladder."
                   if share else
                   f"{club.name} no longer shares its players' ratings on the cross-club "
                   "ladder: its players were taken off it.")
        audit_record(club=club, user=by, action="club_ladder", summary=summary,
                     data={"shared": share})
        club_ladder_changed.send(sender=Club, club_id=club.pk, shared=share)
    return club
