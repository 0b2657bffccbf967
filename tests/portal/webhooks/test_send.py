"""Webhooks posted to a local chat service: each format's body, the generic signature checked
with the documented snippet, addresses checked again at send time, redirects not followed,
retries, a target turned off after repeated failures (with its notice), one post per event."""

from __future__ import annotations

import json
import socket
import time

import pytest

from competitions.services.clubs import club_create, club_join_by_token, club_match_create
from games.services import orders_submit
from portal import outbound
from portal.mail.models import OutgoingEmail
from portal.webhooks import notify, services
from portal.webhooks.models import WebhookDelivery, WebhookTarget
from tests.portal.special_addresses import SPECIAL_ADDRESSES, getaddrinfo_entry
from tests.portal.tls import StandIn
from tests.portal.webhooks.flush import flush

pytestmark = pytest.mark.django_db
DISCORD_ID = "123456789012345678"


@pytest.fixture
def duel(toy_duel):
    match = toy_duel(title="Duel @everyone **bold** <!channel> <b>x</b>")
    match.alice.profile.chat_handle, match.alice.profile.chat_mentions = DISCORD_ID, True
    match.alice.profile.save()
    return match


def your_move(match) -> int:
    return notify.phase_opened_webhooks(match_id=match.pk, phase_number=match.phase_number)


def test_discord_names_whose_move_it_is_and_pings_only_their_handle(receiver, hook, duel):
    hook("/discord", by=duel.alice, match=duel, format="discord")
    assert your_move(duel) == 1
    assert flush() == 1
    [post] = receiver.to("/discord")
    body = post.json
    assert body["allowed_mentions"] == {"parse": [], "users": [DISCORD_ID]}
    content = body["content"]
    assert f"<@{DISCORD_ID}>" in content and duel.bob.username in content
    # What users wrote cannot format the message (its mentions are off anyway).
    assert r"\@everyone \*\*bold\*\*" in content
    assert f"/matches/{duel.pk}/" in content or f"/{duel.pk}/" in content
    assert post.headers["Content-Type"] == "application/json"


def test_slack_escapes_what_users_wrote_and_mentions_a_member_id(receiver, hook, duel):
    duel.bob.profile.chat_handle, duel.bob.profile.chat_mentions = "U024BE7LH", True
    duel.bob.profile.save()
    hook("/slack", by=duel.alice, match=duel, format="slack")
    your_move(duel)
    flush()
    [post] = receiver.to("/slack")
    text = post.json["text"]
    assert post.json["mrkdwn"] is True
    assert "<@U024BE7LH>" in text
    assert "&lt;!channel&gt;" in text and "<!channel>" not in text
    assert duel.alice.username in text and DISCORD_ID not in text  # a Discord id: not here


def test_matrix_hookshot_gets_text_and_html_with_a_pill(receiver, hook, duel):
    duel.bob.profile.chat_handle = "@bob:matrix.example.org"
    duel.bob.profile.chat_mentions = True
    duel.bob.profile.save()
    hook("/matrix", by=duel.alice, match=duel, format="matrix")
    your_move(duel)
    flush()
    [post] = receiver.to("/matrix")
    body = post.json
    assert set(body) == {"text", "html", "username"}
    assert '<a href="https://matrix.to/#/@bob:matrix.example.org">' in body["html"]
    assert "&lt;b&gt;x&lt;/b&gt;" in body["html"] and "<b>x</b>" not in body["html"]
    assert "<b>x</b>" in body["text"]  # plain text is plain


def test_generic_posts_are_signed_and_pass_the_documented_verification(
        receiver, hook, duel):
    target = hook("/generic", by=duel.alice, match=duel, format="generic")
    your_move(duel)
    flush()
    [post] = receiver.to("/generic")
    assert post.verified is True
    body = post.json
    assert body["event"] == "your_move" and body["match"]["id"] == duel.pk
    assert {p["name"] for p in body["players"]} == {duel.alice.username, duel.bob.username}
    assert post.headers["X-Webhook-Event"] == "your_move"
    row = WebhookDelivery.objects.get()
    assert row.status == "sent" and post.headers["X-Webhook-Delivery"] == str(row.pk)
    # The same snippet refuses a replay, a tampered body and another secret.
    timestamp = int(post.headers["X-Webhook-Timestamp"])
    assert receiver.verify(target.secret, post.headers, post.body, now=timestamp + 299)
    assert not receiver.verify(target.secret, post.headers, post.body, now=timestamp + 301)
    assert not receiver.verify(target.secret, post.headers, post.body + b" ")
    assert not receiver.verify("0" * 64, post.headers, post.body)


