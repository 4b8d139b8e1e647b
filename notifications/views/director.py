"""The club's mail, for its directors: what was sent to whom, and what it said (in the embedded
mode, without a mail server, this is where a director reads it)."""

from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from league.models import Club
from league.permissions import check_directs_club
from notifications.models import SentMail

PER_PAGE = 25


@require_safe
def club_mail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
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
            "page": page,
            "mails": page.object_list,
            "to_files": backend.endswith("filebased.EmailBackend"),
            "folder": mailer.get("OPTIONS", {}).get("file_path", ""),
        },
    )
