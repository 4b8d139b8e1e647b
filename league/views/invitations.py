"""An account's invitations to help run a club: listed, accepted or declined by the account
itself (never by the director who sent them)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import DomainError
from league import selectors, services
from league.permissions import signed_in


@login_required
def invitations_page(request: HttpRequest) -> HttpResponse:
    return render(request, "league/invitations.html",
                  {"invitations": selectors.invitations_for(user=request.user)})


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    answer = request.POST.get("answer")
    try:
        if answer == "accept":
            membership = services.invitation_accept(invitation_id=invitation_id, user=signed_in(request.user))
            messages.success(request, f"You are now a {membership.get_role_display().lower()} of "
                             f"{membership.club.name}.")
            return redirect("director-club", slug=membership.club.slug) \
                if membership.role == "director" else redirect("invitations")
        if answer == "decline":
            services.invitation_decline(invitation_id=invitation_id, user=signed_in(request.user))
            messages.success(request, "Invitation declined; nothing changed.")
        else:
            messages.error(request, "Choose Accept or Decline.")
    except DomainError as error:
        messages.error(request, error.message)
    return redirect("invitations")
