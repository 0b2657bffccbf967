"""Panzer Squadron's "Plan ahead" panel and API (docs/conditional-orders.md): a whole
activation planned in the order grammar, shown in words, in French too; played from the page's
plan; never shown to the other seat, a spectator, a moderator or a timeline."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import ConditionalPlan, Submission
from portal.api.services import api_token_create
from tests.helpers import as_moderator, client_for, submit
from tests.portal.builders import duel, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

PLAN = "if South: activate M1 move; path f2 12, f3 12 then activate L4 ambush"
WORDS = ("If South plays “activate M1 move; path f2 12, f3 12; end stopped”, play "
         "“activate L4 ambush”.")
HOLD = {"mode": "hold", "max_range": None}


@pytest.fixture
def match():
    ann, ben = make_user("ann"), make_user("ben")
    m = duel(ann, ben, game="panzer-squadron", options={"dice": [3] + [1] * 20},
             is_public=True)
    m.players = {1: ann, 2: ben}
    services.orders_submit(  # North holds its fire: no reaction spends L4's activation
        match_id=m.pk, seat_number=2, user=ben, phase_number=1, source="web",
        data={"reactions": {name: HOLD for name in ("H2", "L3", "L4", "M3", "M4")}})
    return m


def page(client, match) -> str:
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def save(client, match, text, **headers):
    return client.post(reverse("games:plan_save", args=[match.pk, 2]), {"plan": text},
                       **headers)


def south_moves(match):
    submit(match, match.players[1], 1, data={"activate": "M1", "action": "move"})
    submit(match, match.players[1], 1, data={
        "path": [{"move": "f2", "face": 12}, {"move": "f3", "face": 12}], "target": None,
        "end": "stopped"})


def test_a_planned_activation_is_written_shown_in_words_and_played(match):
    ben = client_for(match.players[2])
    shown = page(ben, match)
    assert 'id="plan"' in shown and 'id="plan-example"' in shown
    assert "a whole activation on one line" in shown
    assert save(ben, match, PLAN).status_code == 302
    assert WORDS in page(ben, match)
    south_moves(match)
    match.refresh_from_db()
    assert match.state["to_move"] == 1 and match.phase_number == 4
    assert Submission.objects.get(phase__match=match, phase__number=3).source == "conditional"
    assert "The last move of your plan was played in phase 3." in page(ben, match)


def test_a_planned_move_without_its_path_is_refused_with_a_sentence(match):
    ben = client_for(match.players[2])
    refused = save(ben, match, "if South: activate M1 move then activate L4 ambush",
                   HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "A move names its path" in refused.content.decode()
    assert not ConditionalPlan.objects.exists()


def test_only_the_seats_player_sees_the_plan(match):
    save(client_for(match.players[2]), match, PLAN)
    secret = "activate L4 ambush"
    ann = client_for(match.players[1])
    moderator = client_for(as_moderator(make_user("mod")))
    for client in (ann, client_for(None), moderator):
        shown = page(client, match)
        assert secret not in shown
        assert client is ann or 'id="plan"' not in shown
    assert ann.post(reverse("games:plan_clear", args=[match.pk, 2])).status_code == 403
    timeline = moderator.get(reverse("timeline:timeline", args=[match.pk])).content.decode()
    assert secret not in timeline
    south_moves(match)  # played: to the others a move like any other
    for client in (ann, client_for(None), moderator):
        shown = page(client, match)
        assert "conditional" not in shown and "f3 12 then" not in shown


def test_the_panel_speaks_french(match):
    ben = client_for(match.players[2], HTTP_ACCEPT_LANGUAGE="fr")
    save(ben, match, "si Sud : activate M1 move; path f2 12, f3 12 alors activate L4 ambush")
    with translation.override("fr"):
        shown = page(ben, match)
    assert "Prévoir ses coups" in shown and "une activation entière sur une ligne" in shown
    assert "Si Sud joue « activate M1 move; path f2 12, f3 12; end stopped »" in shown


def test_the_api_sets_reads_and_clears_the_plan(match):
    token = api_token_create(user=match.players[2], name="t").token
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    url = f"/api/v1/matches/{match.pk}/plan"
    answer = api.put(url, json.dumps({"text": PLAN}), content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["words"] == [{"depth": 0, "text": WORDS}]
    assert answer.json()["tree"][0]["play"] == {"activate": "L4", "action": "ambush"}
    wrong = api.put(url, json.dumps({"tree": [{"when": [], "play": {"activate": "H2",
                                                                     "action": "move"}}]}),
                    content_type="application/json")
    assert wrong.status_code == 400 and "0.play.path" in wrong.content.decode()
    other = Client(HTTP_AUTHORIZATION="Bearer " + api_token_create(
        user=match.players[1], name="t").token)
    assert "L4" not in other.get(url).content.decode()
    assert api.delete(url).status_code in (200, 204)
    assert not ConditionalPlan.objects.exclude(tree=[]).exists()
