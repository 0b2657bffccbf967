"""Orders by email reply: every inbound message is stored first; bad input gets one clear
answer (loops none) and changes nothing; good orders are answered with sheet and receipt."""

from __future__ import annotations

import os
from email.message import EmailMessage

import pytest
from django.test import override_settings

from games import services as games_services
from games.models import Submission
from portal.mail import services
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.mail.tokens import reply_address, token_make, token_value
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def duel(eager, mailboxes, final_act_match):
    """An active Final Act match whose "your move" emails have arrived."""
    match = final_act_match()
    match.alice_mail = mailboxes.wait_for(match.alice.email, 1)[0]
    match.bob_mail = mailboxes.wait_for(match.bob.email, 1)[0]
    return match


def email(*, sender: str, to: str, body: str = "1A F", subject: str = "Re: orders",
          headers: dict[str, str] | None = None, **content) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body, **content)
    return message.as_bytes()


def answer(mailboxes, address: str) -> str:
    replies = [d for d in mailboxes.to(address) if str(d.message["Subject"]).startswith("Re:")]
    assert len(replies) == 1, f"{address} got {len(replies)} answers"
    return replies[0].text


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


def assert_nothing_stored(match) -> None:
    assert not Submission.objects.filter(phase__match=match).exists()


def test_a_reply_with_orders_is_accepted_and_answered_with_sheet_and_receipt(duel, mailboxes):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A FR turn"))
    assert (row.status, row.outcome) == ("accepted", "accepted")
    sheet = Submission.objects.get(phase__match=duel, seat__number=1)
    assert sheet.source == "email" and sheet.data["units"]["1A"]["move"] == "FR"
    text = answer(mailboxes, duel.alice.email)
    assert "1A FR turn" in text and sheet.receipt in text and row.receipt == sheet.receipt
    assert (row.match_id, row.seat_number, row.phase_number) == (duel.pk, 1, 1)


def test_a_second_reply_replaces_the_sheet(duel, mailboxes):
    receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A B"))
    sheet = Submission.objects.get(phase__match=duel, seat__number=1)
    assert sheet.revision == 2 and sheet.data["units"]["1A"]["move"] == "B"


def test_an_html_only_reply_is_read_as_text(duel, mailboxes):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F",
                           html_only=True))
    assert row.status == "accepted"


def test_every_error_is_answered_with_its_line(duel, mailboxes):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email,
                           orders="1A F\nfly to the moon\n1A B\nC jump"))
    assert (row.status, row.outcome) == ("refused", "invalid")
    text = answer(mailboxes, duel.alice.email)
    assert "Line 2:" in text and "'fly to the moon'" in text
    assert "Line 3:" in text and "already given on line 1" in text
    assert "Line 4:" in text
    assert_nothing_stored(duel)


def test_rule_errors_name_the_line_of_the_unit(duel, mailboxes):
    receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="\n\nC F\n1A F fire a1"))
    text = answer(mailboxes, duel.alice.email)
    assert "Line 4:" in text
    assert_nothing_stored(duel)


@pytest.mark.parametrize("case", ["no_token", "unknown_token", "forged", "other_key"])
def test_a_bad_reply_address_is_refused_and_not_answered(duel, mailboxes, settings, case):
    """Without a valid token nothing shows that the From header is true: no answer."""
    real = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    if case == "no_token":
        to = "orders@example.test"
    elif case == "unknown_token":
        to = f"play+not-a-token@{settings.MAIL_REPLY_DOMAIN}"
    elif case == "forged":  # seat 2's token with seat 1's signature
        token = token_make(match_id=duel.pk, seat_number=1, phase_number=1,
                           user_id=duel.alice.pk)
        seat2 = token_value(match_id=duel.pk, seat_number=2, phase_number=1,
                            user_id=duel.alice.pk)
        to = f"play+{seat2}.{token.split('.', 1)[1]}@{settings.MAIL_REPLY_DOMAIN}"
    else:  # signed with somebody else's secret key
        with override_settings(SECRET_KEY="another site's secret key, long enough 0123456789"):
            to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1,
                               user_id=duel.alice.pk)
    assert to != real
    mailboxes.clear()
    row = receive(email(sender=duel.alice.email, to=to))
    assert row.status == "refused"
    assert row.outcome == ("no_token" if case == "no_token" else "bad_token")
    assert ("not sent to the reply address" if case == "no_token" else "not valid") in row.error
    assert not mailboxes.to(duel.alice.email)
    assert not OutgoingEmail.objects.filter(kind="reply").exists()
    assert_nothing_stored(duel)


