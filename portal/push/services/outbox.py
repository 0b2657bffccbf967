"""The push channel of the delivery pipeline (``portal.delivery.pipeline``): every notification
is a row first (``push_queue``, unique dedupe key), claimed and recorded by the pipeline; this
module posts each to its push service, encrypted for the browser (RFC 8291, aes128gcm) and signed
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
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from durable import queue
from durable.queue import Result
from portal import outbound
from portal.delivery import pipeline
from portal.push import vapid
from portal.push.models import PushMessage, PushSubscription
from portal.push.services.subscriptions import endpoint_policy

logger = logging.getLogger(__name__)
Status = PushMessage.Status
MIN_TTL_SECONDS = 60
GONE = {404, 410}


def push_queue(*, subscription: PushSubscription, kind: str, dedupe_key: str,
               payload: dict[str, Any], ttl_seconds: float, topic: str = "",
               urgency: str = "normal", now: datetime | None = None) -> PushMessage | None:
    """Queue the push for ``dedupe_key`` (once), replacing any unsent older row of the same
    topic on that device, and its sending on commit. None if the key exists already.
    ``now`` is the time of the event: the time to live counts from it."""
    row = pipeline.deliver("push", **_fields(
        subscription=subscription, kind=kind, dedupe_key=dedupe_key, payload=payload,
        ttl_seconds=ttl_seconds, topic=topic, urgency=urgency, now=now or timezone.now()))
    if row is not None and topic:
        PushMessage.objects.filter(
            subscription=subscription, topic=row.topic, status__in=[Status.QUEUED, Status.RETRY]
        ).exclude(pk=row.pk).update(status=Status.EXPIRED, next_attempt_at=None,
                                    last_error="replaced by a newer one")
    return row


def pushes_queue(pushes: Iterable[dict[str, Any]], *, now: datetime | None = None
                 ) -> list[PushMessage]:
    """``push_queue`` for many pushes (each a dict of its arguments but ``now``) in a constant
    number of queries: the new rows in one insert (``pipeline.deliver_many``), and the unsent
    older rows of their topics on their devices replaced in one update. Returns the new rows
    (their pk unset)."""
    now = now or timezone.now()
    new = pipeline.deliver_many("push", (_fields(now=now, **push) for push in pushes))
    topics: dict[str, set[int]] = {}
    for row in new:
        if row.topic:
            topics.setdefault(row.topic, set()).add(row.subscription_id)
    for topic, devices in topics.items():
        PushMessage.objects.filter(
            subscription_id__in=devices, topic=topic, status__in=[Status.QUEUED, Status.RETRY]
        ).exclude(dedupe_key__in=[row.dedupe_key for row in new]).update(
            status=Status.EXPIRED, next_attempt_at=None, last_error="replaced by a newer one")
    return new


def _fields(*, subscription: PushSubscription, kind: str, dedupe_key: str,
            payload: dict[str, Any], ttl_seconds: float, topic: str = "",
            urgency: str = "normal", now: datetime) -> dict[str, Any]:
    ttl = max(MIN_TTL_SECONDS, int(ttl_seconds))
    return {"dedupe_key": dedupe_key, "subscription": subscription, "kind": kind,
            "topic": topic[:32], "payload": payload, "urgency": urgency,
            "expires_at": now + timedelta(seconds=ttl)}


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


def _result(error: BaseException) -> Result:
    """429, 5xx and no answer at all: retry (after Retry-After); 404/410: gone; any other
    4xx: failed for good."""
    code = getattr(getattr(error, "response", None), "status_code", None)
    message = f"{type(error).__name__}: {error}"
    if code in GONE:
        return Result("gone", error=message, response_status=code)
    if code is None or code == 429 or code >= 500:
        return Result("retry", error=message, response_status=code, retry_after=(
            _retry_after(error) if isinstance(error, WebPushException) else None))
    return Result("failed", error=message, response_status=code)


class PushChannel(pipeline.Channel):
    """Web push (RFC 8030) through ``portal.outbound``: a batch over one HTTP session."""

    name = "push"
    model = PushMessage
    expires_field = "expires_at"

    def due(self, queryset: Any) -> Any:
        return queryset.select_related("subscription")

    def send(self, rows: list[PushMessage]) -> Iterator[tuple[Any, Result]]:
        """Post ``rows`` over one HTTP session, yielding each one's result as it comes."""
        key = vapid.private_key()
        if not key:
            refused = Result("failed", error="web push is not configured (VAPID_PRIVATE_KEY)")
            yield from ((row.pk, refused) for row in rows)
            return
        signer = Vapid02.from_string(key)
        gone: set[int] = set()
        reached: set[int] = set()  # devices a push reached (their last_sent_at, once a batch)
        policy = endpoint_policy()
        try:
            yield from self._send_all(rows, signer, policy, gone, reached)
        finally:
            PushSubscription.objects.filter(pk__in=reached).update(last_sent_at=timezone.now())

    def _send_all(self, rows: list[PushMessage], signer: Vapid02, policy: Any, gone: set[int],
                  reached: set[int]) -> Iterator[tuple[Any, Result]]:
        with outbound.session(policy=policy) as session:
            for row in rows:
                if row.subscription_id in gone:
                    yield row.pk, Result("gone", error="its subscription is gone")
                    continue
                try:
                    outbound.check(row.subscription.endpoint, policy=policy)
                except outbound.Refused as refused:  # saved before the rules, or they changed
                    gone.add(row.subscription_id)
                    logger.warning("push subscription %s is refused (%s): removed",
                                   row.subscription_id, refused.reason)
                    yield row.pk, Result("gone", error=f"refused: {refused.reason}")
                    continue
                try:
                    response = _send(row, signer, session, timezone.now())
                except outbound.Refused as refused:  # its name resolves inside now: never
                    logger.warning("push %s refused: %s", row.pk, refused.reason)  # contacted
                    yield row.pk, Result("failed",
                                         error=f"refused, never contacted: {refused.reason}")
                    continue
                except (WebPushException, requests.RequestException) as error:
                    result = _result(error)
                    if result.outcome == "gone":
                        gone.add(row.subscription_id)
                        logger.info("push subscription %s is gone (%s): removed",
                                    row.subscription_id, result.response_status)
                    yield row.pk, result
                    continue
                reached.add(row.subscription_id)
                yield row.pk, Result("sent", response_status=response.status_code)

    def gone(self, rows: list[PushMessage]) -> None:
        """The device is gone: its subscription is deleted (with its messages)."""
        PushSubscription.objects.filter(pk__in={row.subscription_id for row in rows}).delete()


CHANNEL = queue.register(PushChannel())
