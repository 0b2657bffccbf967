"""Play by email with the real stack: PostgreSQL, Redis, a Celery worker process that sends
through Django's SMTP backend to a real SMTP server (aiosmtpd), and replies piped into
``manage.py mail_inbound`` as an MTA would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games import services as games_services
from games.models import Match
from portal.celery import app
from portal.mail import services
from portal.mail.models import InboundMessage, OutgoingEmail
from tests.integration.conftest import REPO, wait_until
from tests.portal.mail.conftest import ALPHA_NEAR_BREAKTHROUGH
from tests.portal.mail.smtp import reply_to, start_server

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DOMAIN = "play.example.test"
FROM = "Tank Portal <portal@example.test>"


@pytest.fixture
def smtp(settings):
    controller, boxes = start_server()
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    settings.DEFAULT_FROM_EMAIL = FROM
    yield controller, boxes
    controller.stop()


def mail_env(controller) -> dict[str, str]:
    return {"EMAIL_URL": f"smtp://{controller.hostname}:{controller.port}",
            "MAIL_REPLY_DOMAIN": DOMAIN, "DEFAULT_FROM_EMAIL": FROM}


def pipe(stack, controller, raw: bytes) -> str:
    """``manage.py mail_inbound < message``, in its own process, as an MTA runs it."""
    done = subprocess.run([sys.executable, "manage.py", "mail_inbound"], input=raw,
                          env=stack.env(**mail_env(controller)), cwd=REPO,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode()


def latest(boxes, address: str, subject_start: str):
    found = [d for d in boxes.to(address) if str(d.message["Subject"]).startswith(subject_start)]
    return found[-1] if found else None


@pytest.mark.long
def test_a_match_is_played_by_mail_through_the_worker_and_an_mta_pipe(stack, smtp, make_user):
    controller, boxes = smtp
    stack.worker(**mail_env(controller))
    alice, bob = make_user("pbem-alice"), make_user("pbem-bob")
    match = games_services.match_create(
        creator=alice, game="final-act", options={"scenario": ALPHA_NEAR_BREAKTHROUGH},
        hours_per_phase=24, title="Mail duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])

    for round_number in (1, 2, 3):
        for user, orders in ((alice, "1A F"), (bob, "2A stay")):
            mail = wait_until(
                lambda u=user, r=round_number: (m := latest(boxes, u.email, "Your move"))
                and f"Round {r} of" in m.text and m, 30,
                f"round {round_number} email to {user.username}")
            out = pipe(stack, controller, reply_to(mail, sender=user.email, orders=orders))
            assert ": accepted" in out, out
            wait_until(lambda u=user: latest(boxes, u.email, "Re:") is not None, 30,
                       "the acknowledgement")
    wait_until(lambda: latest(boxes, alice.email, "Result") and latest(boxes, bob.email,
                                                                       "Result"),
               30, "the result mailed to both")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert "Winner: Alpha" in latest(boxes, bob.email, "Result").text
    assert InboundMessage.objects.filter(status="accepted", source="pipe").count() == 6
    # Every email once: 3 phase emails + 3 acknowledgements + 1 result per player.
    assert len(boxes.to(alice.email)) == len(boxes.to(bob.email)) == 7


def test_a_send_task_delivered_twice_by_the_broker_mails_once(stack, smtp):
    controller, boxes = smtp
    row = services.email_queue(kind="digest", dedupe_key="twice", to="twice@example.test",
                               subject="Once", body_text="only once")
    for _ in range(3):  # the on-commit one plus two duplicates, concurrently on 2 processes
        app.send_task("portal.delivery.tasks.deliver_due", kwargs={"channel": "mail"})
    stack.worker(concurrency=2, **mail_env(controller))
    wait_until(lambda: OutgoingEmail.objects.get(pk=row.pk).status == "sent", 30, "sending")
    import time

    time.sleep(2)  # give the duplicates time to (not) send
    assert len(boxes.to("twice@example.test")) == 1


def test_phase_emails_go_once_when_the_resolution_is_delivered_again(stack, smtp, make_user):
    controller, boxes = smtp
    stack.worker(concurrency=2, **mail_env(controller))
    alice, bob = make_user("twice-alice"), make_user("twice-bob")
    match = games_services.match_create(
        creator=alice, game="final-act", options={"scenario": ALPHA_NEAR_BREAKTHROUGH},
        hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    games_services.orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                                 source="web", text="1A F")
    games_services.orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=1,
                                 source="web", text="2A stay")
    for _ in range(3):  # the resolution task delivered three more times
        app.send_task("games.tasks.resolve_phase",
                      kwargs={"match_id": match.pk, "phase_number": 1})
    # Each seat's mails of both phases sent (phase 1's may go after phase 2's on a busy
    # machine: a failure once waited for phase 2's alone, with phase 1's still on its way).
    wait_until(lambda: OutgoingEmail.objects.filter(kind="phase_opened", phase_number__in=[1, 2],
                                                    status="sent").count() == 4,
               30, "the phase 1 and phase 2 emails")
    for user in (alice, bob):
        boxes.wait_for(user.email, 2)
    import time

    time.sleep(2)  # give the duplicates time to (not) arrive
    for user in (alice, bob):
        subjects = [str(d.message["Subject"]) for d in boxes.to(user.email)]
        assert len([s for s in subjects if s.startswith("Your move")]) == 2  # phases 1 and 2


def test_the_worker_retries_a_temporary_smtp_failure_with_back_off(stack, smtp, settings):
    controller, boxes = smtp
    boxes.refuse["later@example.test"] = "451 4.3.0 Greylisted, try again shortly"
    stack.worker(MAIL_RETRY_BASE_SECONDS="1", **mail_env(controller))
    row = services.email_queue(kind="digest", dedupe_key="greylisted",
                               to="later@example.test", subject="Eventually", body_text="hi")
    wait_until(lambda: OutgoingEmail.objects.get(pk=row.pk).attempts >= 2, 30,
               "two refused attempts")
    row.refresh_from_db()
    assert row.status in ("retry", "sending") and "451" in row.last_error
    boxes.refuse.clear()
    wait_until(lambda: OutgoingEmail.objects.get(pk=row.pk).status == "sent", 30,
               "the retry to get through")
    assert len(boxes.to("later@example.test")) == 1
