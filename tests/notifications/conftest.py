import pytest

from tests.notifications.smtp import SmtpServer


@pytest.fixture
def smtp(settings):
    """Mail goes to a real SMTP server started for the test."""
    server = SmtpServer(refuse={"nobody@example.org"})
    server.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": server.port},
        }
    }
    settings.SITE_URL = "http://league.example"
    yield server
    server.stop()
