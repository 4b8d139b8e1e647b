"""The club's full backup (`site_pages.backup.club_export`) built by the worker as a job
(`jobs.kinds`): building it grows with the club's history, so no web request does it. The
director's page shows the job's progress bar and, when done, a link to the JSON file, kept in
`settings.CLUB_BACKUP_DIR` (default: DATA_DIR/backups). Asked again while nothing changed, the
same job (and file) answers. Registered by `SitePagesConfig.ready()`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count, Max

from games.models import ResultVersion, Submission
from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import job_fingerprint, job_request
from league.models import AuditEntry, Club, Event, Game, Player
from league.permissions import is_director
from site_pages.backup import ExportEncoder, club_export

CLUB_BACKUP = "club-backup"


def backup_dir() -> Path:
    return Path(getattr(settings, "CLUB_BACKUP_DIR", None) or settings.DATA_DIR / "backups")


def _plan(params: dict[str, Any]) -> list[tuple[int, Any]]:
    # One part: the export is one consistent read of the club. Its size in games, for the bar.
    games = Game.objects.filter(table__rotation__event__club_id=params["club_id"]).count()
    return [(max(games, 1), params["club_id"])]


def _build(params: dict[str, Any], club_id: Any) -> dict[str, Any]:
    club = Club.objects.get(pk=club_id)
    text = json.dumps(club_export(club=club), cls=ExportEncoder, ensure_ascii=False, indent=1)
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{club.slug}-{params['version']}.json"
    (folder / name).write_text(text, encoding="utf-8")
    return {"file": name, "bytes": len(text.encode())}


def _finish(params: dict[str, Any], outputs: list[Any]) -> Any:
    return outputs[0]


def _directs_club(user: Any, params: dict[str, Any]) -> bool:
    return is_director(user, params["club_id"])


def register() -> None:
    kind_register(
        JobKind(
            name=CLUB_BACKUP,
            words="Building the club's backup",
            unit="games",
            plan=_plan,
            run_part=_build,
            finish=_finish,
            may_see=_directs_club,
        )
    )


def _club_version(club: Club) -> str:
    """What changes whenever the club's record does (its results, entries, players and History
    are added to, never silently edited)."""
    parts = [
        ResultVersion.objects.filter(game__table__rotation__event__club=club).aggregate(
            n=Count("pk"), last=Max("pk"), confirmed=Max("confirmed_at")
        ),
        Submission.objects.filter(game__table__rotation__event__club=club).aggregate(
            n=Count("pk"), last=Max("pk"), withdrawn=Max("withdrawn_at")
        ),
        AuditEntry.objects.filter(club=club).aggregate(n=Count("pk"), last=Max("pk")),
        Player.objects.filter(club=club).aggregate(n=Count("pk"), last=Max("pk")),
        Event.objects.filter(club=club).aggregate(n=Count("pk"), last=Max("pk")),
    ]
    return job_fingerprint(kind=CLUB_BACKUP, inputs=[club.pk, parts])[:16]


def club_backup_job(*, club: Club) -> Job:
    """The job building the club's backup as it is now (the same job while nothing changed)."""
    version = _club_version(club)
    return job_request(
        kind=CLUB_BACKUP,
        fingerprint=job_fingerprint(kind=CLUB_BACKUP, inputs=[club.pk, version]),
        params={"club_id": club.pk, "version": version},
    )


def backup_file(*, job: Job) -> Path | None:
    """The finished job's file (None while it runs, or when the file is gone)."""
    if job.status != Job.Status.DONE or not isinstance(job.result, dict):
        return None
    name = str(job.result.get("file", ""))
    if not re.fullmatch(r"[a-z0-9-]+\.json", name):
        return None
    path = backup_dir() / name
    return path if path.is_file() else None
