"""Mail on the open internet: a From header, a delivery report or a webhook POST proves nothing
by itself. Forged reports stop nobody's mail, forged replies get no answer and use up nobody's
allowance, a seat's old player cannot act for its new one, failing DKIM/DMARC is refused, and
odd charsets or NUL characters are refused with a reason."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from django.core.checks import run_checks
from django.test import override_settings

from games import services as games_services
from games.models import Submission
from portal.mail import services
from portal.mail.models import FailingAddress, InboundMessage, OutgoingEmail
from portal.mail.tokens import reply_address
from tests.portal.mail.smtp import reply_to
from tests.portal.mail.test_delivery_hygiene import delivery_report, our_message_id

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def duel(eager, mailboxes, final_act_match):
    match = final_act_match()
    match.alice_mail = mailboxes.wait_for(match.alice.email, 1)[0]
    match.bob_mail = mailboxes.wait_for(match.bob.email, 1)[0]
    return match


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


def answers(address: str) -> list[OutgoingEmail]:
    return list(OutgoingEmail.objects.filter(kind="reply", to=address))


def tokenless(sender: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, "orders@play.example.test"
    message["Subject"], message["Message-ID"] = "orders", f"<forged{n}@evil.test>"
    message.set_content("1A F")
    return message.as_bytes()


# -- 1. delivery reports ---------------------------------------------------------------------

def test_a_forged_report_listing_every_outbox_id_stops_nobodys_mail(duel):
    """Ids are sequential: a report naming ids 1..2000 names every mail we sent, unless the
    reference carries a mac only we can make."""
    listed = "\r\n".join(
        f"Message-ID: <outbox-{n}@play.example.test>\r\n"
        f"References: <outbox-{n}.{'a' * 24}@play.example.test>" for n in range(1, 2001))
    raw = delivery_report("portal@example.test", duel.alice.email).replace(
        b"Message-ID: <none@example.test>", listed.encode())
    row = receive(raw)
    assert (row.status, row.outcome) == ("ignored", "bounce")
    assert not FailingAddress.objects.exists()


def test_a_report_counts_only_for_the_address_its_mail_went_to(duel):
    """Alice's genuine Message-ID returned in a report that says bob failed marks nobody."""
    receive(delivery_report("portal@example.test", duel.bob.email,
                            message_id=our_message_id(duel.alice_mail)))
    assert not FailingAddress.objects.exists()
    receive(delivery_report("portal@example.test", duel.alice.email.upper(), status="5.2.2",
                            message_id=our_message_id(duel.alice_mail)))
    assert list(FailingAddress.objects.values_list("address", flat=True)) == [duel.alice.email]


# -- 2. ESP webhooks -------------------------------------------------------------------------

def mail_errors() -> list[str]:
    return [m.id for m in run_checks() if m.id and m.id.startswith("mail.")]


@pytest.mark.parametrize("debug, secret, webhooks, refused", [
    (False, "", True, True),
    (False, "esp:s3cret", True, False),
    (False, "", False, False),
    (True, "", True, False),
])
def test_the_site_refuses_to_start_with_open_webhooks_in_production(debug, secret, webhooks,
                                                                    refused):
    anymail = {"WEBHOOK_SECRET": secret} if secret else {}
    with override_settings(DEBUG=debug, ANYMAIL=anymail, INBOUND_WEBHOOKS=webhooks):
        assert mail_errors() == (["mail.E001"] if refused else [])


@pytest.mark.parametrize("url", ["/mail/anymail/sendgrid/inbound/",
                                 "/mail/anymail/postmark/tracking/"])
def test_turned_off_webhooks_answer_404_and_store_nothing(duel, client, settings, url):
    settings.ANYMAIL, settings.INBOUND_WEBHOOKS = {}, False
    raw = reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F")
    response = client.post(url, {"email": raw.decode(), "charsets": '{"email": "utf-8"}'})
    assert response.status_code == 404
    assert not InboundMessage.objects.exists() and not FailingAddress.objects.exists()


@pytest.mark.long
def test_the_mta_pipe_still_takes_mail_when_the_sites_checks_fail():
    """A check refuses to start the site; the pipe the MTA runs per message goes on (the MTA
    would bounce players' mail otherwise)."""
    from tests.portal.test_deploy import PRODUCTION_ENV, manage

    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "ANYMAIL_WEBHOOK_SECRET"}
    assert "mail.E001" in manage("check", env=env).stderr
    result = manage("mail_inbound", env=env)  # empty stdin: it got past the checks
    assert "stdin is empty" in result.stderr and "mail.E001" not in result.stderr


# -- 3. forged From: no backscatter, no exhausted allowance ----------------------------------

