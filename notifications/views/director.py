"""The club's mail, for its directors: what was sent to whom, and what it said (in the embedded
mode, without a mail server, this is where a director reads it)."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from league.models import Club
from league.permissions import check_directs_club
from league.time_zones import club_zone_activate
from notifications.models import ClubMail, SentMail

PER_PAGE = 25


MAX_REMINDER_HOURS = 14 * 24


@require_http_methods(["GET", "HEAD", "POST"])
def club_mail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    club_zone_activate(club)
    choice, _ = ClubMail.objects.get_or_create(club=club)
    refusal = ""
    if request.method == "POST":
        raw = request.POST.get("reminder_hours", "").strip()
        if raw.isdigit() and int(raw) <= MAX_REMINDER_HOURS:
            choice.reminder_hours = int(raw)
            choice.save(update_fields=["reminder_hours"])
            messages.success(request, "Reminders go out {} before each night.".format(
                f"{choice.reminder_hours} hours" if choice.reminder_hours else "never"))
            return redirect("director-club-mail", slug=club.slug)
        refusal = f"Give a whole number of hours from 0 (no reminders) to {MAX_REMINDER_HOURS}."
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
