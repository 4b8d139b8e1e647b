import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from web.poll_shortcut import PollShortcut  # noqa: E402  (after the settings are named)

# The polls of open pages answered before Django when it has just answered them (see there).
application = PollShortcut(get_wsgi_application())
