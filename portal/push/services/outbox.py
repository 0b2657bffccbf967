"""The push outbox: every notification is a row first (``push_queue``, unique dedupe key),
sent after the commit by a Celery task (``push_flush``) that claims due rows with ``SKIP LOCKED``
and posts each to its push service, encrypted for the browser (RFC 8291, aes128gcm) and signed
with the site's VAPID key (RFC 8292), through pywebpush.

A backlog never arrives as a flood: every row has a time to live (sent as the TTL header, so
the push service drops it when it is stale, and a row whose time ran out is never sent), a
topic (a newer message on the same topic replaces an older one, in our outbox and at the push
service), and the service worker shows one notification per topic (its tag).

Every endpoint is contacted through ``portal.outbound``: checked again when sent (an endpoint
the rules refuse is a gone subscription; a name that now resolves to an internal address fails
the message without contacting it), connected to the address checked, never redirected.

The push service's answer decides: 201 sent; 404 or 410 the subscription is gone (deleted,
with its messages); 429 and 5xx (and no answer at all) retry with back-off, honouring
Retry-After, within the time to live; any other 4xx failed for good."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from portal import outbound
from portal.push import vapid
from portal.push.models import PushMessage, PushSubscription
from portal.push.services.subscriptions import endpoint_policy

logger = logging.getLogger(__name__)
Status = PushMessage.Status
MIN_TTL_SECONDS = 60
MAX_BACKOFF_SECONDS = 3600
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                        "interval_max": 0.5}
SENDING_STUCK = timedelta(minutes=10)
GONE = {404, 410}


class FlushOnCommit:
    """Queue one push-flush task for everything a transaction queued (after the commit).
    Broker errors are logged: the sweeper finds the rows later."""

    def __repr__(self) -> str:
        return "FlushOnCommit()"

    def __call__(self) -> None:
        from portal.push.tasks import push_flush

        try:
            push_flush.apply_async(retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:
            logger.exception("could not queue the push flush; the push sweeper will")


def _flush_on_commit() -> None:
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
            isinstance(callback, FlushOnCommit) for _, callback, *_ in connection.run_on_commit):
        return
    transaction.on_commit(FlushOnCommit())


def push_queue(*, subscription: PushSubscription, kind: str, dedupe_key: str,
               payload: dict[str, Any], ttl_seconds: float, topic: str = "",
               urgency: str = "normal", now: datetime | None = None) -> PushMessage | None:
    """Create the row for ``dedupe_key`` (once), replacing any unsent older row of the same
    topic on that device, and queue the sending on commit. None if the key exists already.
    ``now`` is the time of the event: the time to live counts from it."""
    now = now or timezone.now()
    ttl = max(MIN_TTL_SECONDS, int(ttl_seconds))
    row, created = PushMessage.objects.get_or_create(
        dedupe_key=dedupe_key[:200],
        defaults={"subscription": subscription, "kind": kind, "topic": topic[:32],
                  "payload": payload, "urgency": urgency, "next_attempt_at": timezone.now(),
                  "expires_at": now + timedelta(seconds=ttl)},
    )
    if not created:
        return None
    if topic:
        PushMessage.objects.filter(
            subscription=subscription, topic=row.topic, status__in=[Status.QUEUED, Status.RETRY]
        ).exclude(pk=row.pk).update(status=Status.EXPIRED, last_error="replaced by a newer one")
    _flush_on_commit()
    return row


def _claim_batch(limit: int, now: datetime) -> list[PushMessage]:
    """Lock up to ``limit`` due rows (skipping rows other workers hold), expire the stale ones,
    mark the rest sending and commit: the HTTP requests hold no transaction."""
    with transaction.atomic():
        rows = list(
            PushMessage.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("subscription")
            .filter(Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=now)
                    | Q(status=Status.SENDING, sending_since__lte=now - SENDING_STUCK))
            .order_by("next_attempt_at", "pk")[:limit]
        )
        stale = [row.pk for row in rows if row.expires_at <= now]
        PushMessage.objects.filter(pk__in=stale).update(
            status=Status.EXPIRED, last_error="its time to live ran out before it was sent")
        rows = [row for row in rows if row.expires_at > now]
        PushMessage.objects.filter(pk__in=[row.pk for row in rows]).update(
            status=Status.SENDING, sending_since=now, attempts=F("attempts") + 1)
    for row in rows:
        row.status, row.sending_since, row.attempts = Status.SENDING, now, row.attempts + 1
    return rows


def _send(row: PushMessage, signer: Vapid02, session: requests.Session, now: datetime) -> Any:
    subscription = row.subscription
    headers = {"Urgency": row.urgency}
    if row.topic:
        headers["Topic"] = row.topic
    # Only what is left of the time to live: a late send never outlives the original.
    ttl = max(0, int((row.expires_at - now).total_seconds()))
    return webpush(
        subscription_info={"endpoint": subscription.endpoint,
                           "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
        data=json.dumps(row.payload, separators=(",", ":")),
        vapid_private_key=signer, vapid_claims=vapid.claims(),  # a new dict: aud per endpoint
        content_encoding="aes128gcm", ttl=ttl, headers=headers,
        timeout=settings.PUSH_TIMEOUT_SECONDS, requests_session=session,
    )


def _retry_after(error: WebPushException) -> float | None:
    # (a Response is falsy when its status is an error: compare with None)
    value = error.response.headers.get("Retry-After") if error.response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _record_failure(row: PushMessage, error: BaseException, now: datetime) -> str:
    code = getattr(getattr(error, "response", None), "status_code", None)
    row.response_status = code
    row.last_error = f"{type(error).__name__}: {error}"[:2000]
    temporary = code is None or code == 429 or code >= 500
    delay = (_retry_after(error) if isinstance(error, WebPushException) else None) or min(
        settings.PUSH_RETRY_BASE_SECONDS * 2 ** max(row.attempts - 1, 0), MAX_BACKOFF_SECONDS)
    next_at = now + timedelta(seconds=delay)
    if not temporary or row.attempts >= settings.PUSH_SEND_MAX_ATTEMPTS:
        row.status = Status.FAILED
    elif next_at >= row.expires_at:
        row.status = Status.EXPIRED
    else:
        row.status, row.next_attempt_at = Status.RETRY, next_at
    row.save(update_fields=["status", "next_attempt_at", "response_status", "last_error"])
    if row.status == Status.RETRY:
        transaction.on_commit(FlushLater(delay))
    return row.status


def _record_refused(row: PushMessage, refused: outbound.Refused) -> str:
    """Never contacted: failed for good (the device stays; a later push checks again)."""
    row.status, row.response_status = Status.FAILED, None
    row.last_error = f"refused, never contacted: {refused.reason}"[:2000]
    row.save(update_fields=["status", "response_status", "last_error"])
    logger.warning("push %s refused: %s", row.pk, refused.reason)
    return row.status


class FlushLater:
    def __init__(self, countdown: float) -> None:
        self.countdown = countdown

    def __call__(self) -> None:
        from portal.push.tasks import push_flush

        try:
            push_flush.apply_async(countdown=self.countdown, retry=True,
                                   retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:
            logger.exception("could not queue a push retry; the push sweeper will")


def push_send_batch(*, limit: int | None = None) -> dict[str, int]:
    """Send up to ``limit`` due rows over one HTTP session. Returns counts by outcome."""
    counts = {"sent": 0, "gone": 0, "retry": 0, "failed": 0, "expired": 0}
    now = timezone.now()
    rows = _claim_batch(limit or settings.PUSH_SEND_BATCH, now)
    if not rows:
        return counts
    key = vapid.private_key()
    if not key:
        PushMessage.objects.filter(pk__in=[r.pk for r in rows]).update(
            status=Status.FAILED, last_error="web push is not configured (VAPID_PRIVATE_KEY)")
        counts["failed"] = len(rows)
        return counts
    signer = Vapid02.from_string(key)
    sent: list[int] = []
    gone: set[int] = set()
    policy = endpoint_policy()
    with outbound.session(policy=policy) as session:
        for row in rows:
            if row.subscription_id in gone:
                continue
            try:
                outbound.check(row.subscription.endpoint, policy=policy)
            except outbound.Refused as refused:  # saved before the rules, or the list changed
                gone.add(row.subscription_id)
                logger.warning("push subscription %s is refused (%s): removed",
                               row.subscription_id, refused.reason)
                continue
            try:
                response = _send(row, signer, session, timezone.now())
            except outbound.Refused as refused:  # its name resolves to an internal address now
                counts[_record_refused(row, refused)] += 1
                continue
            except WebPushException as error:
                if error.response is not None and error.response.status_code in GONE:
                    gone.add(row.subscription_id)
                    logger.info("push subscription %s is gone (%s): removed",
                                row.subscription_id, error.response.status_code)
                    continue
                counts[_record_failure(row, error, timezone.now())] += 1
                continue
            except requests.RequestException as error:  # no answer: try again later
                counts[_record_failure(row, error, timezone.now())] += 1
                continue
            row.response_status = response.status_code
            sent.append(row.pk)
    sent_at = timezone.now()
    PushMessage.objects.filter(pk__in=sent).update(
        status=Status.SENT, sent_at=sent_at, last_error="", response_status=201)
    PushSubscription.objects.filter(messages__pk__in=sent).update(last_sent_at=sent_at)
    counts["gone"] = PushSubscription.objects.filter(pk__in=gone).delete()[1].get(
        "push.PushSubscription", 0)
    counts["sent"] = len(sent)
    return counts


def push_flush(*, limit: int | None = None, max_batches: int = 1000) -> int:
    """Send due rows batch after batch until none is left. Returns how many were sent."""
    total = 0
    for _ in range(max_batches):
        counts = push_send_batch(limit=limit)
        total += counts["sent"]
        if not any(counts.values()):
            break
    return total


def push_sweep() -> int:
    """Queue a flush if rows are due (a lost task, a retry whose countdown task was lost, a
    worker that died sending); expire rows whose time ran out. Returns the rows due."""
    now = timezone.now()
    PushMessage.objects.filter(status__in=[Status.QUEUED, Status.RETRY],
                               expires_at__lte=now).update(
        status=Status.EXPIRED, last_error="its time to live ran out before it was sent")
    due = PushMessage.objects.filter(
        Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=now)
        | Q(status=Status.SENDING, sending_since__lte=now - SENDING_STUCK)).count()
    if due:
        FlushOnCommit()()
    return due
