"""Inbound paths: ``manage.py mail_inbound`` (stdin, --maildir) and the anymail webhook."""

from __future__ import annotations

import base64
import mailbox
import os

import pytest
from django.core.management import CommandError, call_command

from games.models import Submission
from portal.mail.models import InboundMessage
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def duel(eager, mailboxes, final_act_match):
    match = final_act_match()
    match.alice_mail = mailboxes.wait_for(match.alice.email, 1)[0]
    match.bob_mail = mailboxes.wait_for(match.bob.email, 1)[0]
    return match


def test_stdin_message_is_stored_processed_and_reported(duel, mail_inbound):
    out = mail_inbound(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    row = InboundMessage.objects.get()
    assert row.source == "pipe" and row.status == "accepted"
    assert f"message {row.pk} from {duel.alice.email}: accepted" in out


def test_empty_stdin_is_a_clear_error(db, mail_inbound):
    with pytest.raises(CommandError, match="stdin is empty"):
        mail_inbound(b"")
    assert not InboundMessage.objects.exists()


def test_every_new_message_of_a_maildir_is_processed_once(duel, mailboxes, tmp_path):
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A F"))
    box.add(reply_to(duel.bob_mail, sender=duel.bob.email, orders="2A stay"))
    box.add(b"not an email at all")
    call_command("mail_inbound", maildir=str(tmp_path / "inbox"))
    assert sorted(InboundMessage.objects.values_list("status", flat=True)) == [
        "accepted", "accepted", "ignored"]
    assert Submission.objects.filter(phase__match=duel).count() == 2
    duel.refresh_from_db()
    assert duel.phase_number == 2  # both sheets in: the round resolved
    call_command("mail_inbound", maildir=str(tmp_path / "inbox"))  # a second run: nothing new
    assert InboundMessage.objects.count() == 3


def test_a_folder_that_is_not_a_maildir_is_refused(db, tmp_path):
    with pytest.raises(CommandError, match="is not a maildir"):
        call_command("mail_inbound", maildir=str(tmp_path))


def test_the_anymail_webhook_stores_and_processes_the_message(duel, mailboxes, client,
                                                              settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "esp:s3cret"}
    raw = reply_to(duel.alice_mail, sender=duel.alice.email, orders="1A FL turn")
    auth = "Basic " + base64.b64encode(b"esp:s3cret").decode()
    response = client.post("/mail/anymail/sendgrid/inbound/",
                           {"email": raw.decode(), "charsets": '{"email": "utf-8"}'},
                           HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    row = InboundMessage.objects.get()
    assert (row.source, row.status) == ("webhook", "accepted")
    sheet = Submission.objects.get(phase__match=duel, seat__number=1)
    assert sheet.data["units"]["1A"] == {"move": "FL", "turn": True, "fire": []}
    assert sheet.receipt in mailboxes.to(duel.alice.email)[-1].text


def test_the_webhook_refuses_requests_without_the_secret(duel, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "esp:s3cret"}
    response = client.post("/mail/anymail/sendgrid/inbound/", {"email": "From: x@y.z\n\nhi"})
    assert response.status_code in (400, 401, 403)
    assert not InboundMessage.objects.exists()


def test_the_pipe_asks_the_mta_to_retry_when_the_message_cannot_be_stored(tmp_path):
    """No database: exit status 75 (EX_TEMPFAIL), so the MTA keeps the message and retries."""
    import subprocess
    import sys

    from tests.integration.conftest import REPO
    from tests.portal.mail.smtp import free_port

    env = {**os.environ, "DATABASE_URL": f"postgres://nobody@127.0.0.1:{free_port()}/none",
           "PORTAL_VAR_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "manage.py", "mail_inbound"], cwd=REPO, env=env,
                          input=b"From: a@example.test\r\nTo: b@example.test\r\n\r\n1A F\r\n",
                          capture_output=True, timeout=60)
    assert done.returncode == 75, done.stderr.decode()[-1000:]
    assert b"could not store the message" in done.stderr
