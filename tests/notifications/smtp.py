"""A real SMTP server for the tests (aiosmtpd), on a free local port: what it receives is read
back as parsed messages. Nothing leaves the machine."""

import email
import email.policy
import socket
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


class _Inbox:
    def __init__(self, refuse: set[str], defer_once: set[str]) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = refuse
        self.defer_once = set(defer_once)  # answered "try again later" the first time

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,  # noqa: N802
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 No such mailbox here"
        if address in self.defer_once:
            self.defer_once.discard(address)
            return "451 4.3.0 Busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        message = email.message_from_bytes(
            envelope.original_content or b"", policy=email.policy.default
        )
        self.messages.append(message)  # type: ignore[arg-type]  # policy.default makes EmailMessage
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SmtpServer:
    def __init__(self, refuse: set[str] | None = None, defer_once: set[str] | None = None) -> None:
        self.inbox = _Inbox(refuse or set(), defer_once or set())
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[EmailMessage]:
        return self.inbox.messages

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
