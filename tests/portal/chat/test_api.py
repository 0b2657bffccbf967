"""The messages in the JSON API: GET and POST /api/v1/matches/{id}/messages, as every role's
token, with the API's refusals (403 gunboat, 404 a channel one may not read, 429 a seat over
its rate limit, 422 a body the schema refuses)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Match
from portal.api.services import api_token_create
from portal.chat.models import Message
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle, moderator, post

pytestmark = pytest.mark.django_db


def api(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t').token}")


def send(client, match, channel, text="hello"):
    return client.post(f"/api/v1/matches/{match.pk}/messages",
                       json.dumps({"channel": channel, "text": text}),
                       content_type="application/json")


def test_a_message_sent_by_the_api_is_answered_with_its_id_channel_and_time():
    match = huddle()
    ann, ben, cat = match.players
    answer = send(api(ann), match, [2], "Ann to Ben")
    assert answer.status_code == 201, answer.content
    sent = json.loads(answer.content)
    assert sent["channel"] == [1, 2] and sent["text"] == "Ann to Ben" and sent["seat"] == 1
    message = Message.objects.get()
    assert sent["id"] == message.pk and sent["at"].startswith(str(message.created_at.date()))
    assert message.source == "api"
    public = json.loads(send(api(ben), match, "public", "to all").content)
    assert public["channel"] == "public"
    game = json.loads(send(api(cat), match, "huddle", "huddling").content)
    assert game["channel"] == "huddle"

    read = json.loads(api(ben).get(f"/api/v1/matches/{match.pk}/messages").content)
    assert [m["text"] for m in read["messages"]] == ["Ann to Ben", "to all", "huddling"]
    assert {json.dumps(c["channel"]): c["unread"] for c in read["channels"]} == {
        '"public"': 0, '"huddle"': 1, "[1, 2]": 1}
    after = json.loads(api(ben).get(f"/api/v1/matches/{match.pk}/messages?after={sent['id']}"
                                    ).content)
    assert [m["text"] for m in after["messages"]] == ["to all", "huddling"]
    one = json.loads(api(ben).get(f"/api/v1/matches/{match.pk}/messages?channel=seats-1-2"
                                  ).content)
    assert [m["text"] for m in one["messages"]] == ["Ann to Ben"]


def test_outsiders_read_only_the_public_channel_through_the_api():
    match = huddle()
    ann = match.players[0]
    post(match, ann, [2], "API-SECRET")
    post(match, ann, "public", "open")
    for user in (match.players[2], make_user("watcher"), moderator()):
        answer = api(user).get(f"/api/v1/matches/{match.pk}/messages")
        assert answer.status_code == 200 and b"API-SECRET" not in answer.content
        assert [m["text"] for m in json.loads(answer.content)["messages"]] == ["open"]
        refused = api(user).get(f"/api/v1/matches/{match.pk}/messages?channel=seats-1-2")
        assert refused.status_code == 404 and b"API-SECRET" not in refused.content
    assert Client().get(f"/api/v1/matches/{match.pk}/messages").status_code == 401


def test_the_api_refuses_with_the_pages_reasons_and_status_codes(settings):
    settings.CHAT_MESSAGES_PER_MINUTE = 2
    gunboat = huddle(names=("g1", "g2", "g3"), press=Match.Press.NONE)
    refused = send(api(gunboat.players[0]), gunboat, "public")
    assert refused.status_code == 403
    assert json.loads(refused.content)["code"] == "no_press"
    assert "gunboat" in json.loads(refused.content)["message"]

    match = huddle()
    client = api(match.players[0])
    assert send(client, match, "public", "").status_code == 400
    assert send(client, match, "public", "x" * 2001).status_code == 400
    assert send(client, match, [7]).status_code == 400
    assert send(client, match, "huddle").status_code == 403  # seat 1's turn: not in it
    assert send(api(make_user("watcher")), match, "public").status_code == 403
    bad = client.post(f"/api/v1/matches/{match.pk}/messages", "{}",
                      content_type="application/json")
    assert bad.status_code == 422
    assert send(client, match, "public", "one").status_code == 201
    assert send(client, match, "public", "two").status_code == 201
    limited = send(client, match, "public", "three")
    assert limited.status_code == 429 and json.loads(limited.content)["code"] == "rate_limited"
    assert Message.objects.count() == 2

    private = huddle(names=("p1", "p2", "p3"), is_public=False)
    assert send(api(make_user("stranger")), private, "public").status_code == 404
