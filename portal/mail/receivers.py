"""The mail app's consumers of the lifecycle's and the competitions' events (connected from the
one table, ``portal.delivery.events``) and its receiver of anymail's inbound webhook. Receivers
only create outgoing rows / store messages; the delivery pipeline does the sending."""

from __future__ import annotations

from anymail.signals import inbound
from django.db import transaction
from django.dispatch import receiver

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


# The competitions' news: sent inside the transaction that made it, whose rows commit with it.


def on_round_started(sender, tournament_id: int, round_number: int, **kwargs) -> None:
    from competitions.models import Round
    from portal.mail.services.competitions import round_started_mail

    round_ = Round.objects.select_related("tournament").get(tournament_id=tournament_id,
                                                            number=round_number)
    round_started_mail(tournament=round_.tournament, round_=round_)


def on_tournament_finished(sender, tournament, **kwargs) -> None:
    from portal.mail.services.competitions import tournament_finished_mail

    tournament_finished_mail(tournament=tournament)


def on_club_invited(sender, invitation, **kwargs) -> None:
    from portal.mail.services.competitions import club_invitation_mail

    club_invitation_mail(invitation=invitation)


def on_season_changed(sender, season, stage: str, **kwargs) -> None:
    from portal.mail.services.competitions import season_news

    season_news(season=season, stage=stage)


def on_team_match_finished(sender, team_match, **kwargs) -> None:
    from portal.mail.services.competitions import team_match_result_mail

    team_match_result_mail(team_match=team_match)


@receiver(inbound, dispatch_uid="mail_anymail_inbound")
def on_anymail_inbound(sender, event, esp_name: str, **kwargs) -> None:
    """An ESP posted a received email: store it as it came (with the outbox row that has a
    worker process it)."""
    message = event.message
    raw = message.as_bytes() if message is not None else b""
    services.inbound_store(raw=raw, source=InboundMessage.Source.WEBHOOK)
