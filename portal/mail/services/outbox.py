"""The outbox: every email is a row first, sent by a task that locks it (pretix style).

queued → sending → sent; a temporary SMTP failure → retry (with back-off) → sending ...;
a permanent one (5xx) or too many attempts → failed, visible in the admin. The row's
``dedupe_key`` is unique, so an event creates its email once, and the send task returns early
for a row that is sent, failed, being sent, or not due: a task delivered twice is a no-op.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from email.policy import Compat32
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from portal.mail.models import OutgoingEmail

logger = logging.getLogger(__name__)

# Headers on everything we send: we are a robot; auto-responders should stay quiet (RFC 3834).
AUTO_HEADERS = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}
MAX_BACKOFF_SECONDS = 6 * 3600
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                        "interval_max": 0.5}


class SendOnCommit:
    """Queue the send task for one row (after commit). Broker errors are logged: the sweeper
    finds the row later."""

    def __init__(self, email_id: int, countdown: float = 0) -> None:
        self.email_id = email_id
        self.countdown = countdown

    def __repr__(self) -> str:
        return f"SendOnCommit({self.email_id})"

    def __call__(self) -> None:
        from portal.mail.tasks import email_send

        try:
            email_send.apply_async(kwargs={"email_id": self.email_id},
                                   countdown=self.countdown or None, retry=True,
                                   retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:
            logger.exception("could not queue email %s; the outbox sweeper will", self.email_id)


class FlushOnCommit:
    """Queue one batch-send task for everything a transaction put in the outbox (after
    commit). Broker errors are logged: the sweeper finds the rows later."""

    def __repr__(self) -> str:
        return "FlushOnCommit()"

    def __call__(self) -> None:
        from portal.mail.tasks import outbox_flush

        try:
            outbox_flush.apply_async(retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:
            logger.exception("could not queue the outbox flush; the outbox sweeper will")


def _flush_on_commit() -> None:
    """One flush per transaction, however many rows it queued."""
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
            isinstance(callback, FlushOnCommit) for _, callback, *_ in connection.run_on_commit):
        return
    transaction.on_commit(FlushOnCommit())


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
    """Create the outbox row for ``dedupe_key`` (once) and queue its sending on commit.

    Returns the new row, or None if an email with that key exists already.
    """
    now = timezone.now()
    row, created = OutgoingEmail.objects.get_or_create(
        dedupe_key=dedupe_key[:200],
        defaults={
            "kind": kind, "to": to, "subject": subject[:255], "body_text": body_text,
            "body_html": body_html, "user": user, "match_id": match_id,
            "phase_number": phase_number, "reply_to": reply_to, "headers": headers or {},
            "next_attempt_at": now,
        },
    )
    if not created:
        return None
    _flush_on_commit()
    return row


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
        return mime


def _message(row: OutgoingEmail, connection: Any) -> EmailMultiAlternatives:
    from portal.mail.bounces import outbox_message_id
    from portal.mail.unsubscribe import unsubscribe_headers

    headers = {**AUTO_HEADERS, **unsubscribe_headers(row), **row.headers,
               "Message-ID": outbox_message_id(email_id=row.pk, to=row.to)}
    message = OutboxMessage(
        subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to], reply_to=[row.reply_to] if row.reply_to else None, headers=headers,
        connection=connection,
    )
    if row.body_html:
        message.attach_alternative(row.body_html, "text/html")
    return message


def is_permanent(error: BaseException) -> bool:
    """A 5xx answer (the server will never take it) as opposed to 4xx / network trouble."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    if isinstance(error, smtplib.SMTPResponseException):
        return 500 <= error.smtp_code < 600
    # Disconnects, refused connections, timeouts, and anything unexpected: try again later
    # (MAIL_SEND_MAX_ATTEMPTS bounds it).
    return False


def backoff_seconds(attempts: int) -> float:
    return float(min(settings.MAIL_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0),
                     MAX_BACKOFF_SECONDS))


