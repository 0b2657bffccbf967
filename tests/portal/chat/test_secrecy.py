"""No private or game-channel message ever reaches anyone outside its channel: on a page, a
partial, an e-mail, a push, an API answer or a log, as every role — anonymous, a spectator, a
player outside the channel, the players in it, a player who left the seat, a moderator (who
reads what everyone reads: a private message reaches moderators only as the evidence of a
report, in the admin's report queue, or once hidden, in its audit)."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client

from games.models import Match, Seat
from games.services import match_abort, orders_submit, seat_leave, seat_take
from portal.api.services import api_token_create
from portal.chat.models import Channel
from portal.mail import services as mail_services
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.push.models import PushMessage
from tests.helpers import client_for
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle, moderator, notice_flush, post
from tests.portal.mail.smtp import reply_to

PRIVATE = "PRIVATE-SECRET-7f3a"  # Ann to Ben
GAME = "HUDDLE-SECRET-2c9d"  # Ben in the huddle (seats 2 and 3 while it is seat 1's turn)
PUBLIC = "PUBLIC-WORDS-41d0"
# Who may read each secret: the players of its channel.
READERS = {PRIVATE: {"ann", "ben"}, GAME: {"ben", "cat"}}
AUTHORS = {PRIVATE: "ann", GAME: "ben"}  # (nobody is mailed their own message)
ROLES = ("anonymous", "spectator", "ann", "ben", "cat", "moderator")


def world():
    match = huddle()
    ann, ben, cat = match.players
    users = {"anonymous": None, "spectator": make_user("spectator"), "ann": ann, "ben": ben,
             "cat": cat, "moderator": moderator()}
    post(match, ann, "public", PUBLIC)
    post(match, ann, [2], PRIVATE)
    post(match, ben, "huddle", GAME)
    return match, users


def api_for(user) -> Client | None:
    if user is None:
        return None
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='s').token}")


def pages(match) -> list[str]:
    base = f"/matches/{match.pk}"
    return [f"{base}/", f"{base}/messages/", f"{base}/messages/?channel=public",
            f"{base}/messages/?channel=seats-1-2", f"{base}/messages/?channel=huddle",
            f"{base}/status/", f"{base}/history/", f"{base}/timeline/", f"{base}/notebook/",
            f"{base}/record.json", f"{base}/record.txt", "/", "/home/", "/matches/mine/",
            "/accounts/profile/"]


def api_paths(match) -> list[str]:
    base = f"/api/v1/matches/{match.pk}"
    return [base, f"{base}/messages", f"{base}/messages?channel=seats-1-2",
            f"{base}/messages?channel=huddle", f"{base}/record", "/api/v1/matches"]


# The admin pages a moderator reaches; a superuser's reach further (the mails, the pushes).
ADMIN = ["/admin/reports/report/?all=1", "/admin/chat/messagehide/", "/admin/games/match/"]
SUPERUSER_ADMIN = ["/admin/mail/outgoingemail/", "/admin/mail/inboundmessage/",
                   "/admin/push/pushmessage/"]


def seen(role: str, body: str) -> set[str]:
    return {secret for secret in READERS if secret in body}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_pages_partials_and_api_show_each_secret_to_its_channel_only(role):
    match, users = world()
    user = users[role]
    allowed = {secret for secret, readers in READERS.items() if role in readers}
    shown: set[str] = set()
    public = False
    for path in pages(match):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            body = client_for(user).get(path, **headers).content.decode()
            assert seen(role, body) <= allowed, (role, path)
            shown |= seen(role, body)
            public |= PUBLIC in body
    assert public  # everyone, spectators and visitors included, reads the public channel
    api = api_for(user)
    if api is not None:
        for path in api_paths(match):
            body = api.get(path).content.decode()
            assert seen(role, body) <= allowed, (role, path)
            shown |= seen(role, body)
    if role == "moderator":
        for path in ADMIN:
            answer = client_for(user).get(path)
            assert answer.status_code == 200, path
            assert seen(role, answer.content.decode()) == set(), path
    assert shown == allowed  # each reader does see it (the test can fail both ways)


@pytest.mark.django_db(transaction=True)
def test_mails_pushes_and_logs_carry_each_secret_to_its_channel_only(
        eager, mailboxes, push_service, subscribe, caplog):
    caplog.set_level(logging.DEBUG)
    match, users = world()
    players = {name: users[name] for name in ("ann", "ben", "cat")}
    for name, user in players.items():
        subscribe(user, f"{name}-phone")
    subscribe(users["spectator"], "spectator-phone")
    assert notice_flush(match.pk)  # (one notice for all the match's channels)
    for name, user in {**players, "spectator": users["spectator"],
                       "moderator": users["moderator"]}.items():
        allowed = {secret for secret, readers in READERS.items()
                   if name in readers and AUTHORS[secret] != name}
        text = "".join(d.text + d.html for d in mailboxes.to(user.email))
        assert seen(name, text) == allowed, name
        for push in push_service.to(f"{name}-phone"):
            assert seen(name, json.dumps(push.payload)) == set()  # no push tells a message
    assert push_service.to("ben-phone") and push_service.to("spectator-phone") == []
    rows = OutgoingEmail.objects.filter(kind="message")
    for row in rows:
        allowed = {secret for secret, readers in READERS.items()
                   if row.user.username in readers}
        assert seen("", row.subject + row.body_text + row.body_html) <= allowed
    assert not any(PRIVATE in str(row.payload) or GAME in str(row.payload)
                   for row in PushMessage.objects.all())
    logged = "\n".join(f"{record.getMessage()} {record.args!r}" for record in caplog.records)
    assert seen("log", logged) == set()
    assert logged  # (the log was captured)
    superuser = make_user("root-admin", staff=True)
    superuser.is_superuser = True
    superuser.save()
    admin = client_for(superuser)
    for path in SUPERUSER_ADMIN + [f"/admin/mail/outgoingemail/{row.pk}/change/" for row in rows]:
        answer = admin.get(path)
        assert answer.status_code == 200 and seen("admin", answer.content.decode()) == set()


@pytest.mark.django_db
def test_after_the_end_private_messages_are_revealed_only_if_the_match_says_so():
    for reveal in (False, True):
        match = huddle(names=(f"a{reveal}", f"b{reveal}", f"c{reveal}"), reveal_private=reveal)
        ann, _ben, cat = match.players
        post(match, ann, [2], PRIVATE)
        # Play to the end: 3 + 3 + 3 + 3 reaches the target of 10 on seat 1's second turn.
        for phase, seat in enumerate((1, 2, 3, 1), start=1):
            orders_submit(match_id=match.pk, seat_number=seat, user=match.players[seat - 1],
                          phase_number=phase, data={"add": 3}, source="web")
        assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
        for path in (f"/matches/{match.pk}/record.json", f"/matches/{match.pk}/record.txt",
                     f"/matches/{match.pk}/history/", f"/api/v1/matches/{match.pk}/record"):
            client = client_for(ann) if not path.startswith("/api") else api_for(ann)
            assert PRIVATE not in client.get(path).content.decode(), path  # records: never
        for user in (cat, make_user(f"late-watcher-{reveal}"), None):
            body = client_for(user).get(f"/matches/{match.pk}/messages/?channel=seats-1-2")
            assert (PRIVATE in body.content.decode()) == reveal
    aborted = huddle(names=("x1", "x2", "x3"))
    post(aborted, aborted.players[0], [2], PRIVATE)
    match_abort(match_id=aborted.pk, by=aborted.players[0], note="stop")
    answer = client_for(aborted.players[2]).get(f"/matches/{aborted.pk}/messages/"
                                                "?channel=seats-1-2")
    assert answer.status_code == 404 and PRIVATE not in answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_seats_conversations_go_with_the_seat_not_with_the_player_who_left_it(
        eager, mailboxes):
    """A player who leaves a seat is outside its channels from then on: no page, API answer,
    mail or reply of theirs reaches them; whoever takes the seat over reads them."""
    match = huddle(autopilot=False)
    ann, ben, _cat = match.players
    first = post(match, ann, [2], PRIVATE)
    channel = Channel.objects.get(pk=first.channel_id)
    assert notice_flush(match.pk)
    (notice,) = [d for d in mailboxes.to(ben.email) if PRIVATE in d.text]
    seat_leave(match_id=match.pk, user=ben)
    post(match, ann, [2], "AFTER-HE-LEFT")

    base = f"/matches/{match.pk}"
    for path in (f"{base}/", f"{base}/messages/", f"{base}/messages/?channel=seats-1-2"):
        body = client_for(ben).get(path, HTTP_HX_REQUEST="true").content.decode()
        assert PRIVATE not in body and "AFTER-HE-LEFT" not in body, path
    for path in (f"/api/v1/matches/{match.pk}/messages",
                 f"/api/v1/matches/{match.pk}/messages?channel=seats-1-2"):
        body = api_for(ben).get(path).content.decode()
        assert PRIVATE not in body and "AFTER-HE-LEFT" not in body, path
    # His reply to the notice he had is refused; nothing is posted.
    refused = mail_services.inbound_receive(
        raw=reply_to(notice, sender=ben.email, orders="Still here?"), source="pipe")
    assert refused.status == InboundMessage.Status.REFUSED
    assert not channel.messages.filter(text="Still here?").exists()
    channel.refresh_from_db()
    assert notice_flush(match.pk)
    assert not any("AFTER-HE-LEFT" in d.text + d.html for d in mailboxes.to(ben.email))

    # Dan takes the seat through its link: the conversation is his to read, and to be told of.
    dan = make_user("dan")
    seat_take(token=Seat.objects.get(match=match, number=2).offer_token, user=dan)
    body = client_for(dan).get(f"{base}/messages/?channel=seats-1-2").content.decode()
    assert PRIVATE in body and "AFTER-HE-LEFT" in body
    post(match, ann, [2], "FOR-THE-NEWCOMER")
    channel.refresh_from_db()
    assert notice_flush(match.pk)
    assert any("FOR-THE-NEWCOMER" in d.text for d in mailboxes.to(dan.email))
    assert not any("FOR-THE-NEWCOMER" in d.text + d.html for d in mailboxes.to(ben.email))
