"""The director's import of past results: upload a spreadsheet, read the preview (what will be
created, every problem in words), say once what unknown headers hold and who close names are,
then import: the worker stores it as a job (`games.jobs`) while the page shows its progress bar.
The file waits in the cache between the steps (an hour), keyed by a random token."""

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from core.errors import DomainError
from games import spreadsheets
from games.jobs import RESULTS_IMPORT, results_import_job
from games.services import imports
from jobs import selectors as job_selectors
from jobs.services.jobs import JobRefused
from league.models import Club
from league.permissions import check_directs_club, signed_in
from web.http import refusal_status

ORDERS = {"": None, "day": True, "month": False}


def _upload(request: HttpRequest, club: Club) -> tuple[str, str, bytes] | str:
    """(token, name, bytes) of a new upload or of the one waiting under the posted token, or
    what is wrong in words."""
    upload = request.FILES.get("file")
    if upload is not None:
        # An uploaded file always has its size and name (the stubs allow None for any File).
        if (upload.size or 0) > imports.MAX_IMPORT_BYTES:
            return f"The file is larger than {imports.MAX_IMPORT_BYTES // 1_000_000} MB."
        name, data = upload.name or "", upload.read()
        token = imports.upload_keep(club=club, file_name=name, data=data)
        return token, name, data
    token = str(request.POST.get("token", ""))[:40]
    pending = imports.upload_get(club=club, token=token)
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
    if request.POST.get("action") == "commit":
        try:
            job = results_import_job(club=club, token=token, user=signed_in(request.user),
                                     season=season, day_first=order,
                                     choices=_choices(request, close))
        except JobRefused as refused:
            context["error"] = str(refused)
            return render(request, "games/results_import.html", context, status=400)
        return redirect("director-results-import-job", slug=club.slug, job_id=job.pk)
    try:
        if request.POST.get("action") == "map":
            headers = spreadsheets.file_headers(
                spreadsheets.read_workbook(data, name, spreadsheets.PREVIEW))
            unknown = [str(h) for h in request.POST.getlist("header")][:100]
            mapping = {h: str(request.POST.get(f"kind-{i}", "")) for i, h in enumerate(unknown)}
            imports.header_mapping_remember(club=club, headers=headers,
                                            mapping={h: k for h, k in mapping.items() if k})
        plan = imports.results_import(
            club=club, file_name=name, data=data, season_name=season or None,
            user=signed_in(request.user),  # a director (checked above) is signed in
            day_first=order, choices=_choices(request, close), dry_run=True,
            limits=spreadsheets.PREVIEW)  # bounded before reading: never 30 s of a web worker
    except (DomainError, spreadsheets.Unreadable) as refused:
        imports.upload_forget(club=club, token=token)  # a file refused is not kept
        context["error"] = getattr(refused, "message", str(refused))
        return render(request, "games/results_import.html", context,
                      status=refusal_status(refused) if isinstance(refused, DomainError) else 400)
    context.update(plan=plan, token=token, season=season,
                   order=str(request.POST.get("order", "")),
                   close=[(n, offers, request.POST.get(f"name-{close.index(n)}", "")
                           if n in close else "") for n, offers in plan.close_names.items()],
                   kinds=list(spreadsheets.KIND_WORDS.items()))
    return render(request, "games/results_import.html", context)


@login_required
@require_safe
def results_import_job_page(request: HttpRequest, slug: str, job_id: uuid.UUID) -> HttpResponse:
    """The import's progress bar, then what was imported (or why nothing was)."""
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    job = job_selectors.job_by_id(job_id=job_id)
    if job is None or job.kind != RESULTS_IMPORT or job.params.get("club_id") != club.pk:
        raise Http404("No such import.")
    result = job.result if isinstance(job.result, dict) else None
    return render(request, "games/results_import_job.html",
                  {"club": club, "job": job, "result": result,
                   "progress": job_selectors.job_progress(job=job)})
