"""A real SMTP server for the tests (aiosmtpd), on a free local port: what it receives is read
back as parsed messages. Nothing leaves the machine.

It can be made to fail as a whole (issue 42): `refuse_login` answers every login 535,
`every_rcpt` answers every address with the given reply ("550 5.7.1 Relaying denied",
"421 4.3.2 Shutting down"); a test sets them back to None/False to let mail through again."""

import email
import email.policy
import socket
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session


class _Inbox:
    def __init__(self, refuse: set[str], defer_once: set[str]) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = refuse
        self.defer_once = set(defer_once)  # answered "try again later" the first time
        self.every_rcpt: str | None = None  # the reply to every address (a server refusing all)
        self.refuse_login = False
        self.logins = 0

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,  # noqa: N802
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if self.every_rcpt:
            return self.every_rcpt
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


    def authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: object
    ) -> AuthResult:
        self.logins += 1
        good = isinstance(data, LoginPassword) and not self.refuse_login
        return AuthResult(success=good, handled=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SmtpServer:
    def __init__(self, refuse: set[str] | None = None, defer_once: set[str] | None = None) -> None:
        self.inbox = _Inbox(refuse or set(), defer_once or set())
        self.port = free_port()
        # A login is offered without TLS (the tests' mail settings log in only when told to).
        self.controller = Controller(
            self.inbox, hostname="127.0.0.1", port=self.port,
            authenticator=self.inbox.authenticate, auth_require_tls=False,
        )

    @property
    def messages(self) -> list[EmailMessage]:
        return self.inbox.messages

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
