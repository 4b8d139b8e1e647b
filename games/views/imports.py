"""The director's import of past results: upload a spreadsheet, read the preview (what will be
created, every problem in words), say once what unknown headers hold and who close names are,
then import. The file waits in the cache between the steps (an hour), keyed by a random token."""

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.errors import DomainError
from games import spreadsheets
from games.services import imports
from league.models import Club
from league.permissions import check_directs_club, signed_in
from web.http import refusal_status

PENDING_SECONDS = 3600
ORDERS = {"": None, "day": True, "month": False}


def _pending_key(club: Club, token: str) -> str:
    return f"results-import:{club.pk}:{token}"


def _upload(request: HttpRequest, club: Club) -> tuple[str, str, bytes] | str:
    """(token, name, bytes) of a new upload or of the one waiting under the posted token, or
    what is wrong in words."""
    upload = request.FILES.get("file")
    if upload is not None:
        # An uploaded file always has its size and name (the stubs allow None for any File).
        if (upload.size or 0) > imports.MAX_IMPORT_BYTES:
            return f"The file is larger than {imports.MAX_IMPORT_BYTES // 1_000_000} MB."
        token = secrets.token_urlsafe(16)
        name, data = upload.name or "", upload.read()
        cache.set(_pending_key(club, token), (name, data), PENDING_SECONDS)
        return token, name, data
    token = str(request.POST.get("token", ""))[:40]
    pending = cache.get(_pending_key(club, token)) if token else None
    if pending is None:
        return "Choose a spreadsheet (CSV, XLSX or ODS) to import."
    name, data = pending
    return token, name, data


def _choices(request: HttpRequest, plan_names: list[str]) -> dict[str, str]:
    return {name: str(request.POST.get(f"name-{i}", ""))[:20] for i, name in enumerate(plan_names)
            if request.POST.get(f"name-{i}")}


@login_required
def results_import(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    context: dict[str, Any] = {"club": club, "orders": [("", "As the file shows (or as told before)"),
                               ("day", "Day first (3/4 is 3 April)"),
                               ("month", "Month first (3/4 is 4 March)")],
                               "max_mb": imports.MAX_IMPORT_BYTES // 1_000_000}
    if request.method != "POST":
        return render(request, "games/results_import.html", context)
    found = _upload(request, club)
    if isinstance(found, str):
        context["error"] = found
        return render(request, "games/results_import.html", context, status=400)
    token, name, data = found
    order = ORDERS.get(str(request.POST.get("order", "")))
    season = str(request.POST.get("season", "")).strip()[:120]
    close = [n for n in request.POST.getlist("close_name")][:200]
    try:
        if request.POST.get("action") == "map":
            headers = spreadsheets.file_headers(spreadsheets.read_workbook(data, name))
            unknown = [str(h) for h in request.POST.getlist("header")][:100]
            mapping = {h: str(request.POST.get(f"kind-{i}", "")) for i, h in enumerate(unknown)}
            imports.header_mapping_remember(club=club, headers=headers,
                                            mapping={h: k for h, k in mapping.items() if k})
        plan = imports.results_import(
            club=club, file_name=name, data=data, season_name=season or None,
            user=signed_in(request.user),  # a director (checked above) is signed in
            day_first=order, choices=_choices(request, close),
            dry_run=request.POST.get("action") != "commit")
    except (DomainError, spreadsheets.Unreadable) as refused:
        context["error"] = getattr(refused, "message", str(refused))
        return render(request, "games/results_import.html", context,
                      status=refusal_status(refused) if isinstance(refused, DomainError) else 400)
    if plan.imported or plan.already:
        cache.delete(_pending_key(club, token))
        messages.success(request, plan.summary())
        return redirect("director-results-import", slug=club.slug)
    context.update(plan=plan, token=token, season=season,
                   order=str(request.POST.get("order", "")),
                   close=[(n, offers, request.POST.get(f"name-{close.index(n)}", "")
                           if n in close else "") for n, offers in plan.close_names.items()],
                   kinds=list(spreadsheets.KIND_WORDS.items()))
    return render(request, "games/results_import.html", context)
