"""A seat that conceded is out of the match's conversations, as a forfeited one is: its player
reads the public channel only and sends nothing, on the page, the partial, the API and by
mail reply (issue 49, finding 5)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Seat
from games.services import match_create, seat_concede
from portal.api.services import api_token_create
from portal.chat.models import Channel, Message
from portal.mail import services as mail_services
from portal.mail.models import InboundMessage
from tests.helpers import client_for
from tests.portal.builders import make_user
from tests.portal.chat.builders import notice_flush, post
from tests.portal.mail.smtp import reply_to

SECRET = "BEFORE-CONCEDING-5e1b"
LATER = "AFTER-CONCEDING-77c0"


def strategy():
    """A three-seat Final Strategy match between ann, ben and cat (seats 1, 2, 3)."""
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    match = match_create(creator=players[0], game="final-strategy", options={},
                         hours_per_phase=24,
                         seats=[{"kind": "human", "user": user} for user in players])
    match.players = players
    return match


def flush(match) -> None:
    """Send the match's due notice as if its time had come."""
    notice_flush(match.pk)


def api_for(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t').token}")


@pytest.mark.django_db(transaction=True)
def test_a_player_who_conceded_reads_and_writes_the_public_channel_only(eager, mailboxes):
    match = strategy()
    ann, ben, cat = match.players
    post(match, ben, [3], SECRET)
    post(match, ann, "public", "PUBLIC-HELLO")
    flush(match)
    (notice,) = [d for d in mailboxes.to(cat.email) if SECRET in d.text]
    # Before conceding, cat reads the conversation (the check below can fail).
    base = f"/matches/{match.pk}"
    assert SECRET in client_for(cat).get(f"{base}/messages/?channel=seats-2-3").content.decode()

    seat_concede(match_id=match.pk, user=cat)
    assert Seat.objects.get(match=match, number=3).status == Seat.Status.CONCEDED
    post(match, ben, [3], LATER)

    page, partial = client_for(cat), client_for(cat)
    for path in (f"{base}/", f"{base}/messages/", f"{base}/messages/?channel=seats-2-3"):
        answer = page.get(path)
        body = answer.content.decode()
        assert SECRET not in body and LATER not in body, path
        body = partial.get(path, HTTP_HX_REQUEST="true").content.decode()
        assert SECRET not in body and LATER not in body, path
    assert page.get(f"{base}/messages/?channel=seats-2-3").status_code == 404
    assert "PUBLIC-HELLO" in page.get(f"{base}/messages/").content.decode()

    api = api_for(cat)
    answer = api.get(f"/api/v1/matches/{match.pk}/messages?channel=seats-2-3")
    assert answer.status_code == 404
    listing = api.get(f"/api/v1/matches/{match.pk}/messages")
    assert listing.status_code == 200
    assert SECRET not in listing.content.decode() and LATER not in listing.content.decode()
    for channel in ([1], [2], "seats-2-3", "public"):
        sent = api.post(f"/api/v1/matches/{match.pk}/messages",
                        {"channel": channel, "text": "STILL-WHISPERING"},
                        content_type="application/json")
        assert sent.status_code == 403, (channel, sent.content)
        assert "spectators read the public ones" in sent.json()["message"]
    sent = page.post(f"{base}/messages/send/", {"channel": "seats-2-3", "text": "STILL-WHISPERING"},
                     HTTP_HX_REQUEST="true")
    assert sent.status_code in (403, 404)

    # Her reply to the notice she had before is refused; nothing is posted.
    refused = mail_services.inbound_receive(
        raw=reply_to(notice, sender=cat.email, orders="STILL-WHISPERING"), source="pipe")
    assert refused.status == InboundMessage.Status.REFUSED
    assert not Message.objects.filter(text="STILL-WHISPERING").exists()
    # And she is told of nothing any more.
    flush(match)
    assert not any(LATER in d.text + d.html for d in mailboxes.to(cat.email))
    assert Channel.objects.filter(match=match, key="seats-2-3").exists()
