"""The club's "How well our ratings predict" page: the latest backtest of its ratings (every
confirmed game replayed in order, each predicted before it was played) with a calibration
chart, and, for a director, the button that checks again as a job with a progress bar."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from analytics import charts
from analytics.ratings.backtests import club_backtest_job, latest_backtest, ratings_backtest_job
from jobs.models import Job
from jobs.selectors import job_progress
from league.models import Club
from league.permissions import check_directs_club, is_director


def _share(value: float) -> str:
    return f"{round(100 * value)} %"


def _line_words(line: dict[str, Any], chosen: str, baseline: str) -> dict[str, Any]:
    """A candidate's figures as the page says them."""
    against = line["against_baseline"]
    if against is None:
        compared = "the ratings we used before"
    else:
        better = "better" if against[2] < 0 else "worse" if against[1] > 0 else "no clear difference"
        compared = f"{better} ({against[0]:+.3f}, from {against[1]:+.3f} to {against[2]:+.3f})"
    return {"name": line["name"], "ours": line["key"] == chosen,
            "favourite_won": _share(line["accuracy"]), "surprise": f"{line['log_loss']:.3f}",
            "margin_off": f"{round(line['margin_error']):,}", "compared": compared}


def _result_context(result: dict[str, Any]) -> dict[str, Any]:
    lines = result["lines"]
    ours = next((line for line in lines if line["key"] == result["chosen"]), None)
    if ours is None or not ours["games"]:
        return {"games": 0}
    deciles = [tuple(d) for d in ours["calibration"]]
    biggest = max((d for d in deciles if d[0] >= 0.5 and d[2]), key=lambda d: d[2], default=None)
    return {
        "games": ours["games"],
        "favourite_won": _share(ours["accuracy"]),
        "example": None if biggest is None else {
            "said": _share(biggest[0]), "won": _share(biggest[1]), "sides": biggest[2]},
        "chart": charts.calibration(deciles),
        "lines": [_line_words(line, result["chosen"], result["baseline"]) for line in lines],
    }


def _asked_job(request: HttpRequest, club: Club) -> Job | None:
    try:
        job_id = uuid.UUID(request.GET.get("job", ""))
    except ValueError:
        return None
    return club_backtest_job(club=club, job_id=job_id)


@require_http_methods(["GET", "HEAD", "POST"])
def club_ratings_accuracy(request: HttpRequest, club: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=club)
    here = reverse("club-ratings-accuracy", args=[found.slug])
    if request.method == "POST":
        check_directs_club(request.user, found)
        job = ratings_backtest_job(club=found)
        return HttpResponseRedirect(here if job.status == Job.Status.DONE else f"{here}?job={job.pk}")
    asked = _asked_job(request, found)
    latest = latest_backtest(club=found)
    context: dict[str, Any] = {
        "club": found, "may_check": is_director(request.user, found),
        "progress": job_progress(job=asked) if asked and asked.status != Job.Status.DONE else None,
        "checked_at": latest.updated_at if latest else None,
        **(_result_context(latest.result) if latest and latest.result else {"games": None}),
    }
    return render(request, "analytics/ratings_accuracy.html", context)
