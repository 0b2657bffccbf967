"""Push's consumers of the lifecycle's events (sent by the lifecycle's outbox after the commit,
in a worker) and of the competitions' (sent inside the transaction that made the news);
connected from the one table, ``portal.delivery.events``. They only create push rows; the
delivery pipeline does the sending."""

from __future__ import annotations

from django.db import transaction

from games.signals import Payloads, receiver_of_many
from portal.push import services


@receiver_of_many  # (one signal, or the outbox's batch of them: ``signals.send_many``)
def on_phase_opened(payloads: Payloads) -> None:
    with transaction.atomic():
        services.phases_opened_push(payloads)


def on_gameday_opened(sender, match_id: int, gameday: str, **kwargs) -> None:
    with transaction.atomic():
        services.gameday_opened_push(match_id=match_id, gameday=gameday)


def on_match_ended(sender, match_id: int, status: str, **kwargs) -> None:
    with transaction.atomic():
        services.match_ended_push(match_id=match_id)


def on_messages_due(sender, match_id: int, spans: list, **kwargs) -> None:
    """A match's gathered notice (sent inside the notice's transaction)."""
    services.messages_push(match_id=match_id, spans=spans)


def on_season_changed(sender, season, stage: str, **kwargs) -> None:
    from portal.push.services.competitions import season_push

    season_push(season=season, stage=stage)


def on_team_match_finished(sender, team_match, **kwargs) -> None:
    from portal.push.services.competitions import team_match_result_push

    team_match_result_push(team_match=team_match)
