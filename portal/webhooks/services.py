"""Registering, enabling and testing webhook targets, and what a post's outcome does to its
target (consecutive failures disable it, with a notice to its owner). Who may manage a target:
a club's owner and organisers, a match's creator; checked before any work."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from competitions.models import Club, Membership
from games.models import Match
from games.services import ServiceError
from portal import outbound
from portal.webhooks import formats, messages
from portal.webhooks.models import WebhookDelivery, WebhookTarget

MAX_TARGETS = 10
TEST_EVERY_SECONDS = 60


def target_policy() -> outbound.Policy:
    """Any host, port 443, global addresses only (loopback in tests), never redirected."""
    return outbound.Policy()


def club_manager(*, club: Club, user: Any) -> bool:
    return user.is_authenticated and Membership.objects.filter(
        club=club, user_id=user.pk,
        role__in=[Membership.Role.OWNER, Membership.Role.ORGANISER]).exists()


def match_manager(*, match: Match, user: Any) -> bool:
    return user.is_authenticated and match.created_by_id == user.pk


def target_manageable(*, target: WebhookTarget, user: Any) -> bool:
    if target.club_id is not None:
        return club_manager(club=target.club, user=user)
    return match_manager(match=target.match, user=user)


def target_create(*, by: Any, name: str, format: str, url: str, language: str,
                  club: Club | None = None, match: Match | None = None
                  ) -> tuple[WebhookTarget, str]:
    """Save a target after checking its address (resolved now, every address global; checked
    again at every send). Returns the target and, for the generic format, its signing secret
    (shown once). The caller has checked ``by`` may manage the club or match."""
    owner = {"club": club} if club is not None else {"match": match}
    if WebhookTarget.objects.filter(**owner).count() >= MAX_TARGETS:
        raise ServiceError("capped", _("At most %(max)s webhooks each.") % {"max": MAX_TARGETS})
    try:
        outbound.resolve(url, policy=target_policy())
    except outbound.Refused as refused:
        raise ServiceError("invalid", refused.reason) from refused
    secret = secrets.token_hex(32) if format == WebhookTarget.Format.GENERIC else ""
    target = WebhookTarget.objects.create(
        created_by=by, name=name, format=format, url=url.strip(), secret=secret,
        language=language, **owner)
    return target, secret


def target_delete(*, target: WebhookTarget) -> None:
    target.delete()


def target_enable(*, target: WebhookTarget) -> None:
    """Turn a disabled target back on; its count of failures starts again."""
    WebhookTarget.objects.filter(pk=target.pk).update(
        disabled_at=None, disabled_reason="", consecutive_failures=0)


def webhook_queue(*, target: WebhookTarget, message: formats.Message, key: str
                  ) -> WebhookDelivery | None:
    """Queue ``message`` to ``target`` once per ``key`` (an event), in the target's format."""
    from portal.delivery.pipeline import deliver

    return deliver("webhook", dedupe_key=f"webhook:{key}:t{target.pk}"[:200], target=target,
                   event=message.event, payload=formats.body_for(target.format, message))


def webhooks_queue(pairs: Iterable[tuple[WebhookTarget, formats.Message]], *, key: str
                   ) -> list[WebhookDelivery]:
    """``webhook_queue`` for many (target, message) pairs of one event ``key``, in a constant
    number of queries (``pipeline.deliver_many``). Returns the new rows (their pk unset)."""
    from portal.delivery.pipeline import deliver_many

    return deliver_many("webhook", (
        {"dedupe_key": f"webhook:{key}:t{target.pk}", "target": target, "event": message.event,
         "payload": formats.body_for(target.format, message)} for target, message in pairs))


def target_test(*, target: WebhookTarget) -> WebhookDelivery | None:
    """A test message through the same path as the events, at most one per minute per target:
    None if one was queued in this minute already."""
    if target.disabled_at is not None:
        raise ServiceError("not_active", _("Turn the webhook back on before testing it."))
    period = int(timezone.now().timestamp() // TEST_EVERY_SECONDS)
    with translation.override(target.language):
        message = messages.test(target=target)
    return webhook_queue(target=target, message=message, key=f"test:{period}")


def targets_succeeded(*, target_ids: set[int]) -> None:
    if target_ids:
        WebhookTarget.objects.filter(pk__in=target_ids).update(
            consecutive_failures=0, last_sent_at=timezone.now())


def targets_failed(*, failures: dict[int, tuple[int, str]]) -> None:
    """Count each target's failed posts (how many, the last error); turn off those that
    reached the limit and tell their owners (once per turning off)."""
    limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
    for target_id, (count, error) in failures.items():
        with transaction.atomic():
            WebhookTarget.objects.filter(pk=target_id).update(
                consecutive_failures=F("consecutive_failures") + count)
            disabled = WebhookTarget.objects.filter(
                pk=target_id, disabled_at__isnull=True, consecutive_failures__gte=limit
            ).update(disabled_at=timezone.now(), disabled_reason=error[:300])
            if disabled:
                _disabled_notice(WebhookTarget.objects.select_related(
                    "club", "match", "created_by").get(pk=target_id))


def target_gone(*, target_ids: set[int], reason: str) -> None:
    """The service says the webhook no longer exists (404/410): disable at once, with notice.
    ``reason`` is a ``gettext_noop`` text, kept in the target's language."""
    for target in WebhookTarget.objects.filter(pk__in=target_ids, disabled_at__isnull=True):
        with transaction.atomic(), translation.override(target.language):
            if WebhookTarget.objects.filter(pk=target.pk, disabled_at__isnull=True).update(
                    disabled_at=timezone.now(), disabled_reason=_(reason)[:300]):
                target.refresh_from_db()
                _disabled_notice(target)


def targets_page_url(target: WebhookTarget) -> str:
    if target.club_id is not None:
        return reverse("webhooks_club", args=[target.club.slug])
    return reverse("webhooks_match", args=[target.match_id])


def _disabled_notice(target: WebhookTarget) -> None:
    """An e-mail to whoever registered the target (the page shows the same note)."""
    from portal.mail.models import OutgoingEmail
    from portal.mail.services.notify import language_of
    from portal.mail.services.outbox import email_queue

    owner = target.created_by
    if owner is None or not owner.email:
        return
    with translation.override(language_of(owner)):
        subject = _("Webhook %(name)s turned off") % {"name": target.name}
        body = _("The webhook %(name)s (%(host)s) failed %(count)s times in a row and is "
                 "turned off. The last error: %(error)s\n\nTurn it back on here once it is "
                 "fixed: %(url)s\n") % {
            "name": target.name, "host": target.host, "count": target.consecutive_failures,
            "error": target.disabled_reason, "url": settings.SITE_URL + targets_page_url(target)}
    email_queue(kind=OutgoingEmail.Kind.COMPETITION, user=owner, to=owner.email,
                dedupe_key=f"webhook-off:{target.pk}:{target.disabled_at:%Y%m%d%H%M%S%f}",
                subject=subject, body_text=body)
