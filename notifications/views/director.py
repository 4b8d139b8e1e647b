"""The club's mail, for its directors: what was sent to whom, and what it said (in the embedded
mode, without a mail server, this is where a director reads it)."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from league.models import Club
from league.permissions import check_directs_club
from league.time_zones import club_zone_activate
from notifications import selectors
from notifications.models import SentMail
from notifications.services.club_mail import club_mail_reminders_set

PER_PAGE = 25


@require_http_methods(["GET", "HEAD", "POST"])
def club_mail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    club_zone_activate(club)
    choice = selectors.club_mail_choice(club=club)
    refusal = ""
    if request.method == "POST":
        raw = request.POST.get("reminder_hours", "").strip()
        try:
            hours = int(raw) if raw.isdigit() and len(raw) < 6 else -1
            choice = club_mail_reminders_set(club=club, hours=hours, by=request.user)
        except DomainError as refused:
            refusal = refused.message
        else:
            messages.success(request, f"Reminders go out {choice.reminder_hours} hours before "
                             "each night." if choice.reminder_hours else "No reminders go out.")
            return redirect("director-club-mail", slug=club.slug)
    sent = (
        SentMail.objects.filter(contact__player__club=club)
        .select_related("contact__player")
        .order_by("-created_at", "-pk")
    )
    page = Paginator(sent, PER_PAGE).get_page(request.GET.get("page"))
    mailer: dict[str, Any] = settings.MAILERS["default"]
    backend = str(mailer["BACKEND"])
    return render(
        request,
        "notifications/club_mail.html",
        {
            "club": club,
            "choice": choice,
            "refusal": refusal,
            "page": page,
            "mails": page.object_list,
            "to_files": backend.endswith("filebased.EmailBackend"),
            "folder": mailer.get("OPTIONS", {}).get("file_path", ""),
        },
        status=400 if refusal else 200,
    )