def test_a_receiver_that_rejects_the_signature_fails_the_post(receiver, hook, duel):
    hook("/generic", by=duel.alice, match=duel, format="generic")
    receiver.secrets["/generic"] = "not-the-secret"
    your_move(duel)
    flush()
    assert receiver.to("/generic")[0].verified is False
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and row.response_status == 401


def test_messages_are_in_the_targets_language(receiver, hook, duel):
    hook("/fr", by=duel.alice, match=duel, format="generic", language="fr")
    your_move(duel)
    flush()
    assert receiver.to("/fr")[0].json["text"].startswith("À vous de jouer")


def test_a_message_holds_nothing_of_a_sealed_sheet(receiver, hook, toy_duel):
    match = toy_duel(title="Sealed")
    hook("/g", by=match.alice, match=match, format="generic")
    orders_submit(match_id=match.pk, seat_number=1, user=match.alice, source="web",
                  phase_number=match.phase_number, data={"number": 4})
    your_move(match)
    flush()
    [post] = receiver.to("/g")
    # Who must act (both seats: who has sent a sheet is not said), never what was sent.
    assert set(post.json) == {"event", "text", "url", "players", "match", "phase", "deadline"}
    assert len(post.json["players"]) == 2
    assert b"number" not in post.body


def test_the_same_event_posts_once(receiver, hook, duel):
    hook("/once", by=duel.alice, match=duel, format="slack")
    assert your_move(duel) == 1
    assert your_move(duel) == 0
    flush()
    flush()
    assert len(receiver.to("/once")) == 1
    assert WebhookDelivery.objects.count() == 1


def test_a_club_match_posts_to_the_club_and_to_the_match(receiver, hook, make_user):
    owner, member = make_user("owner"), make_user("member")
    club = club_create(by=owner, name="Tankers")
    club_join_by_token(token=club.invite_token, user=member)
    match = club_match_create(club_id=club.pk, by=owner, game="toy-duel", options={},
                              players=[owner, member], hours_per_phase=24)
    hook("/club", by=owner, club=club, format="discord")
    hook("/match", by=owner, match=match, format="discord")
    hook("/other-club", by=make_user("x"), club=club_create(by=make_user("y"), name="Other"))
    assert your_move(match) == 2
    flush()
    assert len(receiver.to("/club")) == len(receiver.to("/match")) == 1
    assert receiver.to("/other-club") == []


def test_a_redirect_is_not_followed(receiver, hook, duel):
    elsewhere = StandIn(status=204)
    try:
        receiver.answers["/moved"] = (302, {"Location": elsewhere.url("/steal")})
        hook("/moved", by=duel.alice, match=duel, format="slack")
        your_move(duel)
        flush()
        assert len(receiver.to("/moved")) == 1
        assert elsewhere.connections == 0
    finally:
        elsewhere.stop()
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and "redirect" in row.last_error


def test_a_name_that_now_resolves_inside_is_never_contacted(receiver, hook, duel,
                                                           monkeypatch):
    hook("/rebound", by=duel.alice, match=duel, format="slack")
    real = socket.getaddrinfo

    def inside(host, *args, **kwargs):
        if host == "localhost":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", args[0]))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", inside)
    your_move(duel)
    flush()
    assert receiver.to("/rebound") == []
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and "refused, never contacted" in row.last_error


