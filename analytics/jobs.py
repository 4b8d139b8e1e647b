"""The analytics' long work as jobs (`jobs.kinds`): the what-if re-scoring of an event or a
season, in parts of `settings.WHATIF_PART_GAMES` games that the worker's processes share. Registered by
`AnalyticsConfig.ready()`."""

from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Q

from analytics import whatif
from games.models import RoundResult
from handfoot.rules import rules_from_spec, rules_to_dict
from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import job_fingerprint, job_request
from league.jobs import directs_event
from league.models import Event, Season
from league.permissions import is_director

WHATIF_EVENT = "whatif-event"
WHATIF_SEASON = "whatif-season"


def _chunks(game_ids: list[int]) -> list[tuple[int, Any]]:
    size = settings.WHATIF_PART_GAMES
    return [
        (len(game_ids[i : i + size]), game_ids[i : i + size]) for i in range(0, len(game_ids), size)
    ]


def _merged(outputs: list[dict[str, Any]]) -> dict[str, Any]:
    return {game: line for output in outputs for game, line in output.items()}


def _plan_event(params: dict[str, Any]) -> list[tuple[int, Any]]:
    return _chunks(whatif.whatif_game_ids(event=Event.objects.get(pk=params["event_id"])))


def _plan_season(params: dict[str, Any]) -> list[tuple[int, Any]]:
    events = Event.objects.filter(season_id=params["season_id"]).order_by("date", "pk")
    return _chunks([game for event in events for game in whatif.whatif_game_ids(event=event)])


def _rescore(params: dict[str, Any], game_ids: Any) -> Any:
    return whatif.whatif_rescore_games(game_ids=game_ids, rules_spec=params["rules"])


def _finish_event(params: dict[str, Any], outputs: list[Any]) -> Any:
    event = Event.objects.get(pk=params["event_id"])
    return whatif.whatif_to_json(whatif.whatif_event_result(event=event, rescored=_merged(outputs)))


def _finish_season(params: dict[str, Any], outputs: list[Any]) -> Any:
    season = Season.objects.get(pk=params["season_id"])
    return whatif.whatif_to_json(
        whatif.whatif_season_result(season=season, rescored=_merged(outputs))
    )


def _directs_season(user: Any, params: dict[str, Any]) -> bool:
    club_id = (
        Season.objects.filter(pk=params["season_id"])
        .values_list("league__club_id", flat=True)
        .first()
    )
    return club_id is not None and is_director(user, club_id)


def register() -> None:
    for name, whose, plan, finish, may_see in (
        (WHATIF_EVENT, "event", _plan_event, _finish_event, directs_event),
        (WHATIF_SEASON, "season", _plan_season, _finish_season, _directs_season),
    ):
        kind_register(
            JobKind(
                name=name,
                words=f"Re-scoring the {whose}'s games",
                unit="games",
                plan=plan,
                run_part=_rescore,
                finish=finish,
                may_see=may_see,
            )
        )


def _results_version(game_filter: Q) -> dict[str, Any]:
    """What changes whenever a result of these games does (results are written anew, never
    updated in place): one aggregate query."""
    return RoundResult.objects.filter(game_filter).aggregate(last=Max("id"), rows=Count("id"))


def whatif_event_job(*, event: Event, rules_spec: Any) -> Job:
    """The job re-scoring `event` under `rules_spec` (started unless the same results and rules
    were asked for before). Raises EngineError (BAD_RULES) for bad rules, before any job."""
    return _whatif_job(
        WHATIF_EVENT, "event_id", event.pk, rules_spec, Q(game__table__rotation__event=event)
    )


def whatif_season_job(*, season: Season, rules_spec: Any) -> Job:
    """The job re-scoring every night of `season` under `rules_spec` (see `whatif_event_job`)."""
    return _whatif_job(
        WHATIF_SEASON,
        "season_id",
        season.pk,
        rules_spec,
        Q(game__table__rotation__event__season=season),
    )


def _whatif_job(kind: str, key: str, pk: int, rules_spec: Any, games: Q) -> Job:
    """The job of `kind` for the event or season `pk` (`key` names it in the job's params):
    the same job again while the results of its `games` and the rules are the same."""
    rules = rules_to_dict(rules_from_spec(rules_spec))
    fingerprint = job_fingerprint(kind=kind, inputs=[pk, rules, _results_version(games)])
    return job_request(kind=kind, fingerprint=fingerprint, params={key: pk, "rules": rules_spec})
