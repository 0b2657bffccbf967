"""The mail app listens to the turn lifecycle (signals sent on commit) and to anymail's
inbound webhook. Receivers only create outbox rows / store messages; tasks do the sending."""

from __future__ import annotations

import logging

from anymail.signals import inbound
from django.db import transaction
from django.dispatch import receiver

from games.signals import (
    gameday_opened,
    leave_taken,
    match_ended,
    phase_opened,
    phase_resolved,
)
from portal.mail import services
from portal.mail.models import InboundMessage

logger = logging.getLogger(__name__)


@receiver(phase_opened, dispatch_uid="mail_phase_opened")
def on_phase_opened(sender, match_id: int, phase_number: int, **kwargs) -> None:
    with transaction.atomic():
        services.phase_opened_notify(match_id=match_id, phase_number=phase_number)


@receiver(phase_resolved, dispatch_uid="mail_phase_resolved")
def on_phase_resolved(sender, match_id: int, phase_number: int, finished: bool = False,
                      **kwargs) -> None:
    with transaction.atomic():
        services.phase_resolved_notify(match_id=match_id, phase_number=phase_number,
                                       finished=finished)


@receiver(match_ended, dispatch_uid="mail_match_ended")
def on_match_ended(sender, match_id: int, status: str, **kwargs) -> None:
    with transaction.atomic():
        services.match_ended_notify(match_id=match_id, status=status)


@receiver(gameday_opened, dispatch_uid="mail_gameday_opened")
def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    from portal.mail.services.gameday import gameday_opened_notify

    with transaction.atomic():
        gameday_opened_notify(match_id=match_id, gameday=gameday)


@receiver(leave_taken, dispatch_uid="mail_leave_taken")
def on_leave_taken(sender, leave_id: int, **kwargs) -> None:
    from portal.mail.services.leave import leave_taken_notify

    with transaction.atomic():
        leave_taken_notify(leave_id=leave_id)


class ProcessOnCommit:
    def __init__(self, inbound_id: int) -> None:
        self.inbound_id = inbound_id

    def __call__(self) -> None:
        from portal.mail.tasks import inbound_process

        try:
            inbound_process.apply_async(kwargs={"inbound_id": self.inbound_id}, retry=True,
                                        retry_policy={"max_retries": 1, "interval_start": 0})
        except Exception:
            logger.exception("could not queue inbound %s; the sweeper will", self.inbound_id)


@receiver(inbound, dispatch_uid="mail_anymail_inbound")
def on_anymail_inbound(sender, event, esp_name: str, **kwargs) -> None:
    """An ESP posted a received email: store it as it came, process it in a task."""
    message = event.message
    raw = message.as_bytes() if message is not None else b""
    row = services.inbound_store(raw=raw, source=InboundMessage.Source.WEBHOOK)
    transaction.on_commit(ProcessOnCommit(row.pk))
