"""What the player wrote, and only that: a refusal cites the player's own lines with the
numbers they see, and a message delivered again applies nothing twice."""

from __future__ import annotations

import pytest

from games.models import Action
from portal.mail import bodies, services
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.mail.services.gameday import gameday_opened_notify
from tests.portal.mail.corpus import clients, matches
from tests.portal.mail.test_reply_corpus import addressed

pytestmark = pytest.mark.django_db


def original(mail: OutgoingEmail, orders: str) -> clients.Original:
    return clients.Original(text=mail.body_text, html=mail.body_html, subject=mail.subject,
                            message_id=f"<outbox-{mail.pk}@play.example.test>", orders=orders)


def test_every_mail_that_invites_orders_starts_with_the_marker(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, _ = matches.tank_game(alice, bob)
    gameday_opened_notify(match_id=match.pk, gameday="1")
    mail = OutgoingEmail.objects.get(to=alice.email)
    assert mail.body_text.splitlines()[0] == bodies.reply_marker()
    assert bodies.reply_marker() in mail.body_html


@pytest.mark.parametrize("client", ["outlook-desktop-en", "outlook-web-fr-html-only",
                                    "yahoo-en", "gmail-web-de"])
def test_a_refusal_cites_only_the_lines_the_player_wrote(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, _ = matches.tank_game(alice, bob)
    gameday_opened_notify(match_id=match.pk, gameday="1")
    mail = OutgoingEmail.objects.get(to=alice.email)
    raw = addressed(clients.CLIENTS[client](original(mail, "fly to the moon\n\nshoot Z99")),
                    sender=alice.email, to=mail.reply_to)
    row = services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)
    assert (row.status, row.outcome) == ("refused", "invalid")
    problems = row.error.split("\n")[1:]
    assert [p.split(":")[0] for p in problems] == ["Line 1", "Line 3"], row.error
    assert "moon" in problems[0] and "Z99" in problems[1]
    answer = OutgoingEmail.objects.get(kind="reply").body_text
    assert "From:" not in answer and "Hello alice" not in answer and "wrote" not in answer
    assert not Action.objects.filter(match=match, kind="action").exists()


def test_a_message_without_message_id_delivered_five_times_acts_once(make_user, mail_inbound):
    alice, bob = make_user("alice"), make_user("bob")
    match, orders = matches.tank_game(alice, bob)
    gameday_opened_notify(match_id=match.pk, gameday="1")
    mail = OutgoingEmail.objects.get(to=alice.email)
    raw = addressed(clients.CLIENTS["gmail-web-en"](original(mail, orders)),
                    sender=alice.email, to=mail.reply_to)
    raw = b"\r\n".join(line for line in raw.split(b"\r\n")
                       if not line.startswith(b"Message-ID:"))
    assert b"Message-ID" not in raw
    outputs = [mail_inbound(raw) for _ in range(5)]  # the MTA retried four times
    assert all("accepted" in out for out in outputs)
    assert Action.objects.filter(match=match, kind="action").count() == 1
    row = InboundMessage.objects.get()
    assert (row.deliveries, row.message_id) == (5, "")
    assert OutgoingEmail.objects.filter(kind="reply").count() == 1
