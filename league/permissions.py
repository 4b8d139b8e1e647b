"""Who may do what. One place for role checks; views, API permissions and services call these.

anyone: reads public events. scorer: enters results for a club's events. director: runs the
club's events. Staff (admin) may do everything.
"""

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from league.models import Club, Event, Membership


def _has_role(user: User | AnonymousUser, club_id: int, roles: tuple[str, ...]) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(user=user, club_id=club_id, role__in=roles).exists()


def is_director(user: User | AnonymousUser, club: Club | int) -> bool:
    club_id = club if isinstance(club, int) else club.pk
    return _has_role(user, club_id, (Membership.Role.DIRECTOR,))


def is_scorer(user: User | AnonymousUser, club: Club | int) -> bool:
    """Directors may do everything a scorer may."""
    club_id = club if isinstance(club, int) else club.pk
    return _has_role(user, club_id, (Membership.Role.SCORER, Membership.Role.DIRECTOR))


def directed_clubs(user: User | AnonymousUser) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__user=user, memberships__role=Membership.Role.DIRECTOR
    ).distinct()


def visible_events(user: User | AnonymousUser | None) -> QuerySet[Event]:
    """What people may see: the one rule behind every page, chart, CSV and API that shows
    events or their results. Anyone (None: not signed in) sees public events; a club's directors
    and scorers also its private ones; staff see everything."""
    events = Event.objects.all()
    if user is None or not user.is_authenticated:
        return events.filter(is_public=True)
    if user.is_staff:
        return events
    return events.filter(Q(is_public=True) | Q(club__memberships__user=user)).distinct()


def can_view_event(user: User | AnonymousUser | None, event: Event) -> bool:
    """`visible_events` for one event already loaded (no query for a public one)."""
    if event.is_public:
        return True
    return user is not None and _has_role(
        user, event.club_id, (Membership.Role.SCORER, Membership.Role.DIRECTOR)
    )


# Checks for views: they raise what the page or API should answer. A private event answers 404
# to those who may not see it (alike for unknown events, so its existence is not revealed); one
# they may see but not run answers 403.


def check_can_view_event(user: User | AnonymousUser, event: Event) -> None:
    if not can_view_event(user, event):
        raise Http404("No such event.")


def check_directs_event(user: User | AnonymousUser, event: Event) -> None:
    check_can_view_event(user, event)
    if not is_director(user, event.club_id):
        raise PermissionDenied("Only a director of this club may do this.")


def check_directs_club(user: User | AnonymousUser, club: Club | int) -> None:
    if not is_director(user, club):
        raise PermissionDenied("Only a director of this club may do this.")


def signed_in(user: User | AnonymousUser) -> User:
    """The account of a request that a sign-in check (`login_required`, a director check) has
    let through; refused like the checks refuse when there is none."""
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user