def _claim(email_id: int, now: Any) -> OutgoingEmail | None:
    """Lock the row and mark it sending, or None if it is not ours to send now."""
    stuck = now - timedelta(seconds=settings.MAIL_SENDING_STUCK_SECONDS)
    with transaction.atomic():
        row = (OutgoingEmail.objects.select_for_update(skip_locked=True)
               .filter(pk=email_id).first())
        if row is None:  # unknown, or another worker holds it right now
            return None
        if row.status in (OutgoingEmail.Status.SENT, OutgoingEmail.Status.FAILED):
            return None
        if row.status == OutgoingEmail.Status.SENDING and (
            row.sending_since is not None and row.sending_since > stuck
        ):
            return None  # being sent by another worker
        if (row.status == OutgoingEmail.Status.RETRY and row.next_attempt_at is not None
                and row.next_attempt_at > now + timedelta(seconds=1)):
            return None  # not due yet
        row.status = OutgoingEmail.Status.SENDING
        row.sending_since = now
        row.attempts += 1
        row.save(update_fields=["status", "sending_since", "attempts"])
    return row


def email_send(*, email_id: int, connection: Any = None) -> str:
    """Send one outbox row (a no-op unless it is due). Returns its status afterwards."""
    now = timezone.now()
    row = _claim(email_id, now)
    if row is None:
        status = OutgoingEmail.objects.filter(pk=email_id).values_list("status", flat=True)
        return status.first() or "missing"
    if is_failing(row.to):
        return _record_failure(row, SuppressedAddress(row.to))
    try:
        connection = connection or get_connection(fail_silently=False)
        _message(row, connection).send(fail_silently=False)
    except Exception as error:  # classified below; nothing may escape a half-updated row
        return _record_failure(row, error)
    row.status = OutgoingEmail.Status.SENT
    row.sent_at = timezone.now()
    row.next_attempt_at = None
    row.last_error = ""
    row.save(update_fields=["status", "sent_at", "next_attempt_at", "last_error"])
    return row.status


class SuppressedAddress(Exception):
    """The address is failing (bounces, complaints): we do not send to it."""

    def __init__(self, address: str) -> None:
        super().__init__(f"{address} is marked as failing (bounce or complaint); not sent")


def is_failing(address: str) -> bool:
    from portal.mail.models import FailingAddress

    return FailingAddress.objects.filter(address=address.strip().lower()).exists()


def _record_failure(row: OutgoingEmail, error: BaseException) -> str:
    """Mark ``row`` retry (with back-off) or failed after ``error``; returns its status."""
    permanent = is_permanent(error) or isinstance(error, SuppressedAddress)
    row.last_error = f"{type(error).__name__}: {error}"[:2000]
    delay = 0.0
    if permanent or row.attempts >= settings.MAIL_SEND_MAX_ATTEMPTS:
        row.status = OutgoingEmail.Status.FAILED
        row.next_attempt_at = None
        logger.warning("email %s failed for good: %s", row.pk, row.last_error)
    else:
        delay = backoff_seconds(row.attempts)
        row.status = OutgoingEmail.Status.RETRY
        row.next_attempt_at = timezone.now() + timedelta(seconds=delay)
        logger.info("email %s will be retried in %ss: %s", row.pk, delay, row.last_error)
    row.save(update_fields=["status", "next_attempt_at", "last_error"])
    if row.status == OutgoingEmail.Status.RETRY:
        transaction.on_commit(SendOnCommit(row.pk, countdown=delay))
    return row.status


def _claim_batch(limit: int, now: Any) -> list[OutgoingEmail]:
    """Lock up to ``limit`` due rows (skipping rows other workers hold), mark them sending and
    commit: the SMTP conversation that follows holds no transaction."""
    stuck = now - timedelta(seconds=settings.MAIL_SENDING_STUCK_SECONDS)
    with transaction.atomic():
        rows = list(
            OutgoingEmail.objects.select_for_update(skip_locked=True).filter(
                Q(status=OutgoingEmail.Status.QUEUED)
                | Q(status=OutgoingEmail.Status.RETRY, next_attempt_at__lte=now)
                | Q(status=OutgoingEmail.Status.SENDING, sending_since__lte=stuck)
            ).order_by("pk")[:limit]
        )
        OutgoingEmail.objects.filter(pk__in=[row.pk for row in rows]).update(
            status=OutgoingEmail.Status.SENDING, sending_since=now, attempts=F("attempts") + 1)
    for row in rows:
        row.status, row.sending_since, row.attempts = (OutgoingEmail.Status.SENDING, now,
                                                       row.attempts + 1)
    return rows


