"""The director's side of profile claims: invite a player by mail, or make a link (and its QR
code) to hand over; approve a person's request from the player's page."""

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from league.models import Club, Player, PlayerClaim
from league.permissions import check_directs_club
from league.services.claims import claim_approve, claim_create
from league.views.public import _qr_svg
from notifications.selectors import mail_outage_words, mail_refused
from notifications.services.claims import claim_invite_by_mail, claim_url


def _player(request: HttpRequest, slug: str, player_slug: str) -> tuple[Club, Player]:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    return club, get_object_or_404(Player, club=club, slug=player_slug)


@require_http_methods(["GET", "HEAD", "POST"])
def player_claims(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    club, player = _player(request, slug, player_slug)
    director = cast(User, request.user)  # _player checked that the user directs the club
    context: dict[str, object] = {"club": club, "player": player}
    if request.method == "POST":
        try:
            if request.POST.get("how") == "mail":
                claim = claim_invite_by_mail(
                    player=player, email=request.POST.get("email", "")[:254], by=director
                )
                _say_how_the_mail_went(request, claim, player)
                return redirect("director-player-claims", slug=club.slug, player_slug=player.slug)
            claim = claim_create(player=player, by=director)
            link = claim_url(claim=claim)
            context.update(link=link, qr=_qr_svg(link), claim=claim)
        except DomainError as refused:
            context["refusal"] = refused.message
    context["requests"] = PlayerClaim.objects.filter(
        player=player, requested_by__isnull=False, used_at=None, expires_at__gt=timezone.now()
    ).select_related("requested_by")
    return render(
        request,
        "notifications/player_claims.html",
        context,
        status=400 if "refusal" in context else 200,
    )


def _say_how_the_mail_went(request: HttpRequest, claim: PlayerClaim, player: Player) -> None:
    if mail_outage_words() is not None:  # the page's banner says why, since when
        messages.warning(request, f"The link for {player.name} goes out once the mail server "
                                  "takes mail again.")
    elif mail_refused(reason="invitation", key=f"claim:{claim.pk}", email=claim.email):
        messages.error(request, f"The mail server refused {claim.email}: check the address "
                                f"with {player.name}, or hand them a link instead.")
    else:
        messages.success(request, f"The link is on its way to {player.name}.")


@require_POST
def claim_request_approve(
    request: HttpRequest, slug: str, player_slug: str, claim_id: int
) -> HttpResponse:
    club, player = _player(request, slug, player_slug)
    claim = get_object_or_404(PlayerClaim, pk=claim_id, player=player)
    try:
        claim_approve(claim=claim, by=cast(User, request.user))  # _player checked the director
        messages.success(request, f"{player.name}'s profile is linked to the account that asked.")
    except DomainError as refused:
        messages.error(request, refused.message)
    return redirect("director-player-claims", slug=club.slug, player_slug=player.slug)
