"""Sending mail: plain text and HTML from templates, once per reason, subject and address.

`mail_send` records the mail (`SentMail`, unique per reason, key and address) before handing it
to the mail server and skips it when the record exists: a retried or twice-delivered job never
sends a mail twice. A mail server that fails (connection lost) deletes the record so the retry
sends it (`MailDeferred`); one that refuses the address for good (5xx) marks the contact
undeliverable, and nothing more is sent there until the player gives an address again.

A fault of the server is not a bad address (issue 42): a refused login, a connection refused or
lost, the sender or the message refused, or every address refused (a 5xx to one address while
the server takes mail for its own postmaster is the address's; otherwise the server's) marks
nothing undeliverable. It is recorded as a `MailOutage` (since when, and why in words, for the
directors' pages: `notifications.selectors.mail_outage_words`) and raises `MailServerDown`,
so the job tries again later; the next mail that goes out clears it.
"""

import contextlib
import email.policy
import logging
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage as StdlibMessage
from email.policy import EmailPolicy, Policy
from email.utils import parseaddr
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notifications.models import Contact, MailOutage, SentMail

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


class MailDeferred(Exception):
    """The mail server could not take the mail now (away, busy, a 4xx answer): nothing was
    recorded as sent, and the job tries again later."""


class MailServerDown(MailDeferred):
    """The mail server itself does not take mail (see the module): `reason` says why, in the
    directors' words ("the mail server refused the login")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Mail:
    reason: str  # a Contact.Reason
    key: str  # what it is about, with the reason the mail's identity: "game:12"
    template: str  # templates/notifications/mail/<template>.txt, .html and _subject.txt
    context: dict[str, Any]
    time_zone: str = ""  # the club's (`Club.time_zone`): its times are written in it


def site_url(path: str) -> str:
    return settings.SITE_URL + path


def unsubscribe_token(*, contact: Contact, reason: str) -> str:
    return signing.dumps({"c": contact.pk, "r": reason}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(*, contact: Contact, reason: str) -> str:
    token = unsubscribe_token(contact=contact, reason=reason)
    return site_url(reverse("mail-unsubscribe", args=[token]))


def _time_zone(mail: Mail) -> str:
    """The zone the mail's times are written in: its club's (given, or the club of the mail's
    `club` or `event`), else the one active."""
    club = mail.context.get("club") or getattr(mail.context.get("event"), "club", None)
    return mail.time_zone or getattr(club, "time_zone", "") or timezone.get_current_timezone_name()


class _ListMessage(EmailMultiAlternatives):
    """A mail whose list headers (`list_headers`: List-Unsubscribe, RFC 2369, and its one-click
    List-Unsubscribe-Post, RFC 8058) go out as written, `<https://...>` on one line. The email
    package folds a long header made of one word (the signed unsubscribe link is longer than a
    line) into RFC 2047 encoded-words (`=?utf-8?q?=3Chttps...?=`), which mail programs do not
    read as a link: they offered no one-click stop."""

    list_headers: dict[str, str] = {}

    def message(self, *, policy: Policy | None = None) -> StdlibMessage:
        # "none": a header set raw below is written as given (one line, well under the 998
        # characters of RFC 5322); every other header is folded as before.
        base = policy if isinstance(policy, EmailPolicy) else email.policy.default
        message = super().message(policy=base.clone(refold_source="none"))
        for name, value in self.list_headers.items():
            del message[name]
            message.set_raw(name, value)
        return message


def _message(mail: Mail, email: str, contact: Contact | None) -> EmailMultiAlternatives:
    context = {**mail.context, "site_url": settings.SITE_URL, "contact": contact}
    headers = {}
    if contact is not None and mail.reason in Contact.OPTIONAL:
        link = unsubscribe_url(contact=contact, reason=mail.reason)
        context["unsubscribe_url"] = link
        headers = {
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    base = f"notifications/mail/{mail.template}"
    with timezone.override(_time_zone(mail)):
        subject = " ".join(render_to_string(f"{base}_subject.txt", context).split())
        body = render_to_string(f"{base}.txt", context)
        html = render_to_string(f"{base}.html", context)
    message = _ListMessage(subject=subject, body=body, to=[email])
    message.list_headers = headers
    message.attach_alternative(html, "text/html")
    return message


def mail_send(*, mail: Mail, email: str, contact: Contact | None = None) -> bool:
    """Send `mail` to `email` unless it was sent before (or the contact does not want it);
    True when it was handed to the mail server now."""
    if contact is not None and not contact.wants(mail.reason):
        return False
    message = _message(mail, email, contact)
    try:
        with transaction.atomic():
            record = SentMail.objects.create(
                reason=mail.reason,
                key=mail.key,
                email=email,
                contact=contact,
                subject=message.subject[:200],
                body=str(message.body),
            )
    except IntegrityError:
        return False  # sent before (or being sent by another attempt)
    try:
        message.send()
    except smtplib.SMTPRecipientsRefused as refused:
        codes = [code for code, _ in refused.recipients.values()] or [421]
        fault = _server_check() if min(codes) >= 500 else None
        if min(codes) >= 500 and fault is None:
            _mark_undeliverable(record, contact, refused)  # the server works: the address is bad
            return False
        record.delete()
        if fault is not None or 421 in codes:
            raise _server_down(fault or _fault_words(refused)) from refused
        raise MailDeferred(f"{email}: the mail server said to try again later") from refused
    except OSError as error:  # every smtplib error, a connection refused or lost, a timeout
        record.delete()  # not sent: the job's retry sends it
        raise _server_down(_fault_words(error)) from error
    SentMail.objects.filter(pk=record.pk).update(status=SentMail.Status.SENT)
    MailOutage.objects.filter(pk=MailOutage.ROW).delete()  # mail goes out again
    return True


def _reply(error: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused) -> str:
    text: bytes | str
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        code, text = next(iter(error.recipients.values()), (0, b""))
    else:
        code, text = error.smtp_code, error.smtp_error
    words = text.decode(errors="replace") if isinstance(text, bytes) else str(text)
    return f"{code} {' '.join(words.split())}"[:80]


def _fault_words(error: BaseException) -> str:
    """What the mail server did, in the directors' words."""
    if isinstance(error, smtplib.SMTPAuthenticationError):
        return "the mail server refused the login"
    if isinstance(error, smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused) and (
        _reply(error).startswith("421 ")
    ):
        return f"the mail server is not taking mail now ({_reply(error)})"
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return f"the mail server refused every address ({_reply(error)})"
    if isinstance(error, smtplib.SMTPSenderRefused):
        return f"the mail server refused the club's sending address ({_reply(error)})"
    if isinstance(error, smtplib.SMTPDataError):
        return f"the mail server refused the message ({_reply(error)})"
    if isinstance(error, smtplib.SMTPResponseException):
        return f"the mail server refused the connection ({_reply(error)})"
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return "the mail server closed the connection"
    return "the mail server cannot be reached"


