"""The director's import of a night's move logs: choose the files (one game's log each), the
worker imports them as a job (`games.jobs`) while the page shows its progress bar, then what
became of each file. Each log goes to the game its players' seats (or its table code) name, as
`manage.py import_logs` does; a file imported before changes nothing."""

import uuid

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.jobs import LOGS_IMPORT, logs_import_job
from games.services.log_uploads import MAX_UPLOAD_FILES, logs_upload_keep
from jobs import selectors as job_selectors
from jobs.services.jobs import JobRefused
from league.models import Event
from league.permissions import check_directs_event, signed_in
from web.parsers import max_log_bytes


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    check_directs_event(request.user, event)
    return event


def _files(request: HttpRequest) -> list[tuple[str, bytes]] | str:
    """The chosen files, or what is wrong with them in words."""
    uploads = request.FILES.getlist("logs")
    if not uploads:
        return "Choose the move log files to import (one game's log each)."
    if len(uploads) > MAX_UPLOAD_FILES:
        return f"Choose at most {MAX_UPLOAD_FILES} files at a time."
    limit = max_log_bytes()
    too_big = [u.name for u in uploads if (u.size or 0) > limit]
    if too_big:
        return (f"{too_big[0]} is larger than {limit // 1000} KB, more than any move log; "
                "nothing was imported.")
    return [(u.name or "log.json", u.read()) for u in uploads]


@login_required
def logs_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"event": event, "max_files": MAX_UPLOAD_FILES}
    if request.method != "POST":
        return render(request, "games/logs_import.html", context)
    files = _files(request)
    if isinstance(files, str):
        return render(request, "games/logs_import.html", {**context, "error": files}, status=400)
    token = logs_upload_keep(event=event, files=files)
    try:
        job = logs_import_job(event=event, token=token, user=signed_in(request.user))
    except JobRefused as refused:  # the cache lost them at once
        return render(request, "games/logs_import.html", {**context, "error": str(refused)},
                      status=503)
    return redirect("director-logs-import-job", slug=event.slug, job_id=job.pk)


@login_required
def logs_import_job_page(request: HttpRequest, slug: str, job_id: uuid.UUID) -> HttpResponse:
    event = _event(request, slug)
    job = job_selectors.job_by_id(job_id=job_id)
    if job is None or job.kind != LOGS_IMPORT or job.params.get("event_id") != event.pk:
        raise Http404("No such import.")
    files = (job.result or {}).get("files") if isinstance(job.result, dict) else None
    imported = sum(1 for f in files if f["created"]) if files else 0
    return render(request, "games/logs_import_job.html",
                  {"event": event, "job": job, "files": files, "imported": imported,
                   "failed": sum(1 for f in files if not f["ok"]) if files else 0,
                   "progress": job_selectors.job_progress(job=job)})
