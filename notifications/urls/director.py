from django.urls import path

from notifications.views import claims, director

urlpatterns = [
    path("clubs/<slug:slug>/mail/", director.club_mail, name="director-club-mail"),
    path(
        "clubs/<slug:slug>/players/<slug:player_slug>/account/",
        claims.player_claims,
        name="director-player-claims",
    ),
    path(
        "clubs/<slug:slug>/players/<slug:player_slug>/account/requests/<int:claim_id>/",
        claims.claim_request_approve,
        name="director-claim-approve",
    ),
]
