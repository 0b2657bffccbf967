"""The webhooks' consumers of the lifecycle's and the competitions' events (connected from the
one table, ``portal.delivery.events``). They only queue rows, one per target; the delivery
pipeline posts them."""

from __future__ import annotations

from django.db import transaction

from games.signals import Payloads, receiver_of_many
from portal.webhooks import notify


@receiver_of_many  # (one signal, or the outbox's batch of them: ``signals.send_many``)
def on_phase_opened(payloads: Payloads) -> None:
    with transaction.atomic():
        notify.phases_opened_webhooks(payloads)


def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    with transaction.atomic():
        notify.gameday_opened_webhooks(match_id=match_id, gameday=gameday)


@receiver_of_many
def on_phase_resolved(payloads: Payloads) -> None:
    with transaction.atomic():
        notify.phases_resolved_webhooks(payloads)


def on_match_ended(sender, match_id: int, **kwargs) -> None:
    with transaction.atomic():
        notify.match_ended_webhooks(match_id=match_id)


def on_round_started(sender, tournament_id: int, round_number: int, **kwargs) -> None:
    """Sent inside the transaction that opened the round: the rows commit with it."""
    notify.round_started_webhooks(tournament_id=tournament_id, round_number=round_number)
