"""Sending mail: plain text and HTML from templates, once per reason, subject and address.

`mail_send` records the mail (`SentMail`, unique per reason, key and address) before handing it
to the mail server and skips it when the record exists: a retried or twice-delivered job never
sends a mail twice. A mail server that fails (connection lost) deletes the record so the retry
sends it (`MailDeferred`); one that refuses the address for good (5xx) marks the contact
undeliverable, and nothing more is sent
there until the player gives an address again.
"""

import logging
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notifications.models import Contact, SentMail

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


class MailDeferred(Exception):
    """The mail server could not take the mail now (away, busy, a 4xx answer): nothing was
    recorded as sent, and the job tries again later."""


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
    message = EmailMultiAlternatives(subject=subject, body=body, to=[email], headers=headers)
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
        if all(code >= 500 for code, _ in refused.recipients.values()):
            _mark_undeliverable(record, contact, refused)
            return False
        record.delete()
        raise MailDeferred(f"{email}: the mail server said to try again later") from refused
    except smtplib.SMTPResponseException as answer:
        if answer.smtp_code >= 500:
            _mark_undeliverable(record, contact, answer)
            return False
        record.delete()
        raise MailDeferred(f"{email}: the mail server said {answer.smtp_code}") from answer
    except (OSError, smtplib.SMTPException) as away:
        record.delete()  # not sent: the job's retry sends it
        raise MailDeferred(f"{email}: the mail server cannot be reached ({away})") from away
    SentMail.objects.filter(pk=record.pk).update(status=SentMail.Status.SENT)
    return True


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
