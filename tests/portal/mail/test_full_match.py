"""A whole Final Act match played from two mailboxes over real SMTP: every order is a reply
built from the previous email the SMTP server received, fed to ``manage.py mail_inbound``."""

from __future__ import annotations

import pytest

from games.models import Match, Submission
from portal.mail.models import InboundMessage, OutgoingEmail
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


def latest(mailboxes, address: str, subject_start: str):
    found = [d for d in mailboxes.to(address) if str(d.message["Subject"]).startswith(
        subject_start)]
    assert found, f"no '{subject_start}...' email for {address}"
    return found[-1]


def test_a_whole_match_is_played_by_email_replies(
    eager, mailboxes, final_act_match, mail_inbound
):
    match = final_act_match()
    alice, bob = match.alice.email, match.bob.email
    mailboxes.wait_for(alice, 1)
    mailboxes.wait_for(bob, 1)

    for round_number in (1, 2, 3):
        to_alice = latest(mailboxes, alice, "Your move")
        to_bob = latest(mailboxes, bob, "Your move")
        assert f"Round {round_number} of" in to_alice.text
        assert "1A: stay, F->" in to_alice.text  # her units with their legal moves
        assert "HOW TO ORDER BY EMAIL" in to_bob.text
        sent_before = len(mailboxes.delivered)

        out = mail_inbound(reply_to(to_alice, sender=alice, orders="1A F"))
        assert "accepted" in out
        ack = mailboxes.wait_for(alice, len(mailboxes.to(alice)))[-1]
        assert "are accepted" in ack.text and "1A F" in ack.text
        receipt = Submission.objects.get(seat__user=match.alice,
                                         phase__number=round_number).receipt
        assert receipt in ack.text
        # Sealed: the acknowledgement went to Alice only, and nothing Bob got shows her sheet.
        assert ack.rcpt_tos == [alice]
        assert not any(receipt in d.data.decode() for d in mailboxes.to(bob))
        assert len(mailboxes.delivered) == sent_before + 1

        mail_inbound(reply_to(to_bob, sender=bob, orders="2A stay\nC stay"))

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    for address in (alice, bob):
        result = latest(mailboxes, address, "Result:")
        assert "Winner: Alpha" in result.text
        assert "broke through" in result.text
    assert "Congratulations" in latest(mailboxes, alice, "Result:").text
    assert InboundMessage.objects.filter(status=InboundMessage.Status.ACCEPTED).count() == 6
    assert not OutgoingEmail.objects.exclude(status=OutgoingEmail.Status.SENT).exists()
