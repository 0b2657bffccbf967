"""Push listens to the same lifecycle signals as the mail (sent by the lifecycle's outbox after
the commit, in a worker). Receivers only create push outbox rows; a task does the sending."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games.signals import gameday_opened, match_ended, phase_opened
from portal.push import services


@receiver(phase_opened, dispatch_uid="push_phase_opened")
def on_phase_opened(sender, match_id: int, phase_number: int, **kwargs) -> None:
    with transaction.atomic():
        services.phase_opened_push(match_id=match_id, phase_number=phase_number)


@receiver(gameday_opened, dispatch_uid="push_gameday_opened")
def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    with transaction.atomic():
        services.gameday_opened_push(match_id=match_id, gameday=gameday)


@receiver(match_ended, dispatch_uid="push_match_ended")
def on_match_ended(sender, match_id: int, status: str, **kwargs) -> None:
    with transaction.atomic():
        services.match_ended_push(match_id=match_id)
