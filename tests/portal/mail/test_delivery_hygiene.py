"""Bulk-sender hygiene: batches over one SMTP connection, one-click unsubscribe (RFC 8058),
delivery failures that stop mail to an address and show its player a banner, and automatic
answers that are never answered."""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest
from anymail.signals import AnymailTrackingEvent, tracking
from django.contrib.auth import get_user_model
from django.core.mail.backends.smtp import EmailBackend
from django.db import transaction

from portal.accounts.models import Profile
from portal.accounts.notifications import wants
from portal.delivery import pipeline
from portal.mail import services
from portal.mail.models import FailingAddress, InboundMessage, OutgoingEmail
from portal.mail.tokens import reply_address

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_transactions_mails_go_out_in_one_batch_over_one_connection(eager, mailboxes):
    with transaction.atomic():
        for n in range(7):
            services.email_queue(kind="digest", dedupe_key=f"batch{n}", to=f"p{n}@example.test",
                                 subject="s", body_text="b")
    assert len(mailboxes.delivered) == 7 and mailboxes.sessions == 1
    assert set(OutgoingEmail.objects.values_list("status", flat=True)) == {"sent"}


def test_a_refused_recipient_does_not_stop_the_rest_of_the_batch(mailboxes):
    mailboxes.refuse["p1@example.test"] = "550 5.1.1 no such user"
    mailboxes.refuse["p2@example.test"] = "451 4.3.0 try later"
    for n in range(4):
        services.email_queue(kind="digest", dedupe_key=f"mixed{n}", to=f"p{n}@example.test",
                             subject="s", body_text="b")
    assert pipeline.send_batch(pipeline.channel("mail")) == {
        "sent": 2, "retry": 1, "failed": 1, "gone": 0, "expired": 0}
    status = dict(OutgoingEmail.objects.values_list("to", "status"))
    assert status == {"p0@example.test": "sent", "p1@example.test": "failed",
                      "p2@example.test": "retry", "p3@example.test": "sent"}


@pytest.fixture
def duel(eager, mailboxes, final_act_match):
    match = final_act_match()
    match.alice_mail = mailboxes.wait_for(match.alice.email, 1)[0]
    return match


def test_notifications_carry_one_click_unsubscribe_that_turns_that_events_mail_off(duel,
                                                                                   client):
    message = duel.alice_mail.message
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = str(message["List-Unsubscribe"]).strip().strip("<>")
    path = url.removeprefix("https://tanks.example.test")
    before = Profile.objects.get(user=duel.alice).channels
    assert client.get(path).status_code == 200  # a link checker's GET changes nothing
    assert Profile.objects.get(user=duel.alice).channels == before
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and b"no more" in response.content
    assert "Your move" in response.content.decode()
    assert "Turn them back on" not in response.content.decode()  # not signed in: the profile
    alice = get_user_model().objects.get(pk=duel.alice.pk)
    assert alice.profile.channels["your_move"] == ["push", "webhook"]  # only the mail is off
    assert not wants(alice, "your_move", "mail") and wants(alice, "your_move", "push")
    assert wants(alice, "match_ended", "mail") and wants(alice, "gameday", "mail")
    assert client.post(path[:-3] + "xx/").status_code == 400  # a damaged link: clear answer


def delivery_report(to: str, failed: str, status: str = "5.1.1",
                    message_id: str = "<none@example.test>") -> bytes:
    """A delivery report (RFC 3464) as Postfix writes one, returning the original's headers."""
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.test>\r\n"
        f"To: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        "Auto-Submitted: auto-replied\r\n"
        f"Message-ID: <dsn-{status}-{message_id.strip('<>').replace('@', '.')}@mx.example.test>\r\n"
        "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status;"
        ' boundary="B"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\n'
        "Your message could not be delivered.\r\n--B\r\n"
        "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n"
        f"\r\nFinal-Recipient: rfc822; {failed}\r\nAction: "
        f"{'failed' if status.startswith('5') else 'delayed'}\r\nStatus: {status}\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 unknown user\r\n--B\r\n"
        "Content-Type: text/rfc822-headers\r\n\r\nFrom: Tank Portal <portal@example.test>\r\n"
        f"To: {failed}\r\nMessage-ID: {message_id}\r\nSubject: Your move\r\n--B--\r\n"
    ).encode()


