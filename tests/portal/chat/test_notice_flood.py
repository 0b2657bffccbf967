"""Notices are gathered per reader, not per channel (issue 49, finding 7): a player who writes
each message to a new private channel makes no more notices than one who writes them all to
one channel. In a 12-seat Tank Game, seat 1 writes ten messages seven seconds apart, each to a
new private channel with seat 2 ([1, 2, 3], [1, 2, 4], ...); beat's sweeper runs every 30
seconds for an hour of the site's clock. Real SMTP server, tasks run inline."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from durable.outbox import outbox_sweep
from games import services
from portal.mail.models import OutgoingEmail
from tests.portal.builders import make_user
from tests.portal.chat.builders import post

pytestmark = pytest.mark.django_db(transaction=True)
ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


def mails(mailboxes, user) -> list:
    return [d for d in mailboxes.to(user.email) if "New messages" in str(d.message["Subject"])]


def test_messages_to_many_new_channels_make_one_notice_per_reader_per_window(
        eager, mailboxes, settings):
    settings.CHAT_NOTIFY_GATHER_SECONDS = 60
    settings.CHAT_NOTIFY_INTERVAL_SECONDS = 300
    users = [make_user(f"tank{n}") for n in range(1, 13)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN},
        seats=[{"kind": "human", "user": u} for u in users])
    sender, reader = users[0], users[1]
    start = timezone.now()
    clock = {"now": start}

    def now():
        return clock["now"]

    with mock.patch("django.utils.timezone.now", now):
        for n, other in enumerate(range(3, 13)):
            clock["now"] = start + timedelta(seconds=7 * n)
            post(match, sender, [2, other], f"FLOOD {n} for seat 2 and seat {other}")
            outbox_sweep()
        for step in range(1, 121):  # beat's sweeper, every 30 s for an hour
            clock["now"] = start + timedelta(seconds=70 + 30 * step)
            outbox_sweep()

    told = [d.text.replace("\r\n", "\n") for d in mails(mailboxes, reader)]
    # One notice as the gathering window closes (the messages of its first minute), one more
    # an interval later for the rest: never one per channel.
    assert 1 <= len(told) <= 2, len(told)
    for n in range(10):  # every message told once, none twice
        assert sum(text.count(f"FLOOD {n} for seat 2") for text in told) == 1, n
    assert OutgoingEmail.objects.filter(kind="message", user=reader).count() == len(told)
    # Each other seat reads one channel: one notice, with its own message only.
    for n, other in enumerate(range(3, 13)):
        (mail,) = mails(mailboxes, users[other - 1])
        assert f"FLOOD {n} for" in mail.text
        assert sum(mail.text.count(f"FLOOD {m} for") for m in range(10)) == 1
    assert mails(mailboxes, sender) == []
