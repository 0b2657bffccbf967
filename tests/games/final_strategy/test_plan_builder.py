"""The plan's branch builder on the board (docs/conditional-orders.md), its server side: the
builder is on the panel of a seat's own player (in French too), a branch being built is
checked for its shape and told in words (stores nothing), a branch is added at the top or
under a line (the plan still counted from its phase), and bad input is a 4xx with a sentence.
(The board itself, in Chromium: ``test_plan_board_browser.py``.)"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import ConditionalPlan
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

WALL = {"steps": [{"barrier": "e5-e6"}]}
REPLY = {"steps": [{"barrier": "c3-c4"}]}


@pytest.fixture
def fs_match(make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat")]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=12, is_public=True,
                                  seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def check(client, match, seat, when, play):
    return client.post(reverse("games:plan_branch_check", args=[match.pk, seat]),
                       {"when": json.dumps(when), "play": json.dumps(play)})


def add(client, match, seat, branch, under="", **headers):
    return client.post(reverse("games:plan_branch_add", args=[match.pk, seat]),
                       {"branch": json.dumps(branch), "under": under}, **headers)


def test_the_builder_is_on_the_panel_of_its_seat_only(fs_match):
    url = reverse("games:match", args=[fs_match.pk])
    mine = client_for(fs_match.players[2]).get(url).content.decode()
    assert 'id="fs-plan-builder"' in mine and "Red’s move" in mine and "Green’s move" in mine
    assert reverse("games:plan_branch_check", args=[fs_match.pk, 2]) in mine
    # The seats in the order they play after Blue (Green, then Red); Red is to move now.
    who = mine[mine.index('class="fs-plan-who"'):]
    assert who.index("Green’s move") < who.index("Red’s move") < who.index("your reply")
    assert 'data-to-move="1"' in mine
    assert 'id="fs-plan-builder"' not in client_for(None).get(url).content.decode()
    with translation.override("fr"):
        french = client_for(fs_match.players[2], HTTP_ACCEPT_LANGUAGE="fr").get(url)
    assert "Construire une branche sur le plateau" in french.content.decode()


def test_a_branch_being_built_is_checked_for_its_shape_and_told_in_words(fs_match):
    ben = client_for(fs_match.players[2])
    so_far = check(ben, fs_match, 2, [{"seat": 1, "move": WALL}], None)
    assert so_far.status_code == 200
    assert so_far.json()["moves"] == ["wall e5-e6"] and so_far.json()["sentence"] == ""
    whole = check(ben, fs_match, 2, [{"seat": 1, "move": WALL}], REPLY).json()
    assert whole["sentence"] == "If Red plays “wall e5-e6”, play “wall c3-c4”."
    assert whole["play_text"] == "wall c3-c4"
    bad = check(ben, fs_match, 2, [{"seat": 2, "move": WALL}], REPLY)
    assert bad.status_code == 400 and bad.json()["problems"][0]["path"] == "when.0"
    shapeless = check(ben, fs_match, 2, [], {"steps": [{"fly": "e5"}]})
    assert shapeless.status_code == 400 and shapeless.json()["problems"][0]["message"]
    assert check(client_for(fs_match.players[3]), fs_match, 2, [], REPLY).status_code == 403
    assert not ConditionalPlan.objects.exists()  # nothing stored


def test_a_branch_is_added_at_the_top_or_under_a_line(fs_match):
    ben = client_for(fs_match.players[2])
    answer = add(ben, fs_match, 2, {"when": [{"seat": 1, "move": WALL}], "play": REPLY},
                 HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "The branch is added to your plan." in answer.content.decode()
    under = {"when": [{"seat": 3, "move": {"steps": [{"barrier": "g7-g8"}]}},
                      {"seat": 1, "move": {"steps": [{"barrier": "h2-h3"}]}}],
             "play": {"steps": [{"barrier": "b2-b3"}]}}
    assert add(ben, fs_match, 2, under, under="0").status_code == 302
    plan = ConditionalPlan.objects.get()
    assert plan.tree[0]["then"][0]["play"] == {"steps": [{"barrier": "b2-b3"}]}
    assert [w["seat"] for w in plan.tree[0]["then"][0]["when"]] == [3, 1]
    assert plan.after_phase == 1
    page = client_for(fs_match.players[2]).get(
        reverse("games:match", args=[fs_match.pk])).content.decode()
    assert 'value="0.0"' in page  # each line may take a branch under it


def test_a_bad_branch_is_refused_with_a_sentence(fs_match):
    ben = client_for(fs_match.players[2])
    nowhere = add(ben, fs_match, 2, {"when": [], "play": REPLY}, under="3",
                  HTTP_HX_REQUEST="true")
    assert nowhere.status_code == 400
    assert "no such line to add a branch under" in nowhere.content.decode()
    garbled = ben.post(reverse("games:plan_branch_add", args=[fs_match.pk, 2]),
                       {"branch": "{not json", "under": ""}, HTTP_HX_REQUEST="true")
    assert garbled.status_code == 400 and "reload the page" in garbled.content.decode()
    add(ben, fs_match, 2, {"when": [], "play": REPLY})
    twice = add(ben, fs_match, 2, {"when": [], "play": WALL}, HTTP_HX_REQUEST="true")
    assert twice.status_code == 400 and "same condition" in twice.content.decode()
    theirs = add(client_for(fs_match.players[3]), fs_match, 2, {"when": [], "play": REPLY})
    assert theirs.status_code == 403
    assert len(ConditionalPlan.objects.get().tree) == 1
