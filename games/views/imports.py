"""The director's import of past results: upload a spreadsheet, read the preview (what will be
created, every problem in words), say once what unknown headers hold and who close names are,
then import: the worker stores it as a job (`games.jobs`) while the page shows its progress bar.
A file over the preview's bounds (`spreadsheets.PREVIEW`) is previewed by a job too, within the
import's: no request reads more than the preview's bounds. The file waits in the cache between
the steps (an hour), keyed by a random token."""

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from core.errors import DomainError
from games import spreadsheets
from games.jobs import (
    RESULTS_IMPORT,
    RESULTS_PREVIEW,
    Preview,
    results_import_job,
    results_preview_job,
)
from games.services import imports
from jobs import selectors as job_selectors
from jobs.services.jobs import JobRefused
from league.models import Club
from league.permissions import check_directs_club, signed_in
from web.http import refusal_status

ORDERS = {"": None, "day": True, "month": False}
KINDS = list(spreadsheets.KIND_WORDS.items())


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
    mapping: dict[str, str] = {}
    if request.POST.get("action") == "map":
        unknown = [str(h) for h in request.POST.getlist("header")][:100]
        mapping = {h: k for i, h in enumerate(unknown) if (k := str(request.POST.get(f"kind-{i}", "")))}
    try:
        if request.POST.get("action") == "map":
            headers = spreadsheets.file_headers(
                spreadsheets.read_workbook(data, name, spreadsheets.PREVIEW))
            imports.header_mapping_remember(club=club, headers=headers, mapping=mapping)
        plan = imports.results_import(
            club=club, file_name=name, data=data, season_name=season or None,
            user=signed_in(request.user),  # a director (checked above) is signed in
            day_first=order, choices=_choices(request, close), dry_run=True,
            limits=spreadsheets.PREVIEW)  # bounded before reading: never 30 s of a web worker
    except (imports.OverLimits, spreadsheets.TooLarge):
        # Read no further here: a job reads it within the import's bounds.
        return _preview_in_job(request, club, context, found,
                               season=season, order=order, choices=_choices(request, close),
                               mapping=mapping)
    except (DomainError, spreadsheets.Unreadable) as refused:
        imports.upload_forget(club=club, token=token)  # a file refused is not kept
        context["error"] = getattr(refused, "message", str(refused))
        return render(request, "games/results_import.html", context,
                      status=refusal_status(refused) if isinstance(refused, DomainError) else 400)
    context.update(plan=plan, token=token, season=season,
                   order=str(request.POST.get("order", "")),
                   close=[(n, offers, request.POST.get(f"name-{close.index(n)}", "")
                           if n in close else "") for n, offers in plan.close_names.items()],
                   kinds=KINDS)
    return render(request, "games/results_import.html", context)


def _preview_in_job(request: HttpRequest, club: Club, context: dict[str, Any],
                    found: tuple[str, str, bytes], *, season: str, order: bool | None,
                    choices: dict[str, str], mapping: dict[str, str]) -> HttpResponse:
    """A file over the preview's bounds: refused at once in words when it states sizes over
    the import's too (no cell read), else previewed by a job whose page shows the preview."""
    token, name, data = found
    try:
        spreadsheets.stated_sizes_check(data, name, spreadsheets.IMPORT)
        job = results_preview_job(club=club, token=token, user=signed_in(request.user),
                                  season=season, day_first=order, choices=choices,
                                  mapping=mapping)
    except (spreadsheets.Unreadable, JobRefused) as refused:
        imports.upload_forget(club=club, token=token)  # a file refused is not kept
        context["error"] = str(refused)
        return render(request, "games/results_import.html", context, status=400)
    return redirect("director-results-import-job", slug=club.slug, job_id=job.pk)


def _preview_context(job: Any, result: dict[str, Any]) -> dict[str, Any]:
    """What the import page's preview shows, from a preview job's result and its params."""
    params = job.params
    plan = Preview.of(result)
    choices = params.get("choices") or {}
    order = {None: "", True: "day", False: "month"}[params.get("day_first")]
    return {"plan": plan, "token": params["token"], "season": params.get("season", ""),
            "order": order, "kinds": KINDS,
            "close": [(n, offers, choices.get(n, "")) for n, offers in plan.close_names.items()]}


@login_required
@require_safe
def results_import_job_page(request: HttpRequest, slug: str, job_id: uuid.UUID) -> HttpResponse:
    """The import's progress bar, then what was imported (or why nothing was)."""
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    job = job_selectors.job_by_id(job_id=job_id)
    if (job is None or job.kind not in (RESULTS_IMPORT, RESULTS_PREVIEW)
            or job.params.get("club_id") != club.pk):
        raise Http404("No such import.")
    result = job.result if isinstance(job.result, dict) else None
    if job.kind == RESULTS_PREVIEW and result is not None:
        return render(request, "games/results_import.html",
                      {"club": club, **_preview_context(job, result)})
    return render(request, "games/results_import_job.html",
                  {"club": club, "job": job, "result": result,
                   "progress": job_selectors.job_progress(job=job)})
