"""Director pages under /director/."""

from django.urls import path

from league.views import director

urlpatterns = [
    path("", director.home, name="director-home"),
    path("clubs/new/", director.club_create, name="director-club-create"),
    path("clubs/<slug:slug>/", director.club_page, name="director-club"),
    path("clubs/<slug:slug>/members/", director.club_member_add, name="director-club-member-add"),
    path("clubs/<slug:slug>/leagues/", director.club_league_add, name="director-club-league-add"),
    path("clubs/<slug:slug>/seasons/", director.club_season_add, name="director-club-season-add"),
    path("events/new/", director.event_create, name="director-event-create"),
    path("events/<slug:slug>/", director.event_page, name="director-event"),
    path("events/<slug:slug>/edit/", director.event_edit, name="director-event-edit"),
    path("events/<slug:slug>/status/", director.event_status, name="director-event-status"),
    path("events/<slug:slug>/registrations/", director.registration_add, name="director-registration-add"),
    path(
        "events/<slug:slug>/registrations/<int:pk>/check-in/",
        director.registration_check_in,
        name="director-registration-check-in",
    ),
    path(
        "events/<slug:slug>/registrations/<int:pk>/withdraw/",
        director.registration_withdraw,
        name="director-registration-withdraw",
    ),
    path(
        "events/<slug:slug>/registrations/<int:pk>/reinstate/",
        director.registration_reinstate,
        name="director-registration-reinstate",
    ),
    path("events/<slug:slug>/rotations/", director.rotation_generate, name="director-rotation-generate"),
    path(
        "events/<slug:slug>/rotations/<int:number>/swap/",
        director.rotation_swap,
        name="director-rotation-swap",
    ),
    path(
        "events/<slug:slug>/rotations/<int:number>/first-dealer/",
        director.rotation_first_dealer,
        name="director-rotation-first-dealer",
    ),
    path(
        "events/<slug:slug>/rotations/<int:number>/start/",
        director.rotation_start,
        name="director-rotation-start",
    ),
    path(
        "events/<slug:slug>/rotations/<int:number>/close/",
        director.rotation_close,
        name="director-rotation-close",
    ),
    path(
        "events/<slug:slug>/rotations/<int:number>/delete/",
        director.rotation_delete,
        name="director-rotation-delete",
    ),
]
