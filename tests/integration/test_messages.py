"""Messages with the real stack: PostgreSQL, Redis, Celery worker processes sending through a
real SMTP server, and replies piped into ``manage.py mail_inbound`` as an MTA would. A burst of
messages makes one gathered mail per reader; a reply to it, delivered twice, lands once in the
same channel."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from portal.chat.models import Message
from portal.mail.models import InboundMessage, OutgoingEmail
from tests.integration.conftest import REPO, wait_until
from tests.portal.chat.builders import huddle, post
from tests.portal.mail.smtp import reply_to, start_server

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DOMAIN = "play.example.test"
FROM = "Tank Portal <portal@example.test>"
# The workers know the toy games, Toy Huddle's plug-in included.
GAMES = "tests.toygame,tests.plugged"


@pytest.fixture
def smtp(settings):
    controller, boxes = start_server()
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    settings.DEFAULT_FROM_EMAIL = FROM
    # A notice gathers two seconds of messages here (a minute on a site), and a channel's
    # next notice waits three (five minutes on a site).
    settings.CHAT_NOTIFY_GATHER_SECONDS = 2
    settings.CHAT_NOTIFY_INTERVAL_SECONDS = 3
    settings.CHAT_MESSAGES_PER_MINUTE = 100
    yield controller, boxes
    controller.stop()


def mail_env(controller) -> dict[str, str]:
    return {"EMAIL_URL": f"smtp://{controller.hostname}:{controller.port}",
            "MAIL_REPLY_DOMAIN": DOMAIN, "DEFAULT_FROM_EMAIL": FROM, "ENGINE_EXTRA_GAMES": GAMES,
            "CHAT_NOTIFY_GATHER_SECONDS": "2", "CHAT_NOTIFY_INTERVAL_SECONDS": "3"}


def notices(boxes, user) -> list:
    return [d for d in boxes.to(user.email) if str(d.message["Subject"]).startswith("New messages")]


@pytest.mark.long
def test_fifty_messages_in_a_burst_make_one_mail_per_reader(stack, smtp, settings):
    # The burst must fit in the gathering window for one mail: twenty seconds here (however
    # slow a shared machine is, fifty messages take far less); were it to take longer, every
    # further interval may add one mail, never more.
    settings.CHAT_NOTIFY_GATHER_SECONDS = GATHER = 20
    controller, boxes = smtp
    stack.worker(concurrency=2, **mail_env(controller))
    match = huddle()
    ann, ben, cat = match.players
    started = time.monotonic()
    for n in range(50):
        post(match, ann, "public", f"burst {n}")
    took = time.monotonic() - started
    post(match, ann, [2], "BURST-PRIVATE for Ben")
    for reader in (ben, cat):
        wait_until(lambda r=reader: notices(boxes, r), GATHER + 30,
                   f"the notice to {reader.username}")
    time.sleep(settings.CHAT_NOTIFY_INTERVAL_SECONDS + 3)  # (a further mail would be here)
    most = 1 + int(max(0.0, took - GATHER) // settings.CHAT_NOTIFY_INTERVAL_SECONDS)
    for reader in (ben, cat):
        told = [d.text.replace("\r\n", "\n") for d in notices(boxes, reader)]
        assert 1 <= len(told) <= most, (len(told), took)
        for n in range(50):  # every message told once, none twice
            assert sum(text.count(f"\nburst {n}\n") for text in told) == 1, n
    assert most == 1, f"the burst took {took:.1f} s, longer than the gathering window"
    # Ben's one notice holds both of his channels: the private message and the burst.
    (both,) = [d.text.replace("\r\n", "\n") for d in notices(boxes, ben)]
    assert "BURST-PRIVATE for Ben" in both and "\nburst 1\n" in both
    assert notices(boxes, ann) == []
    assert OutgoingEmail.objects.filter(kind="message").count() == 2
    assert all("BURST-PRIVATE" not in d.text for d in boxes.to(cat.email) + boxes.to(ann.email))


def pipe(stack, controller, raw: bytes) -> str:
    done = subprocess.run([sys.executable, "manage.py", "mail_inbound"], input=raw,
                          env=stack.env(**mail_env(controller)), cwd=REPO,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode()


@pytest.mark.long
def test_a_reply_piped_in_twice_lands_once_in_the_same_channel(stack, smtp):
    controller, boxes = smtp
    stack.worker(concurrency=2, **mail_env(controller))
    match = huddle()
    ann, ben, cat = match.players
    first = post(match, ann, [2], "Ben, an alliance?")
    mail = wait_until(lambda: notices(boxes, ben) and notices(boxes, ben)[0], 30,
                      "the notice to Ben")
    raw = reply_to(mail, sender=ben.email, orders="Yes, Ann: allies until round 5.")
    for _ in range(2):  # the MTA delivers the reply again
        pipe(stack, controller, raw)
    (reply,) = Message.objects.filter(source="email")
    assert (reply.channel_id, reply.author_id, reply.text) == (
        first.channel_id, ben.pk, "Yes, Ann: allies until round 5.")
    assert InboundMessage.objects.get().deliveries == 2
    wait_until(lambda: [d for d in boxes.to(ben.email)
                        if str(d.message["Subject"]).startswith("Re:")], 30, "the answer")
    # The reply is news for Ann: her notice carries it; Cat hears nothing of it.
    answer = wait_until(lambda: notices(boxes, ann) and notices(boxes, ann)[0], 30,
                        "the notice to Ann")
    assert "Yes, Ann: allies until round 5." in answer.text
    time.sleep(3)
    assert len([d for d in boxes.to(ben.email) if str(d.message["Subject"]).startswith("Re:")]) == 1
    assert all("allies" not in d.text for d in boxes.to(cat.email))
    assert Message.objects.count() == 2
