from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from config.api_schema import CachedSchemaView
from config.auth import DeviceLoginView, TokenLogoutAllView, TokenLogoutView, TokenView
from config.health import healthz
from league.views.director import landing

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Django's login page, giving a browser that signs in its device cookie (config/auth.py).
    path("accounts/login/", DeviceLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    # API
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/auth/logout/", TokenLogoutView.as_view(), name="api-logout"),
    path("api/auth/logout-all/", TokenLogoutAllView.as_view(), name="api-logout-all"),
    path("api/schema/", CachedSchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/", include("league.urls.api")),
    path("api/", include("games.urls.api")),
    path("api/", include("analytics.urls.api")),
    # Pages
    path("accounts/landing/", landing, name="login-landing"),
    path("director/", include("league.urls.director")),
    path("director/", include("games.urls.director")),
    path("director/", include("notifications.urls.director")),
    path("play/", include("games.urls.table")),
    path("", include("games.urls.public")),
    path("", include("jobs.urls.public")),
    path("", include("notifications.urls.public")),
    path("", include("analytics.urls.public")),
    path("", include("site_pages.urls.public")),
    path("", include("site_pages.urls.pace")),
    path("", include("league.urls.public")),
]
