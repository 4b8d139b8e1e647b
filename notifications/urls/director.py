from django.urls import path

from notifications.views import director

urlpatterns = [
    path("clubs/<slug:slug>/mail/", director.club_mail, name="director-club-mail"),
]