def email_send_batch(*, limit: int | None = None, connection: Any = None) -> dict[str, int]:
    """Send up to ``limit`` due rows over one SMTP connection (``send_messages``).

    The rows are claimed in one short transaction, sent with no transaction open, and the sent
    ones recorded in one UPDATE; each failure is classified on its own (retry or failed), and a
    dropped connection is opened again for the next message. Returns counts by status."""
    from portal.mail.models import FailingAddress

    rows = _claim_batch(limit or settings.MAIL_SEND_BATCH, timezone.now())
    counts = {"sent": 0, "retry": 0, "failed": 0}
    if not rows:
        return counts
    failing = set(FailingAddress.objects.filter(
        address__in=[row.to.strip().lower() for row in rows]).values_list("address", flat=True))
    connection = connection or get_connection(fail_silently=False)
    sent: list[int] = []
    failures: list[tuple[OutgoingEmail, BaseException]] = []
    closed = True  # send_messages on a closed connection would open and close it per message
    try:
        for row in rows:
            if row.to.strip().lower() in failing:
                failures.append((row, SuppressedAddress(row.to)))
                continue
            try:
                if closed:
                    connection.open()
                    closed = False
                connection.send_messages([_message(row, connection)])
            except Exception as error:  # this message only; the batch goes on
                failures.append((row, error))
                if not is_permanent(error):  # the connection may be gone: open a new one
                    closed = True
                    try:
                        connection.close()
                    except Exception:
                        logger.debug("closing a broken SMTP connection failed", exc_info=True)
                continue
            sent.append(row.pk)
    finally:
        try:
            connection.close()
        except Exception:
            logger.debug("closing the SMTP connection failed", exc_info=True)
        OutgoingEmail.objects.filter(pk__in=sent).update(
            status=OutgoingEmail.Status.SENT, sent_at=timezone.now(), next_attempt_at=None,
            last_error="")
    counts["sent"] = len(sent)
    for row, error in failures:
        counts[_record_failure(row, error)] += 1
    return counts


def outbox_flush(*, limit: int | None = None, max_batches: int = 1000) -> int:
    """Send due rows batch after batch until none is left (or ``max_batches``). Several
    workers may flush at once: each claims rows the others do not hold."""
    total = 0
    for _ in range(max_batches):
        counts = email_send_batch(limit=limit)
        done = sum(counts.values())
        total += counts["sent"]
        if not done:
            break
    return total


def outbox_sweep(*, limit: int = 500) -> int:
    """Re-queue rows that got stuck: due queued/retry rows, and rows sending for too long."""
    now = timezone.now()
    grace = now - timedelta(seconds=settings.MAIL_OUTBOX_SWEEP_SECONDS / 2)
    stuck = now - timedelta(seconds=settings.MAIL_SENDING_STUCK_SECONDS)
    due = OutgoingEmail.objects.filter(
        Q(status=OutgoingEmail.Status.QUEUED, next_attempt_at__lte=grace)
        | Q(status=OutgoingEmail.Status.RETRY, next_attempt_at__lte=now)
        | Q(status=OutgoingEmail.Status.SENDING, sending_since__lte=stuck)
    ).order_by("next_attempt_at")
    ids = list(due.values_list("pk", flat=True)[:limit])
    for email_id in ids:
        SendOnCommit(email_id)()
    return len(ids)


def email_requeue(*, email_ids: list[int]) -> int:
    """Admin: send failed rows again (attempts start over)."""
    return OutgoingEmail.objects.filter(
        pk__in=email_ids, status=OutgoingEmail.Status.FAILED
    ).update(status=OutgoingEmail.Status.RETRY, attempts=0, next_attempt_at=timezone.now())
