"""The games' long work as jobs (`jobs.kinds`), each in one part whose progress the page's bar
shows as it goes: previewing a spreadsheet of past results too large for a web request to read
(over `spreadsheets.PREVIEW`, within `spreadsheets.IMPORT`); storing one, which grows with the
file (every game's nights, players, results and their projection), in one transaction (all or
nothing); and importing the move logs a director uploaded for a night, in order, as
`manage.py import_logs` does. Registered by `GamesConfig.ready()`."""

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Max

from core.errors import DomainError
from games import spreadsheets
from games.models import ImportProfile, Submission
from games.services import Entrant, imports
from games.services.bulk_import import logs_import
from games.services.log_uploads import logs_upload_get
from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import JobRefused, job_fingerprint, job_part_progress, job_request
from league.jobs import directs_event
from league.models import Club, Event, Player, Seat
from league.permissions import is_director

RESULTS_IMPORT = "results-import"
RESULTS_PREVIEW = "results-preview"
LOGS_IMPORT = "logs-import"
GONE = ("The uploaded file is no longer kept (a file waits an hour between the steps): "
        "upload it again.")


def _file(params: dict[str, Any]) -> tuple[Club, str, bytes]:
    club = Club.objects.get(pk=params["club_id"])
    found = imports.upload_get(club=club, token=params["token"])
    if found is None:
        raise JobRefused(GONE)
    return club, found[0], found[1]


def _options(params: dict[str, Any]) -> dict[str, Any]:
    return {"season_name": params["season"] or None, "day_first": params["day_first"],
            "choices": params["choices"]}


def _plan(params: dict[str, Any]) -> list[tuple[int, Any]]:
    club, name, data = _file(params)
    plan = imports.results_import_plan(club=club, file_name=name, data=data,
                                       day_first=params["day_first"], choices=params["choices"],
                                       season_name=params["season"] or None)
    return [(max(len(plan.games), 1), "all")]  # one part: the import is all or nothing


def _store(params: dict[str, Any], _: Any) -> dict[str, Any]:
    club, name, data = _file(params)
    user = User.objects.filter(pk=params["user_id"]).first()
    plan = imports.results_import(
        club=club, file_name=name, data=data, user=user, **_options(params),
        progress=lambda done, total: job_part_progress(done=done, of=total))
    if plan.imported is not None:
        imports.upload_forget(club=club, token=params["token"])
    return {"summary": plan.summary(), "imported": plan.imported is not None,
            "problems": [problem.words() for problem in plan.problems]}


