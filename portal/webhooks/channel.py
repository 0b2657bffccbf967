"""The webhook channel of the delivery pipeline: the pipeline claims due rows, retries with
back-off and sweeps; this posts a batch through one outbound session (every address checked
again, connections pinned to it, no redirects) and says what each answer means.

2xx sent; 404 or 410 gone (the service deleted the webhook: the target is turned off); 429,
5xx and no answer retry (Retry-After honoured); a redirect or any other 4xx failed; an address
refused at send time failed, never contacted. Every failure counts towards turning the target
off (``WEBHOOK_DISABLE_AFTER_FAILURES`` in a row); a success starts the count again."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import requests
from django.conf import settings
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from durable import queue
from durable.queue import Result
from portal import outbound
from portal.delivery.pipeline import Channel, run_ahead
from portal.webhooks import formats, services
from portal.webhooks.models import WebhookDelivery, WebhookTarget

GONE = {404, 410}
USER_AGENT = "TankPortal-Webhooks/1"


def _retry_after(response: requests.Response) -> float | None:
    try:
        return max(0.0, float(response.headers.get("Retry-After", "")))
    except ValueError:
        return None


def headers_for(row: WebhookDelivery, body: bytes, now: float) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if row.target.format == WebhookTarget.Format.GENERIC:
        timestamp = int(now)
        headers.update({
            formats.TIMESTAMP_HEADER: str(timestamp),
            formats.SIGNATURE_HEADER: formats.signature(row.target.secret, timestamp, body),
            "X-Webhook-Event": row.event,
            "X-Webhook-Delivery": str(row.pk)})
    return headers


def post(session: requests.Session, row: WebhookDelivery) -> Result:
    """Post one row and read the answer (never raises for a network or address problem). The
    error, kept for the target's page and the mail that turns it off, is in the target's
    language."""
    with translation.override(row.target.language):
        return _post(session, row)


def _post(session: requests.Session, row: WebhookDelivery) -> Result:
    body = formats.encode(row.payload)
    try:
        response = session.post(row.target.url, data=body,
                                headers=headers_for(row, body, time.time()),
                                timeout=settings.WEBHOOK_TIMEOUT_SECONDS)
    except outbound.Refused as refused:
        return Result("failed", error=_("refused, never contacted: %(reason)s") % {
            "reason": refused.reason})
    except requests.RequestException as error:
        return Result("retry", error=_("no answer: %(error)s") % {
            "error": type(error).__name__})
    code = response.status_code
    if 200 <= code < 300:
        return Result("sent", response_status=code)
    error = f"HTTP {code}: {response.text[:200]}"
    if code in GONE:
        return Result("gone", error=error, response_status=code)
    if code == 429 or code >= 500:
        return Result("retry", error=error, retry_after=_retry_after(response),
                      response_status=code)
    if 300 <= code < 400:
        error = _("HTTP %(code)s: a redirect, not followed") % {"code": code}
    return Result("failed", error=error, response_status=code)


def _posted(rows: list[WebhookDelivery]) -> Iterator[tuple[WebhookDelivery, Result]]:
    """(row, result) in order, over one outbound session."""
    with outbound.session(policy=services.target_policy()) as session:
        for row in rows:
            yield row, post(session, row)


class WebhookChannel(Channel):
    """Batch size, attempts and back-off: the settings WEBHOOK_<KEY>, else DELIVERY_<KEY>."""

    name = "webhook"
    model = WebhookDelivery

    def due(self, queryset: QuerySet[WebhookDelivery]) -> QuerySet[WebhookDelivery]:
        """Rows of targets that are on (a turned-off target's rows wait for it)."""
        return queryset.filter(target__disabled_at__isnull=True).select_related("target")

    def send(self, rows: list[WebhookDelivery]) -> Iterator[dict[Any, Result]]:
        """Post ``rows`` in order over one session and yield the results as they come. The
        posting runs up to ``send_ahead`` rows ahead in a thread of its own
        (``pipeline.run_ahead``), so the posts overlap the pipeline's records. Each target's
        count of failures is brought up to date when the batch ends."""
        succeeded: set[int] = set()
        failures: dict[int, tuple[int, str]] = {}
        try:
            for group in run_ahead(lambda: _posted(rows), name="webhook", lead=self.send_ahead,
                                   gather=self.gather_seconds):
                for row, result in group:
                    if result.outcome == "sent":
                        succeeded.add(row.target_id)
                    elif result.outcome in ("retry", "failed"):
                        count, _ = failures.get(row.target_id, (0, ""))
                        failures[row.target_id] = (count + 1, result.error)
                yield {row.pk: result for row, result in group}
        finally:
            services.targets_succeeded(target_ids=succeeded - set(failures))
            services.targets_failed(failures=failures)

    def gone(self, rows: list[WebhookDelivery]) -> None:
        services.target_gone(target_ids={row.target_id for row in rows},
                             reason=gettext_noop("the service says this webhook no longer "
                                                 "exists"))


CHANNEL = queue.register(WebhookChannel())
