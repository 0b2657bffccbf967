"""The mail channel of the delivery pipeline (``portal.delivery.pipeline``): every e-mail is a
row of ``OutgoingEmail`` first (``email_queue``), claimed and recorded by the pipeline; this
module only says how to send a batch (over one SMTP connection, skipping failing addresses) and
what an answer means (a 5xx is permanent: failed; a 4xx or no answer: retry with back-off).
"""

from __future__ import annotations

import functools
import logging
import random
import re
import smtplib
import sys
from collections.abc import Iterable, Iterator
from email.policy import Compat32
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend
from django.core.mail.message import sanitize_address

from durable import queue
from durable.queue import SENT, Result
from portal.delivery import pipeline
from portal.mail.models import FailingAddress, OutgoingEmail
from portal.mail.wire import message_bytes

logger = logging.getLogger(__name__)

# Headers on everything we send: we are a robot; auto-responders should stay quiet (RFC 3834).
AUTO_HEADERS = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}


def email_queue(
    *,
    kind: str,
    dedupe_key: str,
    to: str,
    subject: str,
    body_text: str,
    body_html: str = "",
    user: Any = None,
    match_id: int | None = None,
    phase_number: int | None = None,
    reply_to: str = "",
    headers: dict[str, str] | None = None,
) -> OutgoingEmail | None:
    """Queue the e-mail for ``dedupe_key`` (once) and its sending on commit. Returns the new
    row, or None if an email with that key exists already."""
    return pipeline.deliver("mail", **_fields(
        kind=kind, dedupe_key=dedupe_key, to=to, subject=subject, body_text=body_text,
        body_html=body_html, user=user, match_id=match_id, phase_number=phase_number,
        reply_to=reply_to, headers=headers))


def emails_queue(emails: Iterable[dict[str, Any]]) -> list[OutgoingEmail]:
    """``email_queue`` for many e-mails (each a dict of its arguments) in a constant number of
    queries (``pipeline.deliver_many``). Returns the rows that were new (their pk unset)."""
    return pipeline.deliver_many("mail", (_fields(**email) for email in emails))


def _fields(*, kind: str, dedupe_key: str, to: str, subject: str, body_text: str,
            body_html: str = "", user: Any = None, match_id: int | None = None,
            phase_number: int | None = None, reply_to: str = "",
            headers: dict[str, str] | None = None) -> dict[str, Any]:
    return {"dedupe_key": dedupe_key, "kind": kind, "to": to, "subject": subject[:255],
            "body_text": body_text, "body_html": body_html, "user": user,
            "match_id": match_id, "phase_number": phase_number, "reply_to": reply_to,
            "headers": headers or {}}


class _QuickFolding(Compat32):
    """The stdlib's compat32 policy, with a shortcut where folding a header changes nothing:
    a short single-line ASCII value with single spaces is written as it is (the stdlib builds
    a ``Header`` for every header of every message; with ~20 headers a message that was most
    of the time it took to turn one into bytes). Everything else folds as before."""

    def _fold(self, name: str, value: Any, sanitize: bool) -> str:
        if (isinstance(value, str) and value.isascii() and len(name) + 2 + len(value) <= 78
                and value.isprintable() and "  " not in value and value == value.strip()):
            return f"{name}: {value}{self.linesep}"
        return super()._fold(name, value, sanitize)


QUICK_FOLDING = _QuickFolding()


class OutboxMessage(EmailMultiAlternatives):
    def message(self) -> Any:
        mime = super().message()
        for part in mime.walk():
            part.policy = QUICK_FOLDING
        if mime.is_multipart():
            self._set_boundary(mime)
        return mime

    def _set_boundary(self, mime: Any) -> None:
        """Choose the multipart boundary as the stdlib would (15 "=", a random number, "=="),
        checked against the bodies as written here: the stdlib's generator otherwise compiles
        a regular expression for every message's new boundary to search the flattened parts
        for it (a sixth of the time building a message took). A body in quoted-printable or
        base64 cannot hold a run of "=", so only the raw text bodies need the check."""
        boundary = "=" * 15 + f"{random.randrange(sys.maxsize):019d}" + "=="
        texts = [self.body, *(content for content, _ in self.alternatives)]
        if not any(f"--{boundary}" in text for text in texts if isinstance(text, str)):
            mime.set_boundary(boundary)


def _headers(row: OutgoingEmail) -> dict[str, str]:
    from portal.mail.bounces import outbox_message_id
    from portal.mail.unsubscribe import unsubscribe_headers

    return {**AUTO_HEADERS, **unsubscribe_headers(row), **row.headers,
            "Message-ID": outbox_message_id(email_id=row.pk, to=row.to)}


