"""Matches with messages, built the way players build them (services only)."""

from __future__ import annotations

from games.services import match_create
from portal.chat.models import Message
from portal.chat.services import message_post
from tests.helpers import as_moderator
from tests.portal.builders import make_user


def huddle(names=("ann", "ben", "cat"), **options):
    """A Toy Huddle match (seats take turns; the "huddle" channel is the seats whose turn it
    is not) between new players ``names``; ``match.players`` in seat order."""
    players = [make_user(name) for name in names]
    match = match_create(creator=players[0], game="toy-huddle", options={}, hours_per_phase=24,
                         seats=[{"kind": "human", "user": user} for user in players], **options)
    match.players = players
    return match


def moderator(name: str = "mod"):
    return as_moderator(make_user(name, staff=True))


def post(match, user, channel, text, source=Message.Source.WEB) -> Message:
    return message_post(match_id=match.pk, user=user, channel=channel, text=text, source=source)


def notice_flush(match_id: int, *, after: float = 1) -> bool:
    """Send the match's gathered notice as if its time had come (``after`` seconds later)."""
    from datetime import timedelta

    from django.utils import timezone

    from portal.chat import notify
    from portal.chat.models import NoticeGathering

    gathering = NoticeGathering.objects.filter(match_id=match_id).first()
    due = gathering.due_at if gathering is not None and gathering.due_at else timezone.now()
    return notify.notice_send(match_id=match_id, now=due + timedelta(seconds=after))
