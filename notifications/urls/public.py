from django.urls import path

from notifications.views import unsubscribe

urlpatterns = [
    path("mail/unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="mail-unsubscribe"),
]