@pytest.mark.parametrize("address", SPECIAL_ADDRESSES)
def test_a_name_that_now_resolves_to_a_special_purpose_address_is_never_contacted(
        receiver, hook, duel, monkeypatch, address):
    """The post's name now resolves to a special-purpose address. The connection, if the check
    let it through, is diverted to the local receiver (nothing here may reach such an address):
    a post arriving there is a post that would have gone inside."""
    hook("/special", by=duel.alice, match=duel, format="slack")
    monkeypatch.setattr(services, "target_policy", lambda: outbound.Policy(
        ports=frozenset({443, receiver.port}), allow_loopback=False))
    real_lookup, real_connect, asked = socket.getaddrinfo, outbound._connect, []

    def resolver(host, port, *args, **kwargs):
        if host == "localhost":
            return [getaddrinfo_entry(address, port)]
        return real_lookup(host, port, *args, **kwargs)

    def diverted(entries, timeout, options):
        asked.extend(entry[4][0] for entry in entries)
        return real_connect([(socket.AF_INET, socket.SOCK_STREAM, 6, "",
                              ("127.0.0.1", receiver.port))], timeout, options)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(outbound, "_connect", diverted)
    your_move(duel)
    flush()
    assert asked == [] and receiver.to("/special") == []
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and "refused, never contacted" in row.last_error


def test_a_target_is_turned_off_after_repeated_failures_with_a_notice(
        receiver, hook, toy_duel, settings, client):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 3
    receiver.answers["/down"] = (503, {"Retry-After": "1"})
    matches = [toy_duel() for _ in range(4)]
    first = matches[0]
    target = hook("/down", by=first.alice, match=first, format="discord")
    for match in matches[:3]:  # one target, three events
        WebhookTarget.objects.filter(pk=target.pk).update(match=match)
        your_move(match)
    flush()
    assert len(receiver.to("/down")) == 3
    target.refresh_from_db()
    assert target.disabled_at is not None and target.consecutive_failures == 3
    assert "HTTP 503" in target.disabled_reason
    [notice] = OutgoingEmail.objects.filter(to=first.alice.email)
    assert target.name in notice.subject and "3" in notice.body_text
    # Its next messages wait; the page says why and offers to turn it back on.
    WebhookTarget.objects.filter(pk=target.pk).update(match=matches[3])
    your_move(matches[3])
    WebhookDelivery.objects.update(next_attempt_at=None)
    flush()
    assert len(receiver.to("/down")) == 3
    client.force_login(matches[3].alice)
    WebhookTarget.objects.filter(pk=target.pk).update(created_by=matches[3].alice)
    page = client.get(f"/webhooks/matches/{matches[3].pk}/").content.decode()
    assert "after 3 failed posts in a row" in page and "HTTP 503" in page
    receiver.answers["/down"] = (204, {})
    assert client.post(f"/webhooks/{target.pk}/enable/").status_code == 200
    target.refresh_from_db()
    assert target.disabled_at is None and target.consecutive_failures == 0


def test_a_success_starts_the_count_again(receiver, hook, duel):
    target = hook("/flaky", by=duel.alice, match=duel, format="slack")
    WebhookTarget.objects.filter(pk=target.pk).update(consecutive_failures=5)
    your_move(duel)
    flush()
    target.refresh_from_db()
    assert target.consecutive_failures == 0 and target.last_sent_at is not None


def test_a_deleted_webhook_turns_the_target_off_at_once(receiver, hook, duel):
    receiver.answers["/gone"] = (404, {})
    target = hook("/gone", by=duel.alice, match=duel, format="discord")
    your_move(duel)
    flush()
    target.refresh_from_db()
    assert target.disabled_at is not None and "no longer exists" in target.disabled_reason
    assert OutgoingEmail.objects.filter(to=duel.alice.email).count() == 1


def test_a_signature_is_fresh_for_each_attempt(receiver, hook, duel):
    """A retried generic post is signed again: its timestamp is when it is sent."""
    from portal.webhooks.channel import headers_for

    target = hook("/g", by=duel.alice, match=duel, format="generic")
    your_move(duel)
    row = WebhookDelivery.objects.select_related("target").get()
    body = json.dumps(row.payload).encode()
    later = headers_for(row, body, time.time() + 3600)
    assert receiver.verify(target.secret, later, body, now=time.time() + 3600)
    assert not receiver.verify(target.secret, later, body)