def test_an_expired_token_is_refused_without_an_answer(duel, mailboxes, settings):
    settings.MAIL_TOKEN_MAX_AGE_DAYS = -1
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    assert (row.status, row.outcome) == ("refused", "bad_token")
    assert "expired" in row.error
    assert not OutgoingEmail.objects.filter(kind="reply").exists()


def test_the_sender_must_be_the_seats_player(duel, mailboxes):
    # Bob answers Alice's email (e.g. it was forwarded to him): refused, nothing stored.
    row = receive(reply_to(duel.alice_mail, sender=duel.bob.email, orders="1A B"))
    assert (row.status, row.outcome) == ("refused", "wrong_sender")
    assert "not the address of the player" in answer(mailboxes, duel.bob.email)
    assert_nothing_stored(duel)


def test_a_reply_to_a_resolved_phase_is_refused(duel, mailboxes):
    receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    receive(reply_to(duel.bob_mail, sender=duel.bob.email, orders="2A stay"))
    duel.refresh_from_db()
    assert duel.phase_number == 2
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    assert (row.status, row.outcome) == ("refused", "phase_resolved")
    assert "already been resolved" in mailboxes.to(duel.alice.email)[-1].text
    assert not Submission.objects.filter(phase__match=duel, phase__number=2).exists()


def test_a_reply_after_the_match_ended_is_refused(duel, mailboxes):
    games_services.match_abort(match_id=duel.pk, by=duel.alice, note="test")
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    assert (row.status, row.outcome) == ("refused", "match_over")
    assert "is over" in mailboxes.to(duel.alice.email)[-1].text
    assert_nothing_stored(duel)


def test_a_reply_with_only_the_quote_is_refused_as_empty(duel, mailboxes):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders=""))
    assert (row.status, row.outcome) == ("refused", "empty")
    assert "no orders in it" in answer(mailboxes, duel.alice.email)


def test_garbage_is_stored_and_not_answered(duel, mailboxes):
    raw = os.urandom(3000)
    row = receive(raw)
    assert (row.status, row.outcome) == ("ignored", "no_sender")
    assert bytes(InboundMessage.objects.get(pk=row.pk).raw) == raw
    assert not OutgoingEmail.objects.filter(kind="reply").exists()


def test_a_10_mb_message_is_refused_and_stored_cut(duel, mailboxes, settings):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    raw = email(sender=duel.alice.email, to=to, body="1A F\n" + "x" * 70 + "\n") + \
        (b"y" * 76 + b"\n") * (10 * 1024 * 1024 // 77)
    row = receive(raw)
    assert (row.status, row.outcome) == ("refused", "too_large")
    stored = InboundMessage.objects.get(pk=row.pk)
    assert stored.size == len(raw) >= 10 * 1024 * 1024
    assert len(bytes(stored.raw)) == settings.MAIL_MAX_INBOUND_BYTES
    assert "at most" in answer(mailboxes, duel.alice.email)
    assert_nothing_stored(duel)


def test_attachments_are_refused(duel, mailboxes):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = duel.alice.email, to, "orders"
    message.set_content("1A F")
    message.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="map.png")
    row = receive(message.as_bytes())
    assert (row.status, row.outcome) == ("refused", "attachments")
    assert "map.png" in answer(mailboxes, duel.alice.email)
    assert_nothing_stored(duel)


