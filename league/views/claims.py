"""A person takes their player profile from a one-time link (league.services.claims): signed in,
with one button; otherwise by making an account on the spot (or signing in first)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from league.errors import Code
from league.forms.claims import ClaimAccountForm
from league.models import Player
from league.permissions import signed_in
from league.services.claims import (
    claim_accept,
    claim_accept_new_account,
    claim_find,
    claim_request,
)
from web.throttling import page_lookup_throttled


@require_http_methods(["GET", "HEAD", "POST"])
@page_lookup_throttled
def claim_page(request: HttpRequest, nonce: str) -> HttpResponse:
    try:
        claim = claim_find(nonce=nonce)
    except DomainError as refused:
        request.lookup_failed = True  # type: ignore[attr-defined]  # counted by the throttle
        return render(request, "league/claim.html", {"refusal": refused.message}, status=410)
    form = ClaimAccountForm(request.POST if "new_account" in request.POST else None)
    if request.method == "POST" and (request.user.is_authenticated or form.is_valid()):
        try:
            if request.user.is_authenticated:
                player = claim_accept(nonce=nonce, user=signed_in(request.user))
            else:
                player, user = claim_accept_new_account(
                    nonce=nonce, username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"])
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except DomainError as refused:
            if refused.code == Code.USERNAME_UNUSABLE:
                # Counted as a failed lookup: asking name after name is throttled like links.
                request.lookup_failed = True  # type: ignore[attr-defined]  # counted by the throttle
                form.add_error("username", refused.message)
                return render(request, "league/claim.html", {"claim": claim, "form": form},
                              status=400)
            return render(request, "league/claim.html",
                          {"claim": claim, "refusal": refused.message}, status=409)
        messages.success(
            request, f"The profile of {player.name} at {player.club.name} is yours now."
        )
        return redirect("my-page")
    return render(
        request,
        "league/claim.html",
        {"claim": claim, "form": form},
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


@require_POST
@login_required
def claim_request_page(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    """ "This is me" on a player's page: a director of the club approves it."""
    player = get_object_or_404(Player.objects.select_related("club"), club__slug=club, pk=pk)
    try:
        claim_request(player=player, user=signed_in(request.user))
        messages.success(
            request,
            f"Asked: a director of {player.club.name} will confirm that you are {player.name}.",
        )
    except DomainError as refused:
        messages.error(request, refused.message)
    return redirect(player.get_absolute_url())
