"""Panzer Squadron's branch builder on the board (docs/conditional-orders.md), its server side:
the builder is on the panel of a seat's own player (in French too), drawn from that seat's view;
an activation being built is checked through the generic endpoint for its shape and told in
words (stores nothing); a branch is added at the top or under a line and is the plan the same
words typed would store; another seat gets a 403, bad input a 400 with a sentence. (The board
itself, in Chromium: ``test_plan_board_browser.py``.)"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import ConditionalPlan
from tests.helpers import client_for
from tests.portal.builders import duel, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

SOUTH = {"activate": "M1", "action": "move",
         "path": [{"move": "f2", "face": 12}, {"move": "f3", "face": 12}], "target": None,
         "end": "stopped"}
REPLY = {"activate": "L4", "action": "ambush"}
TYPED = "if South: activate M1 move; path f2 12, f3 12 then activate L4 ambush"
HOLD = {"mode": "hold", "max_range": None}


@pytest.fixture
def match():
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    m = duel(ann, ben, game="panzer-squadron", options={"dice": [3] + [1] * 20},
             is_public=True)
    m.players = {1: ann, 2: ben, 3: cat}
    services.orders_submit(
        match_id=m.pk, seat_number=2, user=ben, phase_number=1, source="web",
        data={"reactions": {name: HOLD for name in ("H2", "L3", "L4", "M3", "M4")}})
    return m


def check(client, match, seat, when, play):
    return client.post(reverse("games:plan_branch_check", args=[match.pk, seat]),
                       {"when": json.dumps(when), "play": json.dumps(play)})


def add(client, match, seat, branch, under="", **headers):
    return client.post(reverse("games:plan_branch_add", args=[match.pk, seat]),
                       {"branch": json.dumps(branch), "under": under}, **headers)


def test_the_builder_is_on_the_panel_of_its_seat_only(match):
    url = reverse("games:match", args=[match.pk])
    mine = client_for(match.players[2]).get(url).content.decode()
    builder = mine[mine.index('id="ps-plan-builder"'):]
    builder = builder[:builder.index("</section>")]
    assert "South’s activation" in builder and "your reply" in builder
    assert reverse("games:plan_branch_check", args=[match.pk, 2]) in builder
    assert 'data-to-move="1"' in builder
    # Every hex may be chosen, the keyboard has one tab stop; the tanks of both sides listed.
    assert 'aria-disabled' not in builder and builder.count('tabindex="0"') == 1
    assert 'value="M1" data-seat="1"' in builder and 'value="L4" data-seat="2"' in builder
    # Drawn from the seat's own view: nothing the page's board does not show (no reaction).
    assert "hold" not in builder.lower()
    assert 'id="ps-plan-builder"' not in client_for(None).get(url).content.decode()
    assert 'id="ps-plan-builder"' not in client_for(match.players[3]).get(
        url).content.decode()
    with translation.override("fr"):
        french = client_for(match.players[2], HTTP_ACCEPT_LANGUAGE="fr").get(url)
    assert "Construire une branche sur le plateau" in french.content.decode()
    assert "Activation de Sud" in french.content.decode()


def test_an_activation_being_built_is_checked_and_told_in_words(match):
    ben = client_for(match.players[2])
    so_far = check(ben, match, 2, [{"seat": 1, "move": SOUTH}], None)
    assert so_far.status_code == 200, so_far.content
    assert so_far.json()["moves"] == ["activate M1 move; path f2 12, f3 12; end stopped"]
    whole = check(ben, match, 2, [{"seat": 1, "move": SOUTH}], REPLY).json()
    assert whole["sentence"] == ("If South plays “activate M1 move; path f2 12, f3 12; end "
                                 "stopped”, play “activate L4 ambush”.")
    assert whole["play_text"] == "activate L4 ambush"
    assert check(client_for(match.players[1]), match, 2, [], REPLY).status_code == 403
    assert not ConditionalPlan.objects.exists()  # nothing stored


def test_bad_input_is_a_400_with_a_sentence(match):
    ben = client_for(match.players[2])
    pathless = check(ben, match, 2, [], {"activate": "M1", "action": "move"})
    assert pathless.status_code == 400
    assert "A move names its path" in pathless.json()["problems"][0]["message"]
    not_a_hex = check(ben, match, 2, [], {"activate": "L4", "action": "fire", "target": "zz"})
    assert not_a_hex.status_code == 400 and "is not a hex" in not_a_hex.json()["problems"][0][
        "message"]
    own = check(ben, match, 2, [{"seat": 2, "move": REPLY}], REPLY)
    assert own.status_code == 400 and own.json()["problems"][0]["path"] == "when.0"
    garbled = ben.post(reverse("games:plan_branch_add", args=[match.pk, 2]),
                       {"branch": "{not json", "under": ""}, HTTP_HX_REQUEST="true")
    assert garbled.status_code == 400 and "reload the page" in garbled.content.decode()
    wrong = add(ben, match, 2, {"when": [], "play": {"activate": "L4", "action": "fly"}},
                HTTP_HX_REQUEST="true")
    assert wrong.status_code == 400 and "The action is one of" in wrong.content.decode()
    assert not ConditionalPlan.objects.exists()


def test_a_branch_added_is_the_plan_typed_and_another_seat_gets_a_403(match):
    ben = client_for(match.players[2])
    answer = add(ben, match, 2, {"when": [{"seat": 1, "move": SOUTH}], "play": REPLY},
                 HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "The branch is added to your plan." in answer.content.decode()
    built = ConditionalPlan.objects.get().tree
    assert add(client_for(match.players[1]), match, 2,
               {"when": [], "play": REPLY}).status_code == 403
    under = {"when": [{"seat": 1, "move": {"activate": "H1", "action": "ambush"}}],
             "play": {"activate": "L3", "action": "fire", "target": "E7"}}
    assert add(ben, match, 2, under, under="0").status_code == 302
    plan = ConditionalPlan.objects.get()
    assert plan.tree[0]["then"][0]["play"] == {"activate": "L3", "action": "fire",
                                               "target": "e7"}
    page = ben.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'value="0.0"' in page  # each line may take a branch under it
    ConditionalPlan.objects.all().delete()
    assert ben.post(reverse("games:plan_save", args=[match.pk, 2]),
                    {"plan": TYPED}).status_code == 302
    assert ConditionalPlan.objects.get().tree == built
