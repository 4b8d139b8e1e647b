"""The director enters a game played on paper: each round's score per side, or only the game's
totals (a totals-only result, `games.services.paper`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.errors import DomainError
from games.services.paper import result_enter_paper
from games.views import director as director_views
from games.views.paper_form import paper_form
from league.permissions import signed_in
from web.http import refusal_status


@login_required
@require_POST
def enter_paper(request: HttpRequest, game_id: int) -> HttpResponse:
    """A director's scores only, from the table's paper sheet; refusals next to the form."""
    game = director_views._directed_game(request, game_id)
    form = paper_form(game, request.POST)
    if not form.is_valid():
        return director_views._page(request, game, status=400, paper_form=form)
    try:
        version = result_enter_paper(
            game=game,
            user=signed_in(request.user),
            expected_revision=form.cleaned_data["revision"],
            rounds=form.cleaned_data["rounds"],
            totals=form.cleaned_data["totals"],
            reason=form.cleaned_data["reason"],
        )
    except DomainError as refused:
        form.add_error(None, refused.message)
        return director_views._page(request, game, status=refusal_status(refused), paper_form=form)
    messages.success(
        request,
        f"Saved the paper result ({' to '.join(f'{t:,}' for t in version.totals)}) "
        f"as version {version.number}, confirmed; scores only, so it counts "
        "in standings and ratings but not in statistics.",
    )
    return redirect("director-result", game_id=game.pk)
