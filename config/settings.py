"""Settings, read from the environment.

With nothing set, the service runs embedded: SQLite in ./data and Celery tasks in-process.
`DATABASE_URL` and `CELERY_BROKER_URL` switch to PostgreSQL and Redis.
`DJANGO_ENV=production` turns on the production mode: DEBUG off, a secret key required,
secure cookies, HSTS and explicit allowed hosts.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.static_headers import one_year_for_hashed_files

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "data"))

PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


if PRODUCTION:
    SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set (50+ characters) in production.")
    DEBUG = False
    ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the site's host names.")
    CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
    # DJANGO_HTTPS=0 serves plain http (docker-compose.yml's default, until TLS is set up in
    # front): no redirect to https, cookies that a browser sends back over http, no HSTS.
    HTTPS = os.environ.get("DJANGO_HTTPS", "1") == "1"
    SECURE_SSL_REDIRECT = HTTPS and os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") == "1"
    # X-Forwarded-Proto is believed only from a proxy in front (DJANGO_NUM_PROXIES > 0): with
    # gunicorn published directly, any client could claim https.
    if int(os.environ.get("DJANGO_NUM_PROXIES", "0")) > 0:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = HTTPS
    CSRF_COOKIE_SECURE = HTTPS
    SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
    SECURE_HSTS_PRELOAD = HTTPS
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
else:
    SECRET_KEY = os.environ.get(
        "DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me-in-production-0123456789abcdef"
    )
    DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
    ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
    CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "rest_framework",
    # API tokens that expire and can be revoked (config/auth.py). rest_framework.authtoken's old
    # table may stay in an existing database, unused.
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "jobs",
    "league",
    "games",
    "analytics",
    "notifications",
    "site_pages",
]

MIDDLEWARE = [
    # First: a body declared larger than REQUEST_MAX_BYTES is refused before anything reads it.
    "config.request_limits.RequestSizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A lost database connection answers 503 with Retry-After, not 500.
    "config.faults.DatabaseUnavailableMiddleware",
    # The site's TIME_ZONE around each request; a club's page reads in the club's zone
    # (league.time_zones), which must not leak into the next request.
    "config.time_zone.TimeZoneResetMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed (static files come compressed from WhiteNoise above). Django's gzip adds
    # random bytes to each response against BREACH; CSRF tokens are masked per response too.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.page_errors.DomainErrorMiddleware",
    # Last: django-axes answers a locked-out login (429 with Retry-After).
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["league.templatetags.status_badges"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.mail_outage",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: PostgreSQL when DATABASE_URL is set, else SQLite in the data folder.
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
        )
    }
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(DATA_DIR / "handfoot.sqlite3"),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # The embedded test run uses a file too (pytest-django suffixes it per xdist worker):
            # an in-memory test database is shared-cache, whose table locks ignore the timeout,
            # so a browser test's concurrent requests could get 503 "database table is locked".
            "TEST": {"NAME": str(DATA_DIR / "test_handfoot.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a check: a new password revokes the account's API tokens and lifts its lockout.
    {"NAME": "config.auth.PasswordChangeRevokes"},
]

LANGUAGE_CODE = "en-us"
# Only the zone a new club starts with (and of pages of no club): each club has its own
# (Club.time_zone), in which its nights, reminders, calendars, mail and pages are.
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
# The live fragments written as files for the proxy (`publish_live_pages`, deploy/nginx.conf).
LIVE_PAGES_ROOT = Path(os.environ.get("LIVE_PAGES_ROOT", DATA_DIR / "live"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# `collectstatic` (run by `make run` and the docker web service) gives every file a hashed name
# and gzip and brotli copies; WhiteNoise serves them with a one-year immutable cache. With DEBUG
# on, pages link the unhashed names and WhiteNoise also finds files that were not collected.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_ADD_HEADERS_FUNCTION = one_year_for_hashed_files
WHITENOISE_KEEP_ONLY_HASHED_FILES = True  # pages link only those; half the files to compress
if not PRODUCTION:
    # An empty root before the first collectstatic keeps WhiteNoise quiet.
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "login-landing"
LOGOUT_REDIRECT_URL = "home"
# Mail: the password reset's link (/accounts/password_reset/). Embedded (no EMAIL_HOST): written
# as files to data/mail/, so `make run` shows it without a mail server; in production sent
# through the SMTP server EMAIL_HOST (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
# EMAIL_USE_TLS=1).
if PRODUCTION or os.environ.get("EMAIL_HOST"):
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", 25)),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": os.environ.get("EMAIL_USE_TLS", "0") == "1",
        # A mail server that does not answer is a fault told to the directors, not a hang.
        "timeout": int(os.environ.get("EMAIL_TIMEOUT", 20)),
    }}}
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.filebased.EmailBackend",
                           "OPTIONS": {"file_path": str(DATA_DIR / "mail")}}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "league@localhost")
# The site's address as players reach it, for the links in mail and calendars.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# How long after a result is confirmed its players may still dispute it (said in the mail).
MAIL_DISPUTE_HOURS = int(os.environ.get("MAIL_DISPUTE_HOURS", "48"))

# Celery: Redis when CELERY_BROKER_URL is set, else every task runs in-process.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
# No task's result is read (jobs keep theirs in the database, jobs.models.Job): none is stored,
# else every recompute leaves one in Redis for a day. A task whose caller waits for it says
# so itself (config.ping, ignore_result=False); those expire after an hour.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# In-process: nothing to connect to (not Celery's default, an AMQP server on localhost).
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
# Long work (jobs.services.jobs): "celery" parts go to the worker; "thread" (the embedded mode,
# which has no worker) runs a job beside the web server so the page answers at once; "inline"
# (the tests) runs it to the end before the request answers.
JOBS_RUNNER = os.environ.get("JOBS_RUNNER") or ("thread" if CELERY_TASK_ALWAYS_EAGER else "celery")
# Games per part of a what-if job: a part is a few seconds of one worker process.
WHATIF_PART_GAMES = int(os.environ.get("WHATIF_PART_GAMES", "500"))
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker rides out a Redis outage: it retries the connection for ever (config.celery's consumer
# every 2 s at most), and a task running when the connection drops is given back to the queue
# (every job is idempotent) instead of finishing unacknowledged.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.celery:ReconnectingConsumer"
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_RESULT_BACKEND_MAX_RETRIES = 10
# A message taken by a worker that dies before acking it goes back to the queue after this many
# seconds: longer than any recompute (seconds at club size; the nightly full rebuild is split
# per club), short enough that a killed worker's job comes back soon. The stale snapshot sweep
# below re-queues a lost recompute within a minute anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", 300)),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
# Sending a job with the broker down fails fast (the request has committed its result already).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5,
}
# Bulk work (imports of past results and move logs, the nightly rebuild, a backfill) goes to a
# queue of its own, served by a worker of its own (docker-compose.yml's `worker-bulk`), so a live
# night's jobs on the default queue never wait behind it (issue 42). Routed in config.celery.
CELERY_TASK_DEFAULT_QUEUE = "celery"
BULK_QUEUE = os.environ.get("CELERY_BULK_QUEUE", "bulk")
STALE_SNAPSHOT_SWEEP_SECONDS = int(os.environ.get("STALE_SNAPSHOT_SWEEP_SECONDS", 60))
STALE_SNAPSHOT_GRACE = int(os.environ.get("STALE_SNAPSHOT_GRACE", 30))
CELERY_BEAT_SCHEDULE = {
    "stale-snapshot-sweep": {
        "task": "analytics.sweep_stale_snapshots",
        "schedule": STALE_SNAPSHOT_SWEEP_SECONDS,
        "options": {"expires": STALE_SNAPSHOT_SWEEP_SECONDS},
    },
    "nightly-full-recompute": {
        "task": "analytics.recompute_all_clubs",
        "schedule": 24 * 60 * 60,
        "options": {"expires": 60 * 60},
    },
    # Jobs asked for while the broker was away (jobs.services.outbox): sent once it is back.
    "resend-pending-jobs": {
        "task": "jobs.resend_pending",
        "schedule": 60,
        "options": {"expires": 60},
    },
    "night-reminders": {
        "task": "notifications.send_due_reminders",
        "schedule": 15 * 60,
        "options": {"expires": 15 * 60},
    },
}

# Coalescing of analytics recomputes and other short-lived shared state.
if CELERY_BROKER_URL.startswith("redis"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ.get("CACHE_URL", CELERY_BROKER_URL),
            # Parallel test processes share one Redis: each keeps its own keys (ids repeat
            # across their databases). Empty outside pytest-xdist.
            "KEY_PREFIX": os.environ.get("PYTEST_XDIST_WORKER", ""),
            # Redis down: fail fast (callers carry on without it, see web/throttling.py).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Throttle counts: shared by every web worker through Redis when there is one.
CACHES["throttle"] = {**CACHES["default"],
                      "KEY_PREFIX": "throttle" + os.environ.get("PYTEST_XDIST_WORKER", "")}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # The token first: a request without credentials (or with a bad token) is then 401 with
        # `WWW-Authenticate: Token`, as API clients expect; pages' session cookies still work.
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Writes need an account unless a view opens itself explicitly (the anonymous checks, the
    # table entry endpoints that authenticate by the table's own credential).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies only: the pages post their forms to Django views, never to /api/. A view that
    # takes an uploaded file would name its own multipart parser (none does: move logs are JSON).
    "DEFAULT_PARSER_CLASSES": ["web.parsers.StrictJSONParser"],
    # APIClient in the tests speaks the API's language.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_THROTTLE_RATES": {
        # A club's phones may share one address: the sheet page checks as scorers type.
        "check": os.environ.get("THROTTLE_CHECK", "600/minute"),
        "token": os.environ.get("THROTTLE_TOKEN", "30/minute"),
        # Failed lookups (codes, links, entry tokens that match nothing) per address, and across
        # all addresses together; a lookup that matches is never counted nor refused.
        "lookup": os.environ.get("THROTTLE_LOOKUP", "20/minute"),
        "lookup_site": os.environ.get("THROTTLE_LOOKUP_SITE", "300/minute"),
    },
    # The number of proxies in front of the app that set X-Forwarded-For (0: the client's own
    # address is REMOTE_ADDR). Throttles count per client address, so this must be exact.
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0")),
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.api_autoschema.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
}

# Content-Security-Policy on every page (Django's own CSP support). No inline script anywhere:
# page scripts are static files, data for them travels in <script type="application/json">.
# Inline *styles* stay allowed because plotly.js, Swagger UI and Redoc set style attributes;
# Redoc runs its search in a blob: worker.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF, "blob:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Request bodies: size and nesting limits of the API's JSON (web/parsers.py) and of forms.
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", 2_000_000))
API_MAX_JSON_DEPTH = int(os.environ.get("API_MAX_JSON_DEPTH", 32))
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES + 500_000
# Any request's body (an API body, a move log uploaded from the table page with its multipart
# framing), refused from Content-Length before it is read (config.request_limits).
# A poll that Django answered for a reader not signed in is answered 304 before Django for this
# long (web.poll_shortcut); 0 turns it off.
POLL_SHORTCUT_SECONDS = float(os.environ.get("POLL_SHORTCUT_SECONDS", 0.5))
# A public page whose version changes is drawn again at most once per this long by one web
# process; the others meanwhile serve the version drawn last (analytics.views.page_cache).
PAGE_REDRAW_SECONDS = float(os.environ.get("PAGE_REDRAW_SECONDS", 0.5))
REQUEST_MAX_BYTES = int(os.environ.get("REQUEST_MAX_BYTES", DATA_UPLOAD_MAX_MEMORY_SIZE))

# Logins (page and /api/auth/token/), counted by django-axes (config/auth.py): a browser with a
# device cookie of the account has AXES_FAILURE_LIMIT failures of its own; every other attempt
# counts per address and account (AXES_FAILURE_LIMIT) and per account across all addresses
# (LOGIN_ACCOUNT_FAILURE_LIMIT). A new password clears the counts.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 10))
LOGIN_ACCOUNT_FAILURE_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_LIMIT", 30))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", 0.25))
AXES_LOCKOUT_PARAMETERS = "config.auth.lockout_parameters"
AXES_USERNAME_CALLABLE = "config.auth.lockout_username"
AXES_HANDLER = "config.auth.LoginLockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "web.throttling.client_ip"
AXES_VERBOSE = False

# API tokens (django-rest-knox): a new one per sign-in, kept hashed, sent as
# `Authorization: Token <key>`, expiring after API_TOKEN_HOURS.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("API_TOKEN_HOURS", 10))),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Hand and Foot League API",
    "DESCRIPTION": "Events, seating, results and standings of Hand and Foot clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"GameStatusEnum": "league.models.Game.Status"},
    # Request bodies get their own components (ClubRequest ...) without the read-only fields,
    # so a generated client asks only for what a request sends.
    "COMPONENT_SPLIT_REQUEST": True,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's own console handler would print every line a second time: the root prints it.
    "loggers": {"django": {"handlers": [], "level": os.environ.get("LOG_LEVEL", "INFO")}},
}
