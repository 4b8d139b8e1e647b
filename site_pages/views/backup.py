"""The director's download of the club's full backup: a button on the director's club page
starts the job (`site_pages.backup_jobs`), this page shows its progress bar and then the link
to the JSON file. Only the club's directors."""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from jobs import selectors as job_selectors
from jobs.models import Job
from league.models import Club
from league.permissions import check_directs_club
from league.time_zones import club_zone_activate
from site_pages import backup_jobs


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    check_directs_club(request.user, club)
    club_zone_activate(club)
    return club


def _job(club: Club, job_id: uuid.UUID) -> Job:
    job = job_selectors.job_by_id(job_id=job_id)
    if job is None or job.kind != backup_jobs.CLUB_BACKUP or job.params.get("club_id") != club.pk:
        raise Http404("No such backup.")
    return job


@login_required
@require_POST
def backup_start(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    job = backup_jobs.club_backup_job(club=club)
    return redirect("director-club-backup", slug=club.slug, job_id=job.pk)


@login_required
@require_safe
def backup_page(request: HttpRequest, slug: str, job_id: uuid.UUID) -> HttpResponse:
    club = _club(request, slug)
    job = _job(club, job_id)
    context = {
        "club": club,
        "job": job,
        "progress": job_selectors.job_progress(job=job),
        "ready": backup_jobs.backup_file(job=job) is not None,
        "bytes": (job.result or {}).get("bytes") if isinstance(job.result, dict) else None,
    }
    return render(request, "site_pages/club_backup.html", context)


@login_required
@require_safe
def backup_download(request: HttpRequest, slug: str, job_id: uuid.UUID) -> FileResponse:
    club = _club(request, slug)
    path = backup_jobs.backup_file(job=_job(club, job_id))
    if path is None:
        raise Http404("This backup is not ready (or no longer kept): make a new one.")
    response = FileResponse(
        path.open("rb"),
        content_type="application/json",
        as_attachment=True,
        filename=f"{club.slug}-backup.json",
    )
    response["Cache-Control"] = "no-store"  # the club's whole record: not kept by browsers
    return response
