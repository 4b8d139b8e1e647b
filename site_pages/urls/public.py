"""Pages that assemble several apps (`site_pages.views`)."""

from django.urls import path

from site_pages.views import backup as backup_views
from site_pages.views import divisions, my_page, seat_calls, wall
from site_pages.views import pages as views

urlpatterns = [
    path(
        "clubs/<slug:club>/leagues/<slug:league>/seasons/<slug:season>/",
        views.season_detail,
        name="season-detail",
    ),
    path("events/<slug:slug>/", views.event_detail, name="event-detail"),
    path("director/seasons/<int:season_id>/divisions/", divisions.season_divisions,
         name="director-season-divisions"),
    path("events/<slug:slug>/wall/", wall.event_wall, name="event-wall"),
    path("director/clubs/<slug:slug>/backup/", backup_views.backup_start, name="director-club-backup-start"),
    path("director/clubs/<slug:slug>/backup/<uuid:job_id>/", backup_views.backup_page, name="director-club-backup"),
    path("director/clubs/<slug:slug>/backup/<uuid:job_id>/download/", backup_views.backup_download,
         name="director-club-backup-download"),
    path("me/", my_page.my_page, name="my-page"),
    path("me/data.json", my_page.my_data, name="my-data"),
    path("me/seat-calls/", seat_calls.my_seat_calls, name="my-seat-calls"),
    path("me/delete/", my_page.my_account_delete, name="my-account-delete"),
    path("me/players/<int:player_id>/privacy/", my_page.my_privacy, name="my-privacy"),
    path("me/players/<int:player_id>/mail/", my_page.my_mail, name="my-mail"),
    path("me/players/<int:player_id>/calendar/", my_page.my_calendar, name="my-calendar"),
    path("me/players/<int:player_id>/nights/<int:event_id>/", my_page.my_answer,
         name="my-answer"),
]
