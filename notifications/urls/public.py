from django.urls import path

from notifications.views import calendars, rsvp, unsubscribe

urlpatterns = [
    path("mail/unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="mail-unsubscribe"),
    path("rsvp/<str:token>/", rsvp.rsvp, name="rsvp"),
    path("events/<slug:slug>/calendar.ics", calendars.event_calendar, name="event-calendar"),
    path("clubs/<slug:slug>/calendar.ics", calendars.club_calendar, name="club-calendar"),
    path(
        "clubs/<slug:club>/leagues/<slug:league>/calendar.ics",
        calendars.league_calendar,
        name="league-calendar",
    ),
    path("calendar/<str:token>.ics", calendars.player_calendar, name="player-calendar"),
]
