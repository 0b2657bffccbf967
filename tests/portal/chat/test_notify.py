"""Telling players of new messages: gathered (at most one notice per reader every few
minutes, for all their channels), by their choices (each mail as it happens, the daily
digest, none), to the channel's readers only, with a reply address that posts to the same
channel; pushes likewise. Real SMTP server and local push service, tasks run inline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from durable.models import OutboxEvent
from games.services import match_create
from portal.accounts.models import Event, Profile
from portal.accounts.notifications import mail_set
from portal.chat import notify
from portal.chat.models import Channel, ChannelRead, NoticeGathering
from portal.chat.services import player_mute
from portal.mail.models import OutgoingEmail
from portal.mail.services import digests_send
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle, notice_flush, post

pytestmark = pytest.mark.django_db(transaction=True)


def flush(channel_id: int, *, after: float = 0) -> bool:
    """Send the notice of the channel's match as if its time had come (``after`` seconds
    later still)."""
    return notice_flush(Channel.objects.get(pk=channel_id).match_id, after=after)


def text(mail) -> str:
    return mail.text.replace("\r\n", "\n")


def mails(mailboxes, user) -> list:
    return [d for d in mailboxes.to(user.email) if "New messages" in str(d.message["Subject"])]


def test_a_burst_of_fifty_messages_makes_one_mail_per_reader(eager, mailboxes, settings):
    from celery.signals import task_prerun

    settings.CHAT_MESSAGES_PER_MINUTE = 100
    match = huddle()
    ann, ben, cat = match.players
    ran = []

    def count(sender=None, **kwargs):
        ran.append(sender.name)

    task_prerun.connect(count, weak=False)
    try:
        first = post(match, ann, "public", "message 0")
        for n in range(1, 50):
            post(match, ann, "public", f"message {n}")
    finally:
        task_prerun.disconnect(count)
    # One notice for the whole burst: an outbox row written by the first message, due a
    # minute later (its dispatch, run at once here, leaves it for then).
    notices = OutboxEvent.objects.filter(series=match.pk, name="portal.chat.tasks.messages_notify")
    assert [row.status for row in notices] == ["queued"]
    assert notices[0].next_attempt_at == NoticeGathering.objects.get(match=match).due_at
    assert "portal.chat.tasks.messages_notify" not in ran
    assert mails(mailboxes, ben) == []
    channel = first.channel
    assert not notify.notice_send(match_id=match.pk)  # not due yet: a minute to gather
    assert flush(channel.pk)
    for reader in (ben, cat):
        (mail,) = mails(mailboxes, reader)
        assert all(f"message {n}\n" in text(mail) for n in range(50))
    assert mails(mailboxes, ann) == []  # one's own messages are not news
    assert not flush(channel.pk)  # sent: nothing is due any more
    assert OutgoingEmail.objects.filter(kind="message").count() == 2

    # More within the interval: the next notice waits for it, then carries them all.
    post(match, ben, "public", "late one")
    post(match, ben, "public", "late two")
    gathering = NoticeGathering.objects.get(match=match)
    assert gathering.due_at >= gathering.notified_at + timedelta(
        seconds=settings.CHAT_NOTIFY_INTERVAL_SECONDS)
    assert not notify.notice_send(match_id=match.pk,
                                  now=timezone.now() + timedelta(seconds=90))
    assert flush(channel.pk)
    assert len(mails(mailboxes, cat)) == 2 and len(mails(mailboxes, ann)) == 1
    assert "late one" in mails(mailboxes, cat)[1].text and "late two" in mails(
        mailboxes, ann)[0].text
    assert "message 3\n" not in text(mails(mailboxes, cat)[1])


def test_a_private_notice_reaches_the_channel_only(eager, mailboxes, push_service, subscribe):
    match = huddle()
    ann, ben, cat = match.players
    for user in (ann, ben, cat):
        subscribe(user, f"{user.username}-phone")
    message = post(match, ann, [2], "PRIVATE-WORDS to Ben")
    assert flush(message.channel_id)
    (mail,) = mails(mailboxes, ben)
    assert "PRIVATE-WORDS to Ben" in mail.text and "Private: Seat 1 (ann)" in mail.text
    assert mails(mailboxes, cat) == [] and mails(mailboxes, ann) == []
    for row in OutgoingEmail.objects.exclude(to=ben.email):
        assert "PRIVATE-WORDS" not in row.body_text + row.body_html + row.subject
    (push,) = push_service.to("ben-phone")
    assert push.payload["body"] == "1 new message in a private conversation."
    assert "PRIVATE-WORDS" not in str(push.payload)
    assert push_service.to("cat-phone") == [] and push_service.to("ann-phone") == []


def test_who_muted_read_or_chose_otherwise_is_not_mailed(eager, mailboxes):
    match = huddle(names=("ann", "ben", "cat", "dan"))
    ann, ben, cat, dan = match.players
    player_mute(user=ben, muted_id=ann.pk)
    mail_set(user_id=cat.pk, events=[Event.MESSAGE], on=False)  # "none"
    message = post(match, ann, "public", "hello all")
    ChannelRead.objects.create(channel=message.channel, user=dan, last_read_id=message.pk)
    assert flush(message.channel_id)
    assert mails(mailboxes, ben) == mails(mailboxes, cat) == mails(mailboxes, dan) == []


def test_a_digest_reader_gets_the_unread_counts_in_the_digest(eager, mailboxes):
    match = huddle()
    ann, ben, _cat = match.players
    Profile.objects.update_or_create(user=ben, defaults={
        "mail_delivery": Profile.Delivery.DAILY_DIGEST})
    message = post(match, ann, "public", "for the digest")
    post(match, ann, [2], "private for the digest")
    assert flush(message.channel_id)
    assert mails(mailboxes, ben) == []
    digests_send()
    (digest,) = [d for d in mailboxes.to(ben.email) if "Your matches" in str(d.message["Subject"])]
    assert "1 unread message in Public" in digest.text
    assert "1 unread message in Private: Seat 1 (ann)" in digest.text
    assert "private for the digest" not in digest.text


def test_the_notice_says_where_to_reply_and_is_not_shown_in_the_admin(eager, mailboxes,
                                                                       admin_client):
    match = huddle()
    ann, ben, _cat = match.players
    message = post(match, ann, [2], "ADMIN-MUST-NOT-SEE")
    assert flush(message.channel_id)
    (mail,) = mails(mailboxes, ben)
    assert str(mail.message["Reply-To"]).startswith("play+msg-")
    assert mail.text.startswith("— write your message above this line —")
    assert "List-Unsubscribe" in mail.message
    row = OutgoingEmail.objects.get(kind="message")
    page = admin_client.get(f"/admin/mail/outgoingemail/{row.pk}/change/")
    assert page.status_code == 200 and b"ADMIN-MUST-NOT-SEE" not in page.content


def test_each_notice_and_push_is_worded_in_its_readers_language(eager, mailboxes, push_service,
                                                                subscribe):
    """The channel's name and the authors' seats in the reader's language (a French reader's
    mail says "Privé : Rouge (rosa)", an English reader's "Private: Red (rosa)")."""
    rosa, blaise, vera = (make_user(name) for name in ("rosa", "blaise", "vera"))
    Profile.objects.update_or_create(user=blaise, defaults={"language": "fr"})
    match = match_create(creator=rosa, game="final-strategy", options={}, hours_per_phase=24,
                         seats=[{"kind": "human", "user": u} for u in (rosa, blaise, vera)])
    for user in (blaise, vera):
        subscribe(user, f"{user.username}-phone")
    message = post(match, rosa, "public", "Bonjour à tous")
    post(match, rosa, [2], "Entre nous")
    assert flush(message.channel_id)
    assert not flush(Channel.objects.get(match=match, key="seats-1-2").pk)  # (one notice)
    french = "".join(text(mail) for mail in mailboxes.to(blaise.email)
                     if "Nouveaux messages" in str(mail.message["Subject"]))
    assert "Nouveaux messages dans Privé : Rouge (rosa)" in french
    assert "Nouveaux messages dans Public" in french
    assert "Rouge (rosa), " in french and "Red" not in french and "Private" not in french
    english = "".join(text(mail) for mail in mails(mailboxes, vera))
    assert "New messages in Public" in english and "Red (rosa), " in english
    assert [push.payload["body"] for push in push_service.to("blaise-phone")] == [
        "2 nouveaux messages dans 2 conversations."]
