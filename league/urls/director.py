"""Director pages under /director/."""

from django.urls import path

from league.views import attendance, director, invitations, league_settings, room, seating

urlpatterns = [
    path("", director.home, name="director-home"),
    path("clubs/new/", director.club_create, name="director-club-create"),
    path("clubs/<slug:slug>/", director.club_page, name="director-club"),
    path("clubs/<slug:slug>/members/", director.club_member_add, name="director-club-member-add"),
    path("clubs/<slug:slug>/invitations/<int:invitation_id>/withdraw/",
         director.club_invitation_withdraw, name="director-club-invitation-withdraw"),
    path("invitations/", invitations.invitations_page, name="invitations"),
    path("invitations/<int:invitation_id>/", invitations.invitation_answer, name="invitation-answer"),
    path("clubs/<slug:slug>/leagues/", director.club_league_add, name="director-club-league-add"),
    path("clubs/<slug:slug>/seasons/", director.club_season_add, name="director-club-season-add"),
    path("clubs/<slug:slug>/leagues/<slug:league_slug>/settings/", league_settings.league_settings_page,
         name="director-league-settings"),
    path("events/new/", director.event_create, name="director-event-create"),
    path("events/<slug:slug>/", director.event_page, name="director-event"),
    path("events/<slug:slug>/edit/", director.event_edit, name="director-event-edit"),
    path("events/<slug:slug>/coming/", attendance.event_coming, name="director-event-coming"),
    path("events/<slug:slug>/wishes/", seating.wishes_page, name="director-event-wishes"),
    path("events/<slug:slug>/wishes/<int:pk>/remove/", seating.wish_remove,
         name="director-event-wish-remove"),
    path("events/<slug:slug>/plans/", seating.plans_page, name="director-event-plans"),
    path("events/<slug:slug>/plans/use/", seating.plan_use, name="director-event-plan-use"),
    path("events/<slug:slug>/status/", director.event_status, name="director-event-status"),
    path("events/<slug:slug>/registrations/", director.registration_add, name="director-registration-add"),
    path(
        "events/<slug:slug>/registrations/<int:pk>/check-in/",
        room.registration_toggle,
        name="director-registration-check-in",
    ),
    path(
        "events/<slug:slug>/registrations/check-in-all/",
        room.registration_check_in_all,
        name="director-registration-check-in-all",
    ),
    path("events/<slug:slug>/registrations/paste/", room.registration_paste, name="director-registration-paste"),
    path("events/<slug:slug>/house-rules/", room.house_rules_page, name="director-house-rules"),
    path("events/<slug:slug>/reopen/", room.event_reopen, name="director-event-reopen"),
    path("events/<slug:slug>/call-off/", room.event_call_off, name="director-event-call-off"),
    path("events/<slug:slug>/history/", director.event_history, name="director-event-history"),
    path("events/<slug:slug>/history/<int:pk>/undo/", room.audit_undo, name="director-audit-undo"),
    path("clubs/<slug:slug>/players/", room.club_players, name="director-players"),
    path("clubs/<slug:slug>/players/<slug:player_slug>/", room.player_page, name="director-player"),
    path("clubs/<slug:slug>/players/<slug:player_slug>/rename/", room.player_rename,
         name="director-player-rename"),
    path("clubs/<slug:slug>/players/<slug:player_slug>/retire/", room.player_retire,
         name="director-player-retire"),
    path("clubs/<slug:slug>/players/<slug:player_slug>/merge/", room.player_merge,
         name="director-player-merge"),
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
        room.rotation_close,
        name="director-rotation-close",
    ),
    path(
        "events/<slug:slug>/rotations/<int:number>/reopen/",
        room.rotation_reopen,
        name="director-rotation-reopen",
    ),

    path(
        "events/<slug:slug>/rotations/<int:number>/delete/",
        director.rotation_delete,
        name="director-rotation-delete",
    ),
]
