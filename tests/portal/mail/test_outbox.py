"""The mail channel of the delivery pipeline over a real SMTP server: exactly once, retries
with back-off, permanent failures visible in the admin, the sweeper re-queueing what got
stuck."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from durable import sweep as sweeper
from portal.delivery import pipeline, tasks
from portal.mail import services
from portal.mail.models import OutgoingEmail
from portal.mail.receivers import on_phase_opened
from tests.portal.mail.smtp import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def queue(key: str = "test:1", to: str = "carol@example.test") -> OutgoingEmail:
    return services.email_queue(kind=OutgoingEmail.Kind.DIGEST, dedupe_key=key, to=to,
                                subject="Hello", body_text="plain body",
                                body_html="<p>html body</p>")


def send(row: OutgoingEmail) -> str:
    """One batch of the mail channel; ``row``'s status afterwards."""
    pipeline.send_batch(pipeline.channel("mail"))
    row.refresh_from_db()
    return row.status


def test_a_queued_email_is_sent_on_commit_with_both_bodies_and_robot_headers(eager, mailboxes):
    row = queue()
    got = mailboxes.wait_for("carol@example.test", 1)
    message = got[0].message
    assert got[0].text.strip() == "plain body"
    assert "html body" in got[0].html
    assert message["Auto-Submitted"] == "auto-generated"
    row.refresh_from_db()
    assert row.status == OutgoingEmail.Status.SENT and row.attempts == 1


def test_the_same_dedupe_key_makes_one_email(eager, mailboxes):
    assert queue("same") is not None
    assert queue("same") is None
    assert len(mailboxes.to("carol@example.test")) == 1


def test_a_send_task_delivered_twice_sends_once(mailboxes):
    row = queue()  # not eager: nothing sent on commit (no worker)
    assert tasks.deliver_due.apply(kwargs={"channel": "mail"}).get() == 1
    assert tasks.deliver_due.apply(kwargs={"channel": "mail"}).get() == 0
    assert send(row) == "sent"
    assert len(mailboxes.to("carol@example.test")) == 1


def test_a_phase_notification_reported_twice_is_mailed_once(eager, mailboxes, toy_duel):
    match = toy_duel()
    mailboxes.wait_for(match.alice.email, 1)
    # The signal (and so the task queueing the notifications) delivered twice more.
    on_phase_opened(sender=None, match_id=match.pk, phase_number=1)
    on_phase_opened(sender=None, match_id=match.pk, phase_number=1)
    assert len(mailboxes.to(match.alice.email)) == 1
    assert len(mailboxes.to(match.bob.email)) == 1
    assert OutgoingEmail.objects.filter(kind="phase_opened").count() == 2


def test_a_temporary_refusal_is_retried_with_back_off_then_sent(mailboxes, settings):
    settings.MAIL_RETRY_BASE_SECONDS = 60
    mailboxes.refuse["carol@example.test"] = "451 4.3.0 Mailbox busy, try later"
    row = queue()
    assert send(row) == "retry"
    row.refresh_from_db()
    assert row.attempts == 1 and "451" in row.last_error
    assert row.next_attempt_at > timezone.now() + timedelta(seconds=50)
    assert send(row) == "retry"  # not due: untouched
    row.refresh_from_db()
    assert row.attempts == 1

    mailboxes.refuse.clear()
    OutgoingEmail.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())
    assert send(row) == "sent"
    assert len(mailboxes.to("carol@example.test")) == 1
    row.refresh_from_db()
    assert row.attempts == 2 and row.last_error == ""


def test_back_off_doubles_per_attempt(settings):
    settings.MAIL_RETRY_BASE_SECONDS = 30
    backoff_seconds = pipeline.channel("mail").backoff_seconds

    assert [backoff_seconds(n) for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert backoff_seconds(50) == 6 * 3600


def test_connection_refused_is_temporary(mailboxes, settings):
    settings.EMAIL_PORT = free_port()  # nobody listens there
    row = queue()
    assert send(row) == "retry"
    row.refresh_from_db()
    assert "ConnectionRefused" in row.last_error


def test_too_many_temporary_failures_end_as_failed(mailboxes, settings):
    settings.MAIL_MAX_ATTEMPTS = 2
    mailboxes.refuse["carol@example.test"] = "421 4.7.0 Try again later"
    row = queue()
    assert send(row) == "retry"
    OutgoingEmail.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())
    assert send(row) == "failed"


def test_a_permanent_refusal_fails_and_shows_in_the_admin(mailboxes, admin_client):
    mailboxes.refuse["carol@example.test"] = "550 5.1.1 No such user here"
    row = queue()
    assert send(row) == "failed"
    row.refresh_from_db()
    assert "550" in row.last_error and row.next_attempt_at is None
    page = admin_client.get("/admin/mail/outgoingemail/?status__exact=failed")
    assert page.status_code == 200 and "carol@example.test" in page.content.decode()
    assert admin_client.get(f"/admin/mail/outgoingemail/{row.pk}/change/").status_code == 200

    # An admin sends it again once the address works.
    mailboxes.refuse.clear()
    admin_client.post("/admin/mail/outgoingemail/",
                      {"action": "send_again", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == OutgoingEmail.Status.RETRY
    assert send(row) == "sent"


def test_the_sweeper_requeues_lost_and_stuck_rows(eager, mailboxes, settings):
    settings.MAIL_LEASE_SECONDS = 60
    long_ago = timezone.now() - timedelta(hours=1)
    lost = OutgoingEmail.objects.create(  # queued, but its task never reached a worker
        kind="digest", dedupe_key="lost", to="lost@example.test", subject="s", body_text="b",
        next_attempt_at=long_ago)
    stuck = OutgoingEmail.objects.create(  # its worker died while sending
        kind="digest", dedupe_key="stuck", to="stuck@example.test", subject="s", body_text="b",
        status="sending", sending_since=long_ago, attempts=1)
    busy = OutgoingEmail.objects.create(  # being sent right now: not touched
        kind="digest", dedupe_key="busy", to="busy@example.test", subject="s", body_text="b",
        status="sending", sending_since=timezone.now(), attempts=1)
    assert sweeper.sweep(due_only=False)["mail"] == 2  # (the sweeper: one kind per channel)
    assert mailboxes.to("lost@example.test") and mailboxes.to("stuck@example.test")
    assert not mailboxes.to("busy@example.test")
    assert {r.status for r in OutgoingEmail.objects.filter(pk__in=[lost.pk, stuck.pk])} == {
        "sent"}
    busy.refresh_from_db()
    assert busy.status == "sending"


@pytest.mark.parametrize("subject", [
    "Your move: Email duel 1, orders 1", "Réponse : ordres à rendre — tour 3",
    "A long subject " * 8, "two  spaces", "tab\there", " padded ",
])
def test_outbox_messages_are_the_bytes_the_stdlib_would_write(subject):
    """The quick header folding only skips work: the bytes are what compat32 writes."""
    from email import policy

    from portal.mail.services.outbox import OutboxMessage

    mail = OutboxMessage(subject=subject, body="1A F\n" * 3, from_email="Tank <t@example.test>",
                         to=["Zoé Ünal <z@example.test>"],
                         headers={"Message-ID": "<m@x>", "Date": "Sun, 22 Nov 2026 04:00:00 -0000",
                                  "List-Unsubscribe": "<https://x.example.test/" + "u" * 90 + ">"})
    mail.attach_alternative("<p>1A F</p>", "text/html")
    mime = mail.message()
    quick = mime.as_bytes(linesep="\r\n")
    for part in mime.walk():
        part.policy = policy.compat32
    assert quick == mime.as_bytes(linesep="\r\n")