def our_message_id(mail) -> str:
    return str(mail.message["Message-ID"]).strip()


def test_a_delivery_report_marks_the_address_failing_stops_mail_and_shows_a_banner(
        duel, mailboxes, client):
    forged = services.inbound_receive(  # names no mail we sent to alice: marks nothing
        raw=delivery_report("portal@example.test", duel.alice.email),
        source=InboundMessage.Source.PIPE)
    assert (forged.status, forged.outcome) == ("ignored", "bounce")
    assert not FailingAddress.objects.exists()
    row = services.inbound_receive(
        raw=delivery_report("portal@example.test", duel.alice.email,
                            message_id=our_message_id(duel.alice_mail)),
        source=InboundMessage.Source.PIPE)
    assert (row.status, row.outcome) == ("ignored", "bounce")
    failing = FailingAddress.objects.get()
    assert (failing.address, failing.reason, failing.source) == (duel.alice.email, "bounce",
                                                                 "dsn")
    mailboxes.clear()
    services.email_queue(kind="digest", dedupe_key="after-bounce", to=duel.alice.email,
                         user=duel.alice, subject="s", body_text="b")
    assert OutgoingEmail.objects.get(dedupe_key="after-bounce").status == "failed"
    assert not mailboxes.to(duel.alice.email)
    client.force_login(duel.alice)
    banner = f"Our e-mails to <strong>{duel.alice.email}</strong> fail (bounced)"
    assert banner in client.get("/accounts/profile/").content.decode()
    client.post("/mail/address/resume/", {"next": "/accounts/profile/"})
    assert not FailingAddress.objects.exists()
    for elsewhere in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        answer = client.post("/mail/address/resume/", {"next": elsewhere})
        assert answer.status_code == 302 and answer.url == "/accounts/profile/", elsewhere
    assert "Our e-mails to" not in client.get("/accounts/profile/").content.decode()


def test_a_delayed_delivery_report_marks_nothing(duel):
    row = services.inbound_receive(
        raw=delivery_report("portal@example.test", duel.alice.email, status="4.4.7",
                            message_id=our_message_id(duel.alice_mail)),
        source=InboundMessage.Source.PIPE)
    assert row.outcome == "bounce" and not FailingAddress.objects.exists()


@pytest.mark.parametrize("event_type", ["bounced", "complained", "rejected"])
def test_anymail_bounce_and_complaint_webhooks_mark_the_address(duel, event_type):
    event = AnymailTrackingEvent(event_type=event_type, recipient=duel.bob.email.upper(),
                                 description="mailbox full")
    tracking.send(sender=object, event=event, esp_name="Postmark")
    failing = FailingAddress.objects.get()
    assert (failing.address, failing.source) == (duel.bob.email, "anymail:Postmark")
    assert not wants(duel.bob, "your_move", "mail")


def test_an_anymail_delivery_event_marks_nothing(duel):
    tracking.send(sender=object, event=AnymailTrackingEvent(event_type="delivered",
                                                            recipient=duel.bob.email),
                  esp_name="Postmark")
    assert not FailingAddress.objects.exists()


@pytest.mark.parametrize("subject", ["Out of Office: Re: Your move", "Automatic reply: Re: x",
                                     "Réponse automatique : Re: x", "Abwesenheitsnotiz"])
def test_out_of_office_answers_are_stored_and_never_answered(duel, mailboxes, subject):
    message = EmailMessage()
    message["From"] = duel.alice.email
    message["To"] = reply_address(match_id=duel.pk, seat_number=1, phase_number=1,
                                  user_id=duel.alice.pk)
    message["Subject"] = subject
    message.set_content("I am away until Monday.")
    mailboxes.clear()
    row = services.inbound_receive(raw=message.as_bytes(), source=InboundMessage.Source.PIPE)
    assert (row.status, row.outcome) == ("ignored", "loop")
    assert not OutgoingEmail.objects.filter(kind="reply").exists()


