"""Pages that assemble several apps (see `site_pages.views`)."""

from django.urls import path

from site_pages import views

urlpatterns = [
    path(
        "clubs/<slug:club>/leagues/<slug:league>/seasons/<slug:season>/",
        views.season_detail,
        name="season-detail",
    ),
    path("events/<slug:slug>/", views.event_detail, name="event-detail"),
]
