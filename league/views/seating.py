"""Director pages of the seating: the night's wishes, and the seatings prepared from who is
coming (with "Use this plan")."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from jobs.models import Job
from jobs.selectors import job_progress
from league import selectors, services
from league.forms import ExpectedNamesForm, PlanChoiceForm, WishForm
from league.jobs import SEATING_PLANS, seating_plans_job
from league.models import PreparedPlan, SeatingWish
from league.services.seating_plans import expected_players
from league.services.wishes import wish_summary
from league.views.common import attempt, directed_event, form_valid

OFFSET_WORDS = {-2: "two fewer than expected", -1: "one fewer than expected", 0: "as expected",
                1: "one more than expected", 2: "two more than expected"}


def _wish_rows(event_wishes: list[SeatingWish]) -> list[tuple[SeatingWish, str, str]]:
    return [(w, wish_summary(w), "every night of the season" if w.season_id else "this night")
            for w in event_wishes]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def wishes_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    form = WishForm(request.POST or None, event=event)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            season = event.season if data.get("scope") == "season" else None
            done = attempt(request, "Wish added: the next seating keeps it.",
                            services.seating_wish_add,
                            kind=data["kind"], player=data["player"], other=data["other"],
                            table_number=data["table_number"], seat_number=data["seat_number"],
                            event=None if season else event, season=season, by=request.user)
            if done:
                return redirect("director-event-wishes", slug=event.slug)
        else:
            messages.error(request, "Check the wish: " + " ".join(
                str(error) for errors in form.errors.values() for error in errors))
    rows = _wish_rows(selectors.event_wishes(event=event))
    return render(request, "league/director/wishes.html",
                  {"event": event, "form": form, "wishes": rows},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def wish_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = directed_event(request, slug)
    wish = get_object_or_404(SeatingWish.objects.select_related("player", "other", "event",
                                                                "season__league__club"),
                             pk=pk, pk__in=[w.pk for w in selectors.event_wishes(event=event)])
    attempt(request, "Wish removed.", services.seating_wish_remove, wish=wish, by=request.user)
    return redirect("director-event-wishes", slug=event.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def plans_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    form = ExpectedNamesForm(request.POST or None)
    progress = None
    if request.method == "POST" and form.is_valid():
        try:
            expected = expected_players(event=event, names_text=form.cleaned_data["names"])
        except DomainError as refused:
            form.add_error("names", refused.message)
        else:
            job = seating_plans_job(event=event, expected=expected)
            if job.status != Job.Status.DONE:
                return redirect(reverse("director-event-plans", args=[event.slug]) + f"?job={job.pk}")
            messages.success(request, "Plans prepared.")
            return redirect("director-event-plans", slug=event.slug)
    job_id = _uuid(request.GET.get("job", ""))
    running = (Job.objects.filter(pk=job_id, kind=SEATING_PLANS, params__event_id=event.pk).first()
               if job_id else None)
    if running is not None and running.status != Job.Status.DONE:
        progress = job_progress(job=running)
    plans = [(plan, OFFSET_WORDS.get(plan.offset, ""), _tables(plan))
             for plan in PreparedPlan.objects.filter(event=event).order_by("offset")]
    return render(request, "league/director/plans.html",
                  {"event": event, "form": form, "plans": plans, "progress": progress,
                   "seated": event.rotations.exists()},
                  status=400 if form.errors else 200)


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text[:36])
    except ValueError:
        return None


def _tables(plan: PreparedPlan) -> list[list[str]]:
    """Rotation 1 of the plan: per table, its sides in words ("Ann & Cy")."""
    if not plan.rotations:
        return []
    names = {e["number"]: e["name"] for e in plan.entrants}
    return [[" & ".join(names.get(p, "?") for p in side) for side in table["sides"]]
            for table in plan.rotations[0]["tables"]]


@login_required
@require_POST
def plan_use(request: HttpRequest, slug: str) -> HttpResponse:
    event = directed_event(request, slug)
    choice = PlanChoiceForm(request.POST)
    if not form_valid(request, choice, "Choose one of the prepared plans."):
        return redirect("director-event-plans", slug=event.slug)
    plan = PreparedPlan.objects.filter(event=event, offset=choice.cleaned_data["offset"],
                                       pk=choice.cleaned_data["plan"]).first()
    if plan is None:
        messages.error(request, "That seating was replaced: the seatings were prepared again "
                                "since. Choose one of those below once they are drawn.")
        return redirect("director-event-plans", slug=event.slug)
    rotation = attempt(request, f"The plan for {len(plan.entrants)} players is in use: its "
                        "players are entered and checked in, and rotation 1 is seated as a "
                        "draft. Check it, then start it.", services.seating_plan_use, plan=plan,
                        by=request.user)
    if rotation is None:
        return redirect("director-event-plans", slug=event.slug)
    return redirect(reverse("director-event", args=[event.slug]) + "#rotation-1")