def _plan_preview(params: dict[str, Any]) -> list[tuple[int, Any]]:
    _, _, data = _file(params)
    return [(max(len(data) // 1000, 1), "all")]  # the bar counts the file's KB


def _preview(params: dict[str, Any], _: Any) -> dict[str, Any]:
    """The preview of a file over the preview's bounds, read within the import's (a header's
    meaning told with it is remembered first, as the page does). Refused in words, and the
    file no longer kept, when even those are too small or it cannot be read."""
    club, name, data = _file(params)
    try:
        if params.get("mapping"):
            headers = spreadsheets.file_headers(spreadsheets.read_workbook(data, name))
            imports.header_mapping_remember(club=club, headers=headers, mapping=params["mapping"])
        plan = imports.results_import_plan(club=club, file_name=name, data=data,
                                           **_options(params))
    except (DomainError, spreadsheets.Unreadable) as refused:
        imports.upload_forget(club=club, token=params["token"])
        raise JobRefused(getattr(refused, "message", str(refused))) from None
    return {**plan.to_dict(), "unknown_headers": plan.unknown_headers,
            "close": {n: [[p.pk, p.name] for p in offers] for n, offers in plan.close_names.items()}}


@dataclass(frozen=True)
class Preview:
    """A preview job's result as the import page shows a preview (`imports.ImportPlan`'s
    fields the page reads)."""

    file_name: str
    summary: str
    nights: list[tuple[datetime.date, int, bool]]
    game_count: int
    new_players: list[str]
    unknown_headers: list[str]
    problems: list[dict[str, Any]]
    already: bool
    close_names: dict[str, list[Player]] = field(default_factory=dict)

    @classmethod
    def of(cls, result: dict[str, Any]) -> "Preview":
        return cls(file_name=result["file"], summary=result["summary"],
                   nights=[(datetime.date.fromisoformat(n["date"]), n["games"], n["detail"])
                           for n in result["nights"]],
                   game_count=result["games"], new_players=result["new_players"],
                   unknown_headers=result["unknown_headers"], problems=result["problems"],
                   already=result["already_imported"],
                   close_names={n: [Player(pk=pk, name=name) for pk, name in offers]
                                for n, offers in result["close"].items()})


def _finish(params: dict[str, Any], outputs: list[Any]) -> Any:
    return outputs[0]


def _directs_club(user: Any, params: dict[str, Any]) -> bool:
    return is_director(user, params["club_id"])


def _logs(params: dict[str, Any]) -> tuple[Event, list[tuple[str, bytes]]]:
    event = Event.objects.get(pk=params["event_id"])
    files = logs_upload_get(event=event, token=params["token"])
    if files is None:
        raise JobRefused(GONE)
    return event, files


def _plan_logs(params: dict[str, Any]) -> list[tuple[int, Any]]:
    return [(max(params["files"], 1), "all")]  # one part: the logs are taken in their order


def _import_logs(params: dict[str, Any], _: Any) -> dict[str, Any]:
    event, files = _logs(params)
    user = User.objects.filter(pk=params["user_id"]).first()
    entrant = (Entrant.for_user(user, via=Submission.Via.IMPORT) if user is not None
               else Entrant(key="import", via=Submission.Via.IMPORT))
    done = 0

    def told(_: Any) -> None:
        nonlocal done
        done += 1
        job_part_progress(done=done, of=len(files))

    outcomes = logs_import(event=event, documents=files, entrant=entrant, batch_size=50,
                           progress=told)
    return {"files": [{"name": o.name[:120], "ok": o.ok, "created": o.created, "words": o.words}
                      for o in outcomes]}


def register() -> None:
    kind_register(JobKind(name=RESULTS_IMPORT, words="Importing the results", unit="games",
                          plan=_plan, run_part=_store, finish=_finish, may_see=_directs_club,
                          bulk=True))
    kind_register(JobKind(name=RESULTS_PREVIEW, words="Reading the spreadsheet", unit="KB",
                          plan=_plan_preview, run_part=_preview, finish=_finish,
                          may_see=_directs_club, bulk=True))
    kind_register(JobKind(name=LOGS_IMPORT, words="Importing the move logs", unit="files",
                          plan=_plan_logs, run_part=_import_logs, finish=_finish,
                          may_see=directs_event, bulk=True))


def logs_import_job(*, event: Event, token: str, user: User) -> Job:
    """The job importing the move logs kept under `token` (the same files again: the same job;
    a file imported before changes nothing anyway). Refused in words when they are gone."""
    files = logs_upload_get(event=event, token=token)
    if files is None:
        raise JobRefused(GONE)
    digest = hashlib.sha256(b"".join(hashlib.sha256(raw).digest() for _, raw in files))
    # What the logs are matched against besides themselves: the night's seats and entries.
    night = [Model.objects.filter(**{f"{path}rotation__event": event}).aggregate(
        n=Count("pk"), last=Max("pk")) for Model, path in ((Seat, ""), (Submission, "game__table__"))]
    inputs = [event.pk, user.pk, digest.hexdigest(), [name for name, _ in files], night]
    return job_request(kind=LOGS_IMPORT, fingerprint=job_fingerprint(kind=LOGS_IMPORT,
                                                                     inputs=inputs),
                       params={"event_id": event.pk, "token": token, "user_id": user.pk,
                               "files": len(files)})


def results_preview_job(*, club: Club, token: str, user: User, season: str,
                        day_first: bool | None, choices: dict[str, str],
                        mapping: dict[str, str]) -> Job:
    """The job previewing the file kept under `token` when it is over the preview's bounds:
    no web request reads it (asked twice for the same file and choices: the same job).
    Refused in words when the file is no longer kept."""
    return results_import_job(club=club, token=token, user=user, season=season,
                              day_first=day_first, choices=choices, mapping=mapping,
                              kind=RESULTS_PREVIEW)


def results_import_job(*, club: Club, token: str, user: User, season: str,
                       day_first: bool | None, choices: dict[str, str],
                       mapping: dict[str, str] | None = None, kind: str = RESULTS_IMPORT) -> Job:
    """The job storing the file kept under `token` (asked twice for the same file and choices:
    the same job). Refused in words when the file is no longer kept."""
    found = imports.upload_get(club=club, token=token)
    if found is None:
        raise JobRefused(GONE)
    digest = hashlib.sha256(found[1]).hexdigest()
    params = {"club_id": club.pk, "token": token, "user_id": user.pk, "season": season,
              "day_first": day_first, "choices": choices, "mapping": mapping or {}}
    # What the file's reading depends on besides itself: the club's players (names are matched to
    # them) and the headers it was told of.
    players = Player.objects.filter(club=club).aggregate(n=Count("pk"), last=Max("pk"))
    profile = ImportProfile.objects.filter(club=club).values_list("header_maps", "day_first")
    inputs = [club.pk, digest, season, day_first, sorted(choices.items()), players,
              list(profile)] + ([sorted(mapping.items())] if mapping else [])
    return job_request(kind=kind, fingerprint=job_fingerprint(kind=kind, inputs=inputs),
                       params=params)
