"""What every director's page shows from the mail: the mail server not taking mail (issue 42),
so a director who sends mail, or waits for results and night mail to go out, knows it."""

from django.http import HttpRequest

from notifications.selectors import mail_outage_words


def mail_outage(request: HttpRequest) -> dict[str, str | None]:
    """On the directors' pages only (one query; no other page asks)."""
    if not request.path.startswith("/director/") or not request.user.is_authenticated:
        return {}
    return {"mail_outage": mail_outage_words()}
