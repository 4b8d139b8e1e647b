"""The director's page of a season's divisions: add divisions, place the season's players,
how many go up and down, and at the season's end the promotion and relegation proposed from
the division tables (the analytics') and confirmed into the next season (the league's).
It lives here because it puts the two apps on one page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from analytics.handicaps import selectors as tables
from league import selectors, services
from league.forms.divisions import (
    DivisionForm,
    PlacesForm,
    PromotionConfirmForm,
    PromotionPlacesForm,
)
from league.models import DivisionPlace, Event, Season
from league.permissions import check_directs_club
from league.services import divisions
from league.views.common import attempt


def _season(request: HttpRequest, season_id: int) -> Season:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=season_id)
    check_directs_club(request.user, season.league.club)
    return season


def _proposal(season: Season) -> divisions.Proposal:
    return divisions.promotion_propose(tables=tables.promotion_tables(season=season),
                                       places=season.promotion_places)


def _places_form(request: HttpRequest, season: Season) -> PlacesForm:
    current = dict(DivisionPlace.objects.filter(season=season).values_list("player_id", "division_id"))
    return PlacesForm(request.POST if request.POST.get("action") == "places" else None,
                      players=selectors.season_players(season=season),
                      divisions=season.divisions.order_by("number"), current=current)


def _post(request: HttpRequest, season: Season) -> None:
    action = request.POST.get("action")
    if action == "add":
        form = DivisionForm(request.POST)
        if form.is_valid():
            attempt(request, "Division added.", services.division_create, season=season,
                     name=form.cleaned_data["name"], by=request.user)
        else:
            messages.error(request, "Give the division a name (80 characters at most).")
    elif action == "places":
        places = _places_form(request, season)
        if places.is_valid():
            attempt(request, "The divisions' players are saved.", services.division_places_set,
                     season=season, places=places.places(), by=request.user)
        else:
            messages.error(request, "Choose a division of this season for each player.")
    elif action == "promotion_places":
        count = PromotionPlacesForm(request.POST)
        if count.is_valid():
            attempt(request, "Saved.", services.season_update, season=season,
                     promotion_places=count.cleaned_data["promotion_places"])
        else:
            messages.error(request, " ".join(map(str, count.errors["promotion_places"])))
    elif action == "confirm":
        _confirm(request, season)


def _confirm(request: HttpRequest, season: Season) -> None:
    form = PromotionConfirmForm(request.POST, season=season)
    if not form.is_valid():
        messages.error(request, "Choose the next season of this league.")
        return
    target = form.cleaned_data["target"]
    attempt(request, f"Confirmed: the players are placed in the divisions of {target.name}.",
             services.divisions_promotion_confirm, season=season, target=target,
             placements=_proposal(season).placements, by=request.user)


@login_required
def season_divisions(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season(request, season_id)
    if request.method == "POST":
        _post(request, season)
        return redirect("director-season-divisions", season_id=season.pk)
    proposal = _proposal(season)
    division_names = {d.number: d.name for d in season.divisions.all()}
    unfinished = (Event.objects.filter(season=season, cancelled_at=None)
                  .exclude(status=Event.Status.FINISHED).count())
    context = {
        "season": season, "league": season.league, "club": season.league.club,
        "divisions": season.divisions.order_by("number"),
        "division_form": DivisionForm(), "places_form": _places_form(request, season),
        "promotion_form": PromotionPlacesForm(initial={"promotion_places": season.promotion_places}),
        "confirm_form": PromotionConfirmForm(season=season),
        "moves": [(m, division_names.get(m.from_number, ""), division_names.get(m.to_number, ""))
                  for m in proposal.moves],
        "notes": proposal.notes, "unfinished": unfinished,
    }
    return render(request, "site_pages/season_divisions.html", context)
