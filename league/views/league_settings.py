"""The director's page of one league's settings (how a substitute's result counts, and the
league's other choices): a form that the service `league_settings_update` checks and saves."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.errors import DomainError
from league import services
from league.forms.league_settings import LeagueSettingsForm
from league.models import League
from league.permissions import check_directs_club


@login_required
def league_settings_page(request: HttpRequest, slug: str, league_slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club"), club__slug=slug, slug=league_slug)
    check_directs_club(request.user, league.club)
    form = LeagueSettingsForm(request.POST or None, initial=LeagueSettingsForm.initial_for(league))
    if request.method == "POST" and form.is_valid():
        try:
            services.league_settings_update(league=league, by=request.user, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"The settings of {league.name} are saved.")
            return redirect("director-league-settings", slug=league.club.slug, league_slug=league.slug)
    return render(request, "league/director/league_settings.html", {"league": league, "club": league.club, "form": form})