@pytest.mark.parametrize("charset, body", [
    ("x-martian", b"1A F\n"),
    ("us-ascii", "1A F # d\xe9j\xe0 vu\n".encode("latin-1")),
    ("utf-8", b"1A F \xff\xfe\n"),
])
def test_a_wrong_charset_is_refused(duel, mailboxes, charset, body):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    raw = (f"From: {duel.alice.email}\r\nTo: {to}\r\nSubject: orders\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: text/plain; charset={charset}\r\n"
           "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + body
    row = receive(raw)
    assert (row.status, row.outcome) == ("refused", "charset")
    assert charset in answer(mailboxes, duel.alice.email)
    assert_nothing_stored(duel)


def test_latin1_text_declared_as_such_is_fine(duel, mailboxes):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    raw = email(sender=duel.alice.email, to=to, body="1A F  # déjà vu", charset="latin-1",
                cte="8bit")
    assert receive(raw).status == "accepted"


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"Precedence": "junk"},
    {"X-Autoreply": "yes"},
    {"List-Id": "<tanks.lists.example.test>"},
])
def test_auto_replies_and_lists_are_stored_and_never_answered(duel, mailboxes, headers):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    row = receive(email(sender=duel.alice.email, to=to, body="I am on holiday",
                        headers=headers))
    assert (row.status, row.outcome) == ("ignored", "loop")
    assert not OutgoingEmail.objects.filter(kind="reply").exists()
    assert_nothing_stored(duel)


def test_our_own_mail_coming_back_is_not_answered(duel, mailboxes):
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    row = receive(email(sender="Tank Portal <portal@example.test>", to=to))
    assert (row.status, row.outcome) == ("ignored", "loop")
    assert not OutgoingEmail.objects.filter(kind="reply").exists()


def test_messages_per_reply_address_and_hour_are_capped(duel, mailboxes, settings):
    settings.MAIL_SEAT_HOURLY_CAP = 2
    to = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=duel.alice.pk)
    outcomes = [receive(email(sender="flood@example.test", to=to,  # four different messages
                              headers={"Message-ID": f"<flood{n}@example.test>"})).outcome
                for n in range(4)]
    assert outcomes == ["wrong_sender", "wrong_sender", "rate_limited", "rate_limited"]
    assert len(mailboxes.to("flood@example.test")) == 2


def test_a_processing_failure_keeps_the_message_with_its_error(duel, mailboxes, settings,
                                                               admin_client):
    templates = settings.TEMPLATES
    settings.TEMPLATES = [{**templates[0], "DIRS": []}]  # the answer cannot be rendered
    raw = reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F")
    row = receive(raw)
    assert row.status == "error" and "TemplateDoesNotExist" in row.error
    assert bytes(InboundMessage.objects.get(pk=row.pk).raw) == raw
    assert_nothing_stored(duel)  # the submission rolled back with the failed processing

    settings.TEMPLATES = templates
    admin_client.post("/admin/mail/inboundmessage/",
                      {"action": "process_again", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == "accepted"
    assert Submission.objects.filter(phase__match=duel, seat__number=1).exists()


def test_a_message_is_processed_once(duel, mailboxes):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    services.inbound_process(inbound_id=row.pk)
    assert Submission.objects.get(phase__match=duel, seat__number=1).revision == 1
    assert len(answer(mailboxes, duel.alice.email)) > 0


def test_the_admin_shows_emailed_orders_only_after_their_phase_resolved(duel, mailboxes,
                                                                        admin_client):
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A FR turn"))
    reply = OutgoingEmail.objects.get(kind="reply")
    pages = [f"/admin/mail/inboundmessage/{row.pk}/change/",
             f"/admin/mail/outgoingemail/{reply.pk}/change/"]
    for url in pages:
        page = admin_client.get(url).content.decode()
        assert "sealed until phase 1 resolves" in page and "FR turn" not in page
    receive(reply_to(duel.bob_mail, sender=duel.bob.email, orders="2A stay"))
    for url in pages:
        assert "FR turn" in admin_client.get(url).content.decode()
