"""Invitations to a club's directors and scorers: a director invites by username, and the
account becomes a member only when it accepts (issue 22, finding 11 e).

Nothing a director sees depends on whether the username exists: the invitation is kept under
the username typed (with the account, when there is one) and answered "sent" either way.
"""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Forbidden, Invalid, NotFound
from league.errors import Code, refusal
from league.models import Club, Invitation, Membership
from league.services.audit import audit_record
from league.services.clubs import membership_add

MAX_USERNAME = 150


def _role(role: str) -> str:
    if role not in Membership.Role.values:
        raise refusal(Invalid, Code.BAD_INVITATION_ROLE, field='role')
    return role


def membership_invite(*, club: Club, username: str, role: str, by: User | None = None) -> Invitation:
    """Invite `username` to be a `role` of the club. The same answer whether or not an account
    has that username, whether it is already a member, or was invited before: an invitation
    that stands (a repeat changes nothing, and one that was declined is not shown again)."""
    role = _role(role)
    username = (username or "").strip()
    if not username or len(username) > MAX_USERNAME:
        raise refusal(Invalid, Code.BAD_USERNAME, field='username')
    with transaction.atomic():
        invitation, created = Invitation.objects.get_or_create(
            club=club, username=username, role=role,
            defaults={"user": User.objects.filter(username=username).first(), "invited_by": by},
        )
        if created:
            audit_record(club=club, user=by, action="membership_invite",
                         summary=f"Invited {username} to be a {role}.")
    return invitation


def _own(invitation_id: int, user: User) -> Invitation:
    invitation = (Invitation.objects.select_for_update().select_related("club")
                  .filter(pk=invitation_id, declined_at__isnull=True).first())
    if invitation is None or invitation.user_id != user.pk:
        raise refusal(NotFound, Code.NO_INVITATION)
    return invitation


@transaction.atomic
def invitation_accept(*, invitation_id: int, user: User) -> Membership:
    """The invited account accepts: it becomes a member with the role; the invitation is done."""
    invitation = _own(invitation_id, user)
    membership = membership_add(club=invitation.club, user=user, role=invitation.role)
    audit_record(club=invitation.club, user=user, action="membership_accept",
                 summary=f"{user.username} accepted to be a {invitation.role}.")
    invitation.delete()
    return membership


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: User) -> None:
    """The invited account declines: nothing changes for the club, and the invitation is no
    longer shown to the account (the director's page still says "sent")."""
    invitation = _own(invitation_id, user)
    invitation.declined_at = timezone.now()
    invitation.save(update_fields=["declined_at"])


@transaction.atomic
def invitation_withdraw(*, club: Club, invitation_id: int, by: User | None = None) -> None:
    """A director takes back an invitation of their club that has not been accepted."""
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    if invitation is None:
        raise refusal(NotFound, Code.INVITATION_UNKNOWN)
    if invitation.club_id != club.pk:
        raise refusal(Forbidden, Code.INVITATION_OF_ANOTHER_CLUB)
    audit_record(club=club, user=by, action="membership_withdraw",
                 summary=f"Withdrew the invitation of {invitation.username} as {invitation.role}.")
    invitation.delete()
