"""Webhooks listen to the lifecycle's signals (sent after the commit, in a worker) and queue
one row per target; the delivery pipeline posts them."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games.signals import gameday_opened, match_ended, phase_opened, phase_resolved
from portal.webhooks import notify


@receiver(phase_opened, dispatch_uid="webhooks_phase_opened")
def on_phase_opened(sender, match_id: int, phase_number: int, **kwargs) -> None:
    with transaction.atomic():
        notify.phase_opened_webhooks(match_id=match_id, phase_number=phase_number)


@receiver(gameday_opened, dispatch_uid="webhooks_gameday_opened")
def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    with transaction.atomic():
        notify.gameday_opened_webhooks(match_id=match_id, gameday=gameday)


@receiver(phase_resolved, dispatch_uid="webhooks_phase_resolved")
def on_phase_resolved(sender, match_id: int, phase_number: int, **kwargs) -> None:
    with transaction.atomic():
        notify.phase_resolved_webhooks(match_id=match_id, phase_number=phase_number)


@receiver(match_ended, dispatch_uid="webhooks_match_ended")
def on_match_ended(sender, match_id: int, **kwargs) -> None:
    with transaction.atomic():
        notify.match_ended_webhooks(match_id=match_id)
