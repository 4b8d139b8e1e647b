"""The "your result is confirmed" mail: each player of the game who wants it gets the rounds and
totals, and the link to dispute it while the club's window is open."""

from django.urls import reverse

from games import selectors as game_selectors
from notifications import selectors
from notifications.services.mail import Mail, mail_send, site_url


def result_mails_send(*, game_id: int) -> int:
    """Mail the game's confirmed result to its players (once per confirmed version: a later
    correction is mailed again, an imported past result never); the number of mails sent now."""
    version = selectors.game_confirmed_version(game_id=game_id)
    if version is None or version.imported_from:
        return 0  # no result, or one from the club's past brought in from a spreadsheet
    game = version.game
    recipients = selectors.result_recipients(game=game)
    if not recipients:
        return 0
    event = game.table.rotation.event
    lines = selectors.result_lines(game=game)
    # The page behind the link takes a dispute until then, even after the night ends.
    until = game_selectors.dispute_open_until(version=version)
    sent = 0
    for recipient in recipients:
        context = {
            "player": recipient.player,
            "event": event,
            "game": game,
            "lines": selectors.result_lines_for(lines, reader=recipient.player),
            "rotation": game.table.rotation.number,
            "table": game.table.number,
            "my_side": recipient.side + 1,
            "dispute_until": until,
            "dispute_url": site_url(reverse("play-game", args=[recipient.entry_token]))
            if recipient.entry_token
            else "",
            "event_url": site_url(event.get_absolute_url()),
        }
        mail = Mail(
            reason="result",
            key=f"game:{game.pk}:v{version.number}",
            template="result",
            context=context,
            time_zone=event.club.time_zone,
        )
        sent += mail_send(mail=mail, email=recipient.contact.email, contact=recipient.contact)
    return sent
