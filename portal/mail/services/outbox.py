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
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
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
    transaction.on_commit(SendOnCommit(row.pk))
    return row


def _message(row: OutgoingEmail, connection: Any) -> EmailMultiAlternatives:
    headers = {**AUTO_HEADERS, **row.headers,
               "Message-ID": f"<outbox-{row.pk}@{settings.MAIL_REPLY_DOMAIN}>"}
    message = EmailMultiAlternatives(
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
    try:
        connection = connection or get_connection(fail_silently=False)
        _message(row, connection).send(fail_silently=False)
    except Exception as error:  # classified below; nothing may escape a half-updated row
        permanent = is_permanent(error)
        row.last_error = f"{type(error).__name__}: {error}"[:2000]
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
    row.status = OutgoingEmail.Status.SENT
    row.sent_at = timezone.now()
    row.next_attempt_at = None
    row.last_error = ""
    row.save(update_fields=["status", "sent_at", "next_attempt_at", "last_error"])
    return row.status


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