def test_an_esp_bounce_posted_to_the_tracking_webhook_marks_the_address(duel, client, settings):
    """Postmark's bounce webhook, as it posts it, through anymail's tracking URL."""
    import base64
    import json

    settings.ANYMAIL = {"WEBHOOK_SECRET": "esp:s3cret"}
    payload = {"RecordType": "Bounce", "ID": 4323372036854775807, "Type": "HardBounce",
               "TypeCode": 1, "Name": "Hard bounce", "MessageID": "883953f4-6105-42a2-a16a",
               "Description": "The server was unable to deliver your message.",
               "Details": "smtp;550 5.1.1 The email account does not exist.",
               "Email": duel.alice.email, "From": "portal@example.test",
               "BouncedAt": "2026-11-22T04:00:00Z", "Inactive": True, "CanActivate": True,
               "Subject": "Your move", "Tag": "", "Metadata": {}, "MessageStream": "outbound"}
    response = client.post("/mail/anymail/postmark/tracking/", json.dumps(payload),
                           content_type="application/json",
                           HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"esp:s3cret").decode())
    assert response.status_code == 200
    failing = FailingAddress.objects.get()
    assert (failing.address, failing.reason, failing.source) == (
        duel.alice.email, "bounce", "anymail:Postmark")
    assert "does not exist" in failing.detail


def test_an_unsubscribed_event_shows_off_in_the_profile_and_can_be_turned_back_on(duel,
                                                                                 client):
    from portal.mail.unsubscribe import mail_opt_out

    client.force_login(duel.alice)
    assert mail_opt_out(user_id=duel.alice.pk, target="match_ended")
    assert not mail_opt_out(user_id=duel.alice.pk, target="match_ended")  # off already
    page = client.get("/accounts/profile/").content.decode()
    assert re.search(r'name="match_ended" value="none"[^>]*checked', page)
    client.post("/mail/resubscribe/match_ended/")
    assert wants(get_user_model().objects.get(pk=duel.alice.pk), "match_ended", "mail")
    assert client.post("/mail/resubscribe/reply/").status_code == 302  # not a target: no-op


def test_links_in_mails_sent_before_the_per_event_choices_still_work(duel, client):
    """Such a link names a kind of mail: "your move" stopped the gamedays' mails too."""
    from portal.mail.unsubscribe import unsubscribe_url

    url = unsubscribe_url(user_id=duel.alice.pk, target="phase_opened")
    client.force_login(duel.alice)
    response = client.post(url.removeprefix("https://tanks.example.test"))
    assert response.status_code == 200
    assert "Turn them back on" in response.content.decode()  # her own: the undo is offered
    alice = get_user_model().objects.get(pk=duel.alice.pk)
    assert not wants(alice, "your_move", "mail") and not wants(alice, "gameday", "mail")
    assert wants(alice, "reminder", "mail")


def test_a_gameday_mails_link_stops_the_gameday_mails_only(duel):
    from portal.mail.unsubscribe import target_of

    gameday = OutgoingEmail(kind="phase_opened", dedupe_key="gameday:m1:g2:u1")
    assert target_of(gameday) == "gameday"
    assert target_of(OutgoingEmail(kind="phase_opened", dedupe_key="phase_opened:m1:p1:u1")) \
        == "your_move"


class RecordingBackend(EmailBackend):
    """Django's SMTP backend (to the test server) noting, for each message handed to the SMTP
    connection, whether a database transaction was open."""

    in_transaction: list[bool] = []

    def open(self):
        opened = super().open()
        sendmail = self.connection.sendmail

        def recorded(*args, **kwargs):
            RecordingBackend.in_transaction.append(transaction.get_connection().in_atomic_block)
            return sendmail(*args, **kwargs)

        self.connection.sendmail = recorded
        return opened


def test_no_database_transaction_is_open_while_talking_to_smtp(mailboxes, settings):
    settings.EMAIL_BACKEND = f"{__name__}.RecordingBackend"
    RecordingBackend.in_transaction = []
    for n in range(3):
        services.email_queue(kind="digest", dedupe_key=f"tx{n}", to=f"t{n}@example.test",
                             subject="s", body_text="b")
    assert pipeline.flush("mail") == 3
    assert RecordingBackend.in_transaction == [False, False, False]
    assert len(mailboxes.delivered) == 3
