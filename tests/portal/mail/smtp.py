"""A real SMTP server for tests (aiosmtpd on a free local port) and helpers to read what
arrived and to build replies the way a mail client does."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid, parseaddr

from aiosmtpd.controller import Controller

logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's chatter per command


@dataclass
class Delivered:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def message(self) -> EmailMessage:
        return BytesParser(policy=policy.default).parsebytes(self.data)  # type: ignore[return-value]

    @property
    def text(self) -> str:
        return self.message.get_body(preferencelist=("plain",)).get_content()

    @property
    def html(self) -> str:
        return self.message.get_body(preferencelist=("html",)).get_content()


class Mailboxes:
    """aiosmtpd handler: keeps every delivered message; can refuse recipients on demand."""

    def __init__(self) -> None:
        self.delivered: list[Delivered] = []
        self.refuse: dict[str, str] = {}  # recipient -> SMTP answer, e.g. "451 4.3.0 later"
        self.lock = threading.Lock()
        self.sessions = 0  # SMTP conversations opened (EHLO/HELO)
        self.held: set[str] = set()  # recipients whose RCPT is not answered until released
        self.holding = threading.Event()  # set once a held RCPT is waiting

    def hold(self, address: str) -> None:
        """Leave the sender waiting at ``address``'s RCPT (a slow server) until ``release``;
        then refuse it for now (the message is never accepted)."""
        self.held.add(address.lower())

    def release(self) -> None:
        self.held.clear()

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.held:
            self.holding.set()
            while address.lower() in self.held:
                await asyncio.sleep(0.05)
            return "451 4.3.0 Held, try again"
        answer = self.refuse.get(address.lower())
        if answer:
            return answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.delivered.append(Delivered(envelope.mail_from, list(envelope.rcpt_tos),
                                            bytes(envelope.content)))
        return "250 Message accepted for delivery"

    def clear(self) -> None:
        with self.lock:
            self.delivered.clear()
        self.refuse.clear()
        self.sessions = 0

    def to(self, address: str) -> list[Delivered]:
        with self.lock:
            return [d for d in self.delivered if address.lower() in
                    [r.lower() for r in d.rcpt_tos]]

    def wait_for(self, address: str, count: int, timeout: float = 20) -> list[Delivered]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.to(address)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{address} got {len(self.to(address))} emails, wanted {count}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server() -> tuple[Controller, Mailboxes]:
    handler = Mailboxes()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller, handler


def reply_to(delivered: Delivered, *, sender: str, orders: str, html_only: bool = False,
             extra_headers: dict[str, str] | None = None) -> bytes:
    """The reply a mail client makes: To = the Reply-To, orders on top, the original quoted."""
    original = delivered.message
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = str(original["Reply-To"] or original["From"])
    subject = str(original["Subject"])
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Message-ID"] = make_msgid(domain="client.test")
    reply["In-Reply-To"] = str(original["Message-ID"])
    for name, value in (extra_headers or {}).items():
        reply[name] = value
    author = parseaddr(str(original["From"]))[0] or "Tank Portal"
    quoted = "\n".join(f"> {line}" for line in delivered.text.splitlines())
    if html_only:
        paragraphs = "".join(f"<div>{line}</div>" for line in orders.splitlines())
        reply.set_content(
            f"<html><body>{paragraphs}<div class='gmail_quote'>On Sun, {author} wrote:"
            f"<blockquote>{delivered.text[:400]}</blockquote></div></body></html>",
            subtype="html")
    else:
        reply.set_content(f"{orders}\n\nOn Sun, 22 Nov 2026 at 04:00, {author} wrote:\n"
                          f"{quoted}\n\n-- \nSent from my tank\n")
    return reply.as_bytes()