def _message(row: OutgoingEmail, connection: Any) -> EmailMultiAlternatives:
    message = OutboxMessage(
        subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to], reply_to=[row.reply_to] if row.reply_to else None,
        headers=_headers(row), connection=connection,
    )
    if row.body_html:
        message.attach_alternative(row.body_html, "text/html")
    return message


def _send_one(row: OutgoingEmail, connection: Any) -> None:
    """Send ``row`` over the open ``connection``. Over SMTP, a message of the usual shape is
    written straight into its bytes (``portal.mail.wire``, the same bytes as Django's
    builder, in a fraction of the time); anything else, and every other backend (console,
    files, the tests' memory), goes through Django's ``EmailMultiAlternatives``."""
    if isinstance(connection, SMTPBackend) and connection.connection is not None:
        data = message_bytes(
            subject=row.subject, from_email=settings.DEFAULT_FROM_EMAIL, to=row.to,
            reply_to=row.reply_to, headers=_headers(row), text=row.body_text,
            html=row.body_html)
        if data is not None:
            connection.connection.sendmail(_envelope(settings.DEFAULT_FROM_EMAIL),
                                           [_envelope(row.to)], data)
            return
    connection.send_messages([_message(row, connection)])


PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+")


@functools.lru_cache(maxsize=1024)
def _envelope(address: str) -> str:
    """The address as Django's SMTP backend gives it to ``sendmail`` (``sanitize_address``:
    parsed, the name encoded; a plain ASCII address comes out as it went in)."""
    if PLAIN_ADDRESS.fullmatch(address):
        return address
    return sanitize_address(address, settings.DEFAULT_CHARSET)


def is_permanent(error: BaseException) -> bool:
    """A 5xx answer (the server will never take it) as opposed to 4xx / network trouble."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    if isinstance(error, smtplib.SMTPResponseException):
        return 500 <= error.smtp_code < 600
    # Disconnects, refused connections, timeouts, and anything unexpected: try again later
    # (MAIL_MAX_ATTEMPTS bounds it).
    return False


def _code(error: BaseException) -> int | None:
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return next((code for code, _ in error.recipients.values()), None)
    return getattr(error, "smtp_code", None)


def _result(error: BaseException) -> Result:
    return Result("failed" if is_permanent(error) else "retry",
                  error=f"{type(error).__name__}: {error}", response_status=_code(error))


class MailChannel(pipeline.Channel):
    """E-mail over SMTP (or whatever EMAIL_BACKEND says): a batch over one connection."""

    name = "mail"
    model = OutgoingEmail

    def __init__(self, connection: Any = None) -> None:
        self.connection = connection  # (tests and the benchmark pass their own)

    def send(self, rows: list[OutgoingEmail]) -> Iterator[dict[Any, Result]]:
        """Send ``rows`` over one SMTP connection (opened again after a dropped one), yielding
        the results as the server answers: a failing address is not sent to (failed), each
        refusal is classified on its own. The sending runs up to ``send_ahead`` rows
        ahead in a thread of its own (``pipeline.run_ahead``), so the SMTP exchanges overlap
        the records, and the rows sent while one group was recorded are recorded together."""
        failing = set(FailingAddress.objects.filter(
            address__in=[row.to.strip().lower() for row in rows]).values_list("address",
                                                                               flat=True))
        connection = self.connection or get_connection(fail_silently=False)
        for group in pipeline.run_ahead(lambda: _sent(rows, failing, connection), name="mail",
                                        lead=self.send_ahead, gather=self.gather_seconds):
            yield dict(group)


def _sent(rows: list[OutgoingEmail], failing: set[str], connection: Any
          ) -> Iterator[tuple[Any, Result]]:
    closed = True  # send_messages on a closed connection would open and close it per message
    try:
        for row in rows:
            if row.to.strip().lower() in failing:
                yield row.pk, Result("failed", error=(
                    f"{row.to} is marked as failing (bounce or complaint); not sent"))
                continue
            try:
                if closed:
                    connection.open()
                    closed = False
                _send_one(row, connection)
            except Exception as error:  # this message only; the batch goes on
                if not is_permanent(error):  # the connection may be gone: open a new one
                    closed = True
                    _close(connection)
                yield row.pk, _result(error)
                continue
            yield row.pk, SENT
    finally:
        _close(connection)


def _close(connection: Any) -> None:
    try:
        connection.close()
    except Exception:
        logger.debug("closing the SMTP connection failed", exc_info=True)


CHANNEL = queue.register(MailChannel())
