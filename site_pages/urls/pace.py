"""The room's pace on the director's event page (`site_pages.views.pace`)."""

from django.urls import path

from site_pages.views import pace

urlpatterns = [
    path("director/events/<slug:slug>/pace/", pace.event_pace, name="director-event-pace"),
    path("director/events/<slug:slug>/pace/extra-time/", pace.event_pace_extra_time,
         name="director-event-pace-extra-time"),
]
