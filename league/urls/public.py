"""Public pages of the league alone (home, clubs, leagues) and the director's printable table
cards; the season and event pages, which show standings too, are in `site_pages`."""

from django.urls import path

from league.views import claims, public

urlpatterns = [
    path("claim/<str:nonce>/", claims.claim_page, name="player-claim"),
    path("clubs/<slug:club>/players/<int:pk>/this-is-me/", claims.claim_request_page,
         name="player-claim-request"),
    path("", public.home, name="home"),
    path("clubs/<slug:club>/", public.club_detail, name="club-detail"),
    path("clubs/<slug:club>/leagues/<slug:league>/", public.league_detail, name="league-detail"),
    path("events/<slug:slug>/table-cards/", public.table_cards, name="event-table-cards"),
    path(
        "events/<slug:slug>/table-cards/<int:rotation>/<int:table>/side/<int:side>/",
        public.side_slip,
        name="event-side-slip",
    ),
]
