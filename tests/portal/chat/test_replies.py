"""A reply to a message notice is a message to the same channel: posted once however often the
mail arrives, only from the reader it was mailed to, refused with a clear answer otherwise
(the real inbound path: the stored raw mail, read, answered)."""

from __future__ import annotations

import pytest

from games.services import match_abort
from portal.chat.models import Channel, Message
from portal.mail import services as mail_services
from portal.mail.models import InboundMessage
from tests.portal.chat.builders import huddle, notice_flush, post
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


def notice_to(mailboxes, channel_id, user):
    assert notice_flush(Channel.objects.get(pk=channel_id).match_id)
    return [d for d in mailboxes.to(user.email) if "New messages" in str(d.message["Subject"])][-1]


def answers(mailboxes, user) -> list[str]:
    return [d.text for d in mailboxes.to(user.email) if str(d.message["Subject"]).startswith("Re:")]


def test_a_reply_lands_in_the_same_channel_exactly_once(eager, mailboxes):
    match = huddle()
    ann, ben, cat = match.players
    first = post(match, ann, [2], "Shall we share the north?")
    mail = notice_to(mailboxes, first.channel_id, ben)
    raw = reply_to(mail, sender=ben.email, orders="Agreed, Ann.\nI take the east.")
    for _ in range(3):  # the MTA delivers it again, twice
        row = mail_services.inbound_receive(raw=raw, source="pipe")
    assert row.status == InboundMessage.Status.ACCEPTED and row.outcome == "message_posted"
    assert InboundMessage.objects.get().deliveries == 3
    (reply,) = Message.objects.filter(source="email")
    assert reply.channel_id == first.channel_id and reply.seat_number == 2
    assert reply.author == ben and reply.text == "Agreed, Ann.\nI take the east."
    (answer,) = answers(mailboxes, ben)
    assert "Your message is posted in Private: Seat 1 (ann)" in answer
    assert "Agreed" not in answer  # the answer does not quote the message
    assert answers(mailboxes, cat) == [] and answers(mailboxes, ann) == []


def test_a_reply_from_someone_else_or_after_the_end_posts_nothing(eager, mailboxes):
    match = huddle()
    ann, ben, cat = match.players
    first = post(match, ann, "public", "Hello")
    mail = notice_to(mailboxes, first.channel_id, ben)
    forged = mail_services.inbound_receive(
        raw=reply_to(mail, sender=cat.email, orders="I am Ben, honest"), source="pipe")
    assert forged.status == InboundMessage.Status.REFUSED and forged.outcome == "wrong_sender"
    match_abort(match_id=match.pk, by=ann, note="over")
    late = mail_services.inbound_receive(
        raw=reply_to(mail, sender=ben.email, orders="Too late?"), source="pipe")
    assert late.status == InboundMessage.Status.REFUSED and late.outcome == "not_active"
    assert "no more messages" in answers(mailboxes, ben)[-1]
    assert Message.objects.count() == 1


def test_the_admin_does_not_show_a_message_reply(eager, mailboxes, admin_client):
    match = huddle()
    ann, ben, _cat = match.players
    first = post(match, ann, [2], "psst")
    mail = notice_to(mailboxes, first.channel_id, ben)
    row = mail_services.inbound_receive(
        raw=reply_to(mail, sender=ben.email, orders="REPLY-ADMIN-MUST-NOT-SEE"), source="pipe")
    page = admin_client.get(f"/admin/mail/inboundmessage/{row.pk}/change/")
    assert page.status_code == 200 and b"REPLY-ADMIN-MUST-NOT-SEE" not in page.content