def test_tokenless_mails_from_a_player_get_no_answer_and_leave_his_allowance(duel, mailboxes,
                                                                          settings):
    settings.MAIL_SENDER_HOURLY_CAP = settings.MAIL_SEAT_HOURLY_CAP = 3
    mailboxes.clear()
    rows = [receive(tokenless(duel.bob.email, n)) for n in range(5)]
    assert {(r.status, r.outcome) for r in rows} == {("refused", "no_token")}
    assert all("not sent to the reply address" in r.error for r in rows)
    assert not answers(duel.bob.email)
    real = receive(reply_to(duel.bob_mail, sender=duel.bob.email, orders="2A stay"))
    assert (real.status, real.outcome) == ("accepted", "accepted")
    assert len(answers(duel.bob.email)) == 1  # the receipt, nothing else
    assert len(mailboxes.to(duel.bob.email)) == 1


def test_answers_to_one_address_are_capped(duel, mailboxes, settings):
    """Alice's token with a stranger's From: at most a few refusals reach the stranger."""
    settings.MAIL_ANSWERS_PER_ADDRESS_HOURLY = 2
    rows = [receive(reply_to(duel.alice_mail, sender="victim@example.test", orders="1A F"))
            for _ in range(4)]
    assert [r.outcome for r in rows] == ["wrong_sender"] * 4
    assert len(answers("victim@example.test")) == 2
    assert all("Not answered" in r.error for r in rows[2:])


def test_the_hourly_cap_counts_replies_to_one_reply_address(duel, mailboxes, settings):
    settings.MAIL_SEAT_HOURLY_CAP = 2
    outcomes = [receive(reply_to(duel.alice_mail, sender=duel.alice.email,
                                 orders="1A F")).outcome for _ in range(3)]
    assert outcomes == ["accepted", "accepted", "rate_limited"]
    assert receive(reply_to(duel.bob_mail, sender=duel.bob.email,
                            orders="2A stay")).outcome == "accepted"


# -- 4. tokens name the player; DKIM and DMARC --------------------------------------------

