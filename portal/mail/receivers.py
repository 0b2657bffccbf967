"""The mail app's consumers of the lifecycle's events (connected from the one table,
``portal.delivery.events``) and its receiver of anymail's inbound webhook. Receivers only create
outgoing rows / store messages; the delivery pipeline does the sending."""

from __future__ import annotations

from anymail.signals import inbound
from django.db import transaction
from django.dispatch import receiver

from games.services.queue import enqueue_on_commit
from games.signals import Payloads, receiver_of_many
from portal.mail import services
from portal.mail.models import InboundMessage


@receiver_of_many  # (one signal, or the outbox's batch of them: ``signals.send_many``)
def on_phase_opened(payloads: Payloads) -> None:
    with transaction.atomic():
        services.phases_opened_notify(payloads)


@receiver_of_many
def on_phase_resolved(payloads: Payloads) -> None:
    with transaction.atomic():
        services.phases_resolved_notify(payloads)


def on_match_ended(sender, match_id: int, status: str, **kwargs) -> None:
    with transaction.atomic():
        services.match_ended_notify(match_id=match_id, status=status)


def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    from portal.mail.services.gameday import gameday_opened_notify

    with transaction.atomic():
        gameday_opened_notify(match_id=match_id, gameday=gameday)


def on_leave_taken(sender, leave_id: int, **kwargs) -> None:
    from portal.mail.services.leave import leave_taken_notify

    with transaction.atomic():
        leave_taken_notify(leave_id=leave_id)


def on_vote_changed(sender, match_id: int, vote_id: int, what: str, **kwargs) -> None:
    from portal.mail.services.votes import vote_changed_notify

    with transaction.atomic():
        vote_changed_notify(match_id=match_id, vote_id=vote_id, what=what)


def on_seat_changed(sender, match_id: int, seat_number: int, change: str, at: str,
                    user_id: int | None = None, ending: str = "", **kwargs) -> None:
    from portal.mail.services.seats import seat_changed_notify

    with transaction.atomic():
        seat_changed_notify(match_id=match_id, seat_number=seat_number, change=change,
                            user_id=user_id, ending=ending, at=at)


def on_messages_due(sender, match_id: int, spans: list, **kwargs) -> None:
    """A match's gathered notice (sent inside the notice's transaction)."""
    from portal.mail.services.messages import messages_notify

    messages_notify(match_id=match_id, spans=spans)


@receiver(inbound, dispatch_uid="mail_anymail_inbound")
def on_anymail_inbound(sender, event, esp_name: str, **kwargs) -> None:
    """An ESP posted a received email: store it as it came, process it in a task."""
    message = event.message
    raw = message.as_bytes() if message is not None else b""
    row = services.inbound_store(raw=raw, source=InboundMessage.Source.WEBHOOK)
    enqueue_on_commit("portal.mail.tasks.inbound_process", inbound_id=row.pk)
