"""Public pages (home, clubs, leagues, seasons, events) and the director's printable table cards."""

from django.urls import path

from league.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("clubs/<slug:club>/", public.club_detail, name="club-detail"),
    path("clubs/<slug:club>/leagues/<slug:league>/", public.league_detail, name="league-detail"),
    path(
        "clubs/<slug:club>/leagues/<slug:league>/seasons/<slug:season>/",
        public.season_detail,
        name="season-detail",
    ),
    path("events/<slug:slug>/", public.event_detail, name="event-detail"),
    path("events/<slug:slug>/table-cards/", public.table_cards, name="event-table-cards"),
]