def _server_check() -> str | None:
    """Whether the mail server takes mail now: None when it accepts the club's own postmaster
    (which every mail server must: RFC 5321, 4.5.1), else what it did, in words. Asked only when
    an address was refused for good, to tell a bad address from a server refusing them all."""
    sender = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "league@localhost"
    postmaster = "postmaster@" + sender.rpartition("@")[2]
    connection = get_connection()
    try:
        connection.open()
        server: smtplib.SMTP = connection.connection  # type: ignore[attr-defined]  # the SMTP backend's, open
        server.ehlo_or_helo_if_needed()
        code, text = server.mail(sender)
        if code >= 400:
            return _fault_words(smtplib.SMTPSenderRefused(code, text, sender))
        code, text = server.rcpt(postmaster)
        server.rset()
        if code >= 400:
            return _fault_words(smtplib.SMTPRecipientsRefused({postmaster: (code, text)}))
        return None
    except OSError as error:
        return _fault_words(error)
    finally:
        with contextlib.suppress(OSError):  # closing a connection the server dropped
            connection.close()


def _server_down(reason: str) -> MailServerDown:
    """Record the outage (since its first fault) and say so; raised by the caller."""
    now = timezone.now()
    try:
        updated = MailOutage.objects.filter(pk=MailOutage.ROW).update(
            reason=reason, last_tried_at=now, attempts=F("attempts") + 1
        )
        if not updated:
            with transaction.atomic():
                MailOutage.objects.create(pk=MailOutage.ROW, since=now, reason=reason,
                                          last_tried_at=now)
    except IntegrityError:
        pass  # recorded by another mail at the same moment
    log.warning("mail not going out: %s", reason)
    return MailServerDown(reason)


def _mark_undeliverable(record: SentMail, contact: Contact | None, refused: Exception) -> None:
    SentMail.objects.filter(pk=record.pk).update(status=SentMail.Status.REFUSED)
    if contact is not None:
        Contact.objects.filter(pk=contact.pk).update(
            undeliverable_at=timezone.now(),
            undeliverable_reason="The mail server refused this address.",
        )
    log.warning("mail to %s refused: %s", record.email, refused)


def unsubscribe_read(*, token: str) -> tuple[Contact, str] | None:
    """The contact and the kind of mail a signed unsubscribe link names; None when the link is
    not one of ours (or the contact is gone)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("r") not in Contact.CHOICE_OF_REASON:
        return None
    contact_id = data.get("c")
    if not isinstance(contact_id, int):
        return None
    contact = Contact.objects.filter(pk=contact_id).select_related("player").first()
    return (contact, data["r"]) if contact is not None else None


def contact_unsubscribe(*, token: str) -> tuple[Contact, str] | None:
    """Turn off the kind of mail the link was in (no login: the link is signed)."""
    found = unsubscribe_read(token=token)
    if found is None:
        return None
    contact, reason = found
    field = Contact.CHOICE_OF_REASON[reason]
    setattr(contact, field, False)
    contact.save(update_fields=[field])
    return contact, reason
