"""The league's long work as jobs (`jobs.kinds`): the seatings prepared from who is coming,
one part per expected count (`league.services.seating_plans`). Registered by
`LeagueConfig.ready()`."""

from typing import Any

from django.db.models import Count, Max

from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import job_fingerprint, job_request
from league import selectors
from league.models import Event, Rotation
from league.permissions import is_director
from league.services.seating_plans import (
    OFFSETS,
    Expected,
    plan_entrants,
    prepared_plan_compute,
    prepared_plans_store,
    prepared_plans_withdraw,
)

SEATING_PLANS = "seating-plans"


def _expected(params: dict[str, Any]) -> Expected:
    return Expected(list(params["players"]), list(params["maybes"]), bool(params["typed"]))


def _plan(params: dict[str, Any]) -> list[tuple[int, Any]]:
    return [(1, offset) for offset in OFFSETS]


def _run(params: dict[str, Any], offset: Any) -> Any:
    event = Event.objects.get(pk=params["event_id"])
    players, notes = plan_entrants(_expected(params), int(offset))
    return prepared_plan_compute(event=event, players=players, offset=int(offset), notes=notes)


def _finish(params: dict[str, Any], outputs: list[Any]) -> Any:
    prepared_plans_store(event=Event.objects.get(pk=params["event_id"]), plans=outputs)
    return {"plans": outputs}


def directs_event(user: Any, params: dict[str, Any]) -> bool:
    """May `user` follow a job about the event `params["event_id"]` (a director of its club)?
    The one check for every kind of job about an event."""
    club_id = Event.objects.filter(pk=params["event_id"]).values_list("club_id", flat=True).first()
    return club_id is not None and is_director(user, club_id)


def register() -> None:
    kind_register(JobKind(name=SEATING_PLANS, words="Preparing the seatings", unit="plans",
                          plan=_plan, run_part=_run, finish=_finish, may_see=directs_event))


def seating_plans_job(*, event: Event, expected: Expected) -> Job:
    """The job preparing the night's plans for these expected players (done once for the same
    players, wishes, settings and season so far)."""
    season = (Rotation.objects.filter(event__season_id=event.season_id).exclude(event=event)
              .aggregate(last=Max("id"), rows=Count("id")) if event.season_id else {})
    inputs = [event.pk, expected.players, expected.maybes, expected.typed,
              [list(vars(w).values()) for w in selectors.seating_wishes(event=event)],
              [event.format, event.table_sizes, event.odd_handling, event.sit_out_rule,
               event.planned_rotations, event.seed], season]
    params = {"event_id": event.pk, "players": expected.players, "maybes": expected.maybes,
              "typed": expected.typed}
    fingerprint = job_fingerprint(kind=SEATING_PLANS, inputs=inputs)
    if not Job.objects.filter(kind=SEATING_PLANS, fingerprint=fingerprint,
                              status=Job.Status.DONE).exists():
        # The plans shown are for another list: none may be used until the new ones are drawn.
        # Withdrawn before the job is queued, so a worker that finishes first keeps its plans.
        prepared_plans_withdraw(event=event)
    job = job_request(kind=SEATING_PLANS, fingerprint=fingerprint, params=params)
    if job.status == Job.Status.DONE and isinstance(job.result, dict):
        # asked before with the same inputs: its plans again (another list may have replaced them)
        prepared_plans_store(event=event, plans=job.result["plans"])
    return job