def test_a_seats_previous_player_cannot_act_for_its_new_one(duel, mailboxes, moderator,
                                                           make_user, settings):
    settings.MAIL_SEAT_HOURLY_CAP = 2
    carol = make_user("carol")
    games_services.seat_moderate_replace(match_id=duel.pk, seat_number=1, by=moderator,
                                         reason="alice left", user=carol)
    # Alice still has her phase mail; she writes "from" carol.
    row = receive(reply_to(duel.alice_mail, sender=carol.email, orders="1A F"))
    assert (row.status, row.outcome) == ("refused", "not_your_seat")
    assert not Submission.objects.filter(phase__match=duel).exists()
    row = receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    assert (row.status, row.outcome) == ("refused", "not_your_seat")
    assert not Submission.objects.filter(phase__match=duel).exists()
    receive(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A B"))
    # Her mails do not use up carol's allowance: carol's own reply address still works.
    carols = reply_address(match_id=duel.pk, seat_number=1, phase_number=1, user_id=carol.pk)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = carol.email, carols, "orders"
    message.set_content("1A F")
    assert receive(message.as_bytes()).status == "accepted"


def with_results(raw: bytes, *values: str) -> bytes:
    """``raw`` as the receiving servers leave it: their headers on top, the last one first."""
    return b"".join(f"Authentication-Results: {v}\r\n".encode() for v in values) + raw


@pytest.mark.parametrize("result", [
    "mx.play.example.test; dkim=pass header.d=example.test; dmarc=fail (p=reject) "
    "header.from=example.test",
    "mx.play.example.test; dkim=fail (bad signature) header.d=example.test; spf=pass",
])
def test_a_reply_failing_dkim_or_dmarc_is_stored_refused_and_not_answered(duel, mailboxes,
                                                                         result):
    raw = with_results(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"),
                       result)
    row = receive(raw)
    assert (row.status, row.outcome) == ("refused", "not_authentic")
    assert "DMARC" in row.error if "dmarc=fail" in result else "DKIM" in row.error
    assert row.authentication.endswith("(by mx.play.example.test)")
    assert not answers(duel.alice.email)
    assert not Submission.objects.filter(phase__match=duel).exists()


def test_a_passing_verdict_is_recorded_and_one_good_signature_is_enough(duel, mailboxes):
    raw = with_results(
        reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"),
        "mx.play.example.test; dkim=fail header.d=list.test; dkim=pass header.d=example.test; "
        "dmarc=pass header.from=example.test")
    row = receive(raw)
    assert row.status == "accepted"
    assert row.authentication == "dkim=fail/pass dmarc=pass (by mx.play.example.test)"


def test_only_the_receiving_servers_headers_count(duel, mailboxes, settings):
    """A sender writes what it likes below our server's header: "pass" there changes nothing,
    and with MAIL_AUTHSERV_IDS only the named servers count."""
    reply = reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F")
    ours = "mx.play.example.test; dmarc=fail header.from=example.test"
    forged = "evil.test; dkim=pass; dmarc=pass"
    assert receive(with_results(reply, ours, forged)).outcome == "not_authentic"
    settings.MAIL_AUTHSERV_IDS = ["mx.play.example.test"]
    reply = reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F")
    row = receive(with_results(reply, "evil.test; dmarc=fail", "mx.play.example.test; "
                               "dkim=pass header.d=example.test; dmarc=pass"))
    assert row.status == "accepted" and row.authentication.startswith("dkim=pass dmarc=pass")


@pytest.mark.parametrize("value, parsed", [
    ("mx.google.com; dkim=pass header.i=@example.com header.s=s1; spf=pass (google.com: domain "
     "of a@example.com; designates 1.2.3.4) smtp.mailfrom=a@example.com; dmarc=pass (p=NONE "
     "sp=NONE dis=NONE) header.from=example.com",
     ("mx.google.com", [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")])),
    ("spf=pass (sender IP is 40.107.1.1) smtp.mailfrom=example.com; dkim=pass (signature was "
     "verified) header.d=example.com;dmarc=pass action=none header.from=example.com;"
     "compauth=pass reason=100",
     ("", [("spf", "pass"), ("dkim", "pass"), ("dmarc", "pass"), ("compauth", "pass")])),
    ('mx.example.org 1; dkim/1=FAIL reason="bad; really" header.d=a.test; none',
     ("mx.example.org", [("dkim", "fail")])),
    ("mx.example.org; none", ("mx.example.org", [])),
    (";;;", ("", [])),
])
def test_authentication_results_headers_are_read_as_servers_write_them(value, parsed):
    from portal.mail import authresults

    assert authresults.parse(value) == parsed


# -- 5. charsets and NUL ---------------------------------------------------------------------

def plain(duel, charset: str, body: bytes, subject: str = "Re: orders") -> bytes:
    to = str(duel.alice_mail.message["Reply-To"])
    return (f"From: {duel.alice.email}\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + body


@pytest.mark.parametrize("charset", ["hex", "rot13", "zip"])
def test_a_codec_that_is_not_a_charset_is_refused_and_answered_once(duel, mailboxes, charset):
    raw = plain(duel, charset, b"1A F\n")
    row = receive(raw)
    assert (row.status, row.outcome) == ("refused", "charset")
    assert charset in row.error
    receive(raw)  # delivered again: the same row, no second answer
    (reply,) = answers(duel.alice.email)
    assert "not a character set" in reply.body_text


def test_a_tokenless_mail_in_an_unknown_charset_is_refused_without_an_answer(duel, mailboxes):
    raw = plain(duel, "hex", b"1A F\n").replace(
        str(duel.alice_mail.message["Reply-To"]).encode(), b"orders@play.example.test")
    row = receive(raw)
    assert (row.status, row.outcome) == ("refused", "no_token")
    assert not answers(duel.alice.email)


def test_a_nul_in_the_text_is_refused_before_it_reaches_the_database(duel, mailboxes):
    row = receive(plain(duel, "utf-8", b"1A F\x00\n"))
    assert (row.status, row.outcome) == ("refused", "nul")
    assert "NUL" in answers(duel.alice.email)[0].body_text
    assert not Submission.objects.filter(phase__match=duel).exists()


def test_a_nul_in_a_header_is_stored_replaced_and_refused(duel, mailboxes):
    row = receive(plain(duel, "utf-8", b"1A F\n", subject="Re: orders\x00now"))
    stored = InboundMessage.objects.get(pk=row.pk)
    assert "\x00" not in stored.subject and stored.subject.startswith("Re: orders")
    assert (stored.status, stored.outcome) == ("refused", "nul")
    (reply,) = answers(duel.alice.email)
    assert "\x00" not in reply.subject


def test_a_nul_in_an_attachments_name_is_kept_out_of_the_reason(duel, mailboxes):
    message = EmailMessage()
    message["From"], message["Subject"] = duel.alice.email, "orders"
    message["To"] = str(duel.alice_mail.message["Reply-To"])
    message.set_content("1A F")
    message.add_attachment(b"PNG", maintype="image", subtype="png", filename="map\x00.png")
    row = receive(message.as_bytes())
    assert (row.status, row.outcome) == ("refused", "attachments")
    assert "\x00" not in row.error and "map" in row.error
    assert "\x00" not in answers(duel.alice.email)[0].body_text
