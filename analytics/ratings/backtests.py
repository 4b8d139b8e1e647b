"""The ratings backtest of a club as a job (`jobs.kinds`): one part per candidate system (the
worker's processes share them), each replaying the club's confirmed games in the order played;
the finish compares them (`analytics.ratings.backtest.report`). Registered by
`AnalyticsConfig.ready()`; `python manage.py ratings_backtest` runs the same parts in-process."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, Max, Q

from analytics.ratings.backtest.candidates import BASELINE, CANDIDATES, CHOSEN, candidate
from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.metrics import Scores
from analytics.ratings.backtest.report import comparison, scores_from_json, scores_to_json
from analytics.ratings.backtest.run import backtest
from analytics.ratings.selectors import club_game_order
from analytics.standings.selectors import game_results
from games.models import RoundResult
from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import job_fingerprint, job_part_progress, job_request
from league.models import Club, Game

RATINGS_BACKTEST = "ratings-backtest"
WARM_UP_NIGHTS = 1  # the first night's games are predicted from nothing: not scored


def club_backtest_games(*, club_id: int) -> list[BacktestGame]:
    """The club's confirmed games in the order played, each with its night (the club's nights
    counted in order) and, when known, each round's side totals."""
    where = Q(table__rotation__event__club_id=club_id)
    order = club_game_order(club_id=club_id)
    results = game_results(game_filter=where)
    events = dict(Game.objects.filter(where).values_list("pk", "table__rotation__event_id"))
    rounds = _round_totals(where)
    nights: dict[int, int] = {}
    games = []
    for game_id in order:
        result = results.get(game_id)
        if result is None:
            continue
        night = nights.setdefault(events[game_id], len(nights))
        sides = tuple(side.players for side in result.sides)
        totals = tuple(side.decides if side.decides is not None else side.total
                       for side in result.sides)
        games.append(BacktestGame(game_id, night, sides, totals, rounds.get(game_id, ())))
    return games


def _round_totals(where: Q) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Game id → each round's side totals (rounds known only: round 0 holds a bare total)."""
    scores: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    rows = (RoundResult.objects.filter(game__in=Game.objects.filter(where), round_number__gte=1)
            .order_by().values_list("game_id", "round_number", "side", "score"))
    for game_id, number, side, score in rows.iterator(chunk_size=20_000):
        scores[game_id][number][side] = score
    return {game_id: tuple(tuple(r[s] for s in sorted(r)) for _, r in sorted(by_round.items()))
            for game_id, by_round in scores.items()}


def candidate_scores(*, games: list[BacktestGame], key: str,
                     progress: Any = None) -> dict[str, Any]:
    """One candidate's scores over the games, as JSON."""
    system = candidate(key)
    result = backtest(games, [system], score_from_night=WARM_UP_NIGHTS, progress=progress)
    return candidate_output(key, system.name, result.scores[system.name])


def candidate_output(key: str, name: str, scores: Scores) -> dict[str, Any]:
    """One candidate's scores as a job part's output (JSON)."""
    return {"key": key, "name": name, "scores": scores_to_json(scores)}


def backtest_summary(outputs: list[dict[str, Any]]) -> dict[str, Any]:
    """The comparison of the candidates' parts, as the page and the command show it."""
    parts = {o["key"]: (o["name"], scores_from_json(o["scores"])) for o in outputs}
    lines = comparison(parts, BASELINE)
    return {"baseline": BASELINE, "chosen": CHOSEN, "games": max((x.games for x in lines), default=0),
            "lines": [line.__dict__ for line in lines]}


def _plan(params: dict[str, Any]) -> list[tuple[int, Any]]:
    games = Game.objects.filter(table__rotation__event__club_id=params["club_id"],
                                round_results__isnull=False).distinct().count()
    return [(games, key) for key in CANDIDATES]


def _run_part(params: dict[str, Any], key: Any) -> Any:
    games = club_backtest_games(club_id=params["club_id"])
    return candidate_scores(games=games, key=key, progress=lambda done: job_part_progress(
        done=done, of=len(games)) if done % 500 == 0 else None)


def _finish(params: dict[str, Any], outputs: list[Any]) -> Any:
    return backtest_summary(outputs)


def _anyone_who_may_see_the_club(user: Any, params: dict[str, Any]) -> bool:
    return Club.objects.filter(pk=params["club_id"]).exists()


def register() -> None:
    kind_register(JobKind(
        name=RATINGS_BACKTEST, words="Replaying the club's games for every rating system",
        unit="games", plan=_plan, run_part=_run_part, finish=_finish,
        may_see=_anyone_who_may_see_the_club))


def ratings_backtest_job(*, club: Club) -> Job:
    """The club's backtest job, started unless the same results were backtested before."""
    version = RoundResult.objects.filter(game__table__rotation__event__club=club).aggregate(
        last=Max("id"), rows=Count("id"))
    fingerprint = job_fingerprint(kind=RATINGS_BACKTEST,
                                  inputs=[club.pk, sorted(CANDIDATES), version])
    return job_request(kind=RATINGS_BACKTEST, fingerprint=fingerprint, params={"club_id": club.pk})


def latest_backtest(*, club: Club) -> Job | None:
    """The club's latest finished backtest, if any."""
    return (Job.objects.filter(kind=RATINGS_BACKTEST, status=Job.Status.DONE,
                               params__club_id=club.pk).order_by("-updated_at").first())


def club_backtest_job(*, club: Club, job_id: Any) -> Job | None:
    """The club's backtest job `job_id`, None when it is no backtest of this club."""
    return Job.objects.filter(pk=job_id, kind=RATINGS_BACKTEST, params__club_id=club.pk).first()
