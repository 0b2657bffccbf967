"""The API's plans (docs/conditional-orders.md): read, set and clear my seat's plan, as JSON
or text; refusals in the API's error shape; nobody else's plan is ever shown."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import services
from games.models import ConditionalPlan, Phase
from portal.api.services import api_token_create
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db

PLAN = {"when": [{"seat": 1, "move": {"steps": [{"barrier": "e5-e6"}]}}],
        "play": {"steps": [{"barrier": "c3-c4"}]}, "then": []}


def api_client(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t').token}")


@pytest.fixture
def fs_match():
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="final-strategy", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    match.players = {1: ann, 2: ben}
    return match


def put(client, match, body):
    return client.put(f"/api/v1/matches/{match.pk}/plan", json.dumps(body),
                      content_type="application/json")


def test_my_plan_is_set_read_played_and_cleared(fs_match):
    ben = api_client(fs_match.players[2])
    answer = put(ben, fs_match, {"tree": [PLAN]})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["seat"] == 2 and body["tree"] == [PLAN] and body["after_phase"] == 1
    assert body["words"] == [{"depth": 0,
                              "text": "If Red plays “wall e5-e6”, play “wall c3-c4”."}]
    assert body["text"] == "if Red: wall e5-e6 then wall c3-c4"
    assert ben.get(f"/api/v1/matches/{fs_match.pk}/plan").json()["tree"] == [PLAN]
    ann = api_client(fs_match.players[1])
    sent = ann.post(f"/api/v1/matches/{fs_match.pk}/orders", json.dumps(
        {"phase_number": 1, "data": {"steps": [{"barrier": "e5-e6"}]}}),
        content_type="application/json")
    assert sent.status_code == 200
    assert Phase.objects.get(match=fs_match, number=2).revealed["2"]["source"] == "conditional"
    body = ben.get(f"/api/v1/matches/{fs_match.pk}/plan").json()
    assert body["tree"] == [] and body["played"] == 1 and body["notice"]["reason"] == "ended"
    assert put(ben, fs_match, {"text": "if Red: wall g7-g8 then wall b2-b3"}).status_code == 200
    cleared = ben.delete(f"/api/v1/matches/{fs_match.pk}/plan")
    assert cleared.status_code == 200 and cleared.json()["tree"] == []
    assert not ConditionalPlan.objects.exists()


def test_a_bad_plan_is_refused_in_the_apis_error_shape(fs_match):
    ben = api_client(fs_match.players[2])
    bad = put(ben, fs_match, {"tree": [{"when": [], "play": {"steps": [{"wall": 1}]}}]})
    assert bad.status_code == 400
    body = bad.json()
    assert body["code"] == "invalid" and body["problems"][0]["path"].startswith("0.play")
    both = put(ben, fs_match, {"tree": [PLAN], "text": "then wall c3-c4"})
    assert both.status_code == 400 and both.json()["code"] == "invalid"
    typed = put(ben, fs_match, {"text": "if Red: wall e5-e6 then sing"})
    assert typed.status_code == 400 and typed.json()["problems"][0]["path"] == "line 1"
    assert not ConditionalPlan.objects.exists()


def test_nobody_else_reads_or_changes_a_plan(fs_match):
    put(api_client(fs_match.players[2]), fs_match, {"tree": [PLAN]})
    ann = api_client(fs_match.players[1])
    mine = ann.get(f"/api/v1/matches/{fs_match.pk}/plan").json()
    assert mine["seat"] == 1 and mine["tree"] == []
    assert ann.delete(f"/api/v1/matches/{fs_match.pk}/plan").status_code == 200
    assert ConditionalPlan.objects.count() == 1  # (ann cleared her own, none)
    stranger = api_client(make_user("eve"))
    refused = stranger.get(f"/api/v1/matches/{fs_match.pk}/plan")
    assert refused.status_code in (403, 404) and "c3-c4" not in refused.content.decode()
    for path in ("", "/prompt"):
        seen = ann.get(f"/api/v1/matches/{fs_match.pk}{path}").content.decode()
        assert '"when"' not in seen and '"play"' not in seen and "plan" not in seen


def test_a_game_without_plans_says_so():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    refused = api_client(alice).get(f"/api/v1/matches/{match.pk}/plan")
    assert refused.status_code == 400 and refused.json()["code"] == "unsupported_phase"
