"""Panzer Squadron on the pages: the SVG board, the two-step activation through the panels,
the standing reactions (secret: only their author sees them), refusals with 4xx and no
leaks; the rules page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games.models import Match
from tests.helpers import client_for
from tests.portal.builders import PASSWORD, duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

GAME = engine.get("panzer-squadron")
SECRET = {"mode_L3": "side-rear", "max_L3": "7"}


@pytest.fixture
def match():
    alice, bob = make_user("alice"), make_user("bob")
    # the move die, then every opportunity shot misses (no seeded luck in these tests)
    m = duel(alice, bob, game="panzer-squadron", options={"dice": [3] + [1] * 20})
    m.players = {1: alice, 2: bob}
    return m


def url(match, name):
    return reverse(f"games:{name}", args=[match.pk])


def page(client, match):
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def field(html):
    """The page without the plan's branch builder (a board of its own: its own tab stop)."""
    return html.split('id="ps-plan-builder"')[0]


def test_the_match_page_draws_the_hex_board_and_the_activation_panel(match):
    html = page(client_for(match.players[1]), match)
    assert 'class="ps-board' in html and field(html).count('class="ps-hex') == 15 * 11
    assert 'id="ps-plan-builder"' in html  # the plan's board, after the page's
    assert 'data-tank="M1"' in html and 'id="ps-activation"' in html
    html2 = page(client_for(match.players[2]), match)
    assert "rotate(180" in html2 and 'id="ps-activation"' not in html2


def test_the_panels_carry_the_csrf_token(match):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(match.players[2])
    html = page(strict, match)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token and html.count("csrfmiddlewaretoken") >= 2  # text orders + reactions
    response = strict.post(url(match, "ps_reactions"), {
        "mode_L3": "hold", "phase_number": match.phase_number,
        "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302


def test_the_two_step_activation_through_the_panels(match):
    alice = client_for(match.players[1])
    phase = Match.objects.get(pk=match.pk).phase_number
    response = alice.post(url(match, "ps_activate"), {"choice": "M1 move",
                                                      "phase_number": phase})
    assert response.status_code == 302
    m = Match.objects.get(pk=match.pk)
    assert m.state["pending"] == {"tank": "M1", "action": "move", "dice": [3], "points": 2}
    html = page(alice, m)
    assert "the dice show" in html and "2 movement points" in html and "ps-reach" in html
    # each reachable hex is a button carrying its cheapest path (Enter fills the form); the
    # board is one tab stop (roving tabindex: the arrow keys move between hexes)
    assert re.search(r'data-hex="f2" data-path="f2 (10|12)" data-col="\d+" data-row="\d+" '
                     r'tabindex="(0|-1)" role="button"', html)
    assert len(re.findall(r'class="ps-hex[^"]*"[^>]*tabindex="0"', field(html))) == 1
    response = alice.post(url(match, "ps_path"), {"path": "f2 12, f3 12", "end": "moving",
                                                  "phase_number": m.phase_number})
    assert response.status_code == 302, response.content.decode()[:500]
    m = Match.objects.get(pk=match.pk)
    tank = next(t for t in m.state["tanks"] if t["name"] == "M1")
    assert (tank["at"], tank["state"], m.state["to_move"]) == ("f3", "moving", 2)
    assert "M1 rolls 3: 2 movement points." in page(client_for(match.players[2]), m)


@pytest.mark.parametrize("post,status", [
    ({"choice": "M1 fly"}, 400),
    ({"choice": "ZZ move"}, 400),
    ({"choice": "M1 fire x99"}, 400),
    ({"choice": "a b c d"}, 400),
    ({"choice": "L3 move"}, 400),
    ({}, 400),
])
def test_bad_activations_are_refused(match, post, status):
    alice = client_for(match.players[1])
    before = Match.objects.get(pk=match.pk).state
    response = alice.post(url(match, "ps_activate"), {**post, "phase_number": match.phase_number})
    assert response.status_code == status
    assert Match.objects.get(pk=match.pk).state == before


def test_out_of_turn_and_outsiders_are_refused(match):
    bob = client_for(match.players[2])
    response = bob.post(url(match, "ps_activate"), {"choice": "L3 move",
                                                    "phase_number": match.phase_number})
    assert response.status_code == 409
    stranger = client_for(make_user("carol"))
    response = stranger.post(url(match, "ps_reactions"), {**SECRET,
                                                          "phase_number": match.phase_number})
    assert response.status_code == 403
    anonymous = Client()
    response = anonymous.post(url(match, "ps_reactions"), SECRET)
    assert response.status_code == 302 and "login" in response["Location"]
    assert Client().get(url(match, "ps_activate")).status_code in (302, 405)


def test_a_bad_path_is_refused_and_changes_nothing(match):
    alice = client_for(match.players[1])
    alice.post(url(match, "ps_activate"), {"choice": "M1 move", "phase_number": 1})
    m = Match.objects.get(pk=match.pk)
    for path in ("f2 12, f3 12, f4 12", "zz", "f2 7"):
        response = alice.post(url(match, "ps_path"), {"path": path, "phase_number":
                                                      m.phase_number})
        assert response.status_code == 400, path
    assert Match.objects.get(pk=match.pk).state == m.state


def test_standing_reactions_are_seen_only_by_their_author(match):
    """Secret like a sealed sheet: bob's reaction shows on bob's page, on nobody else's."""
    bob = client_for(match.players[2])
    response = bob.post(url(match, "ps_reactions"), {**SECRET,
                                                     "phase_number": match.phase_number})
    assert response.status_code == 302
    m = Match.objects.get(pk=match.pk)
    assert m.state["reactions"]["L3"] == {"mode": "side-rear", "max_range": 7}
    assert m.phase_number == match.phase_number
    mine = page(bob, m)
    assert 'name="max_L3"' in mine and 'value="7"' in mine
    for viewer in (match.players[1], make_user("carol"), None):
        html = page(client_for(viewer), m)
        assert 'name="max_L3"' not in html and 'value="side-rear" selected' not in html
        # (the report form names the match by its id, which may be 7 too)
        others = html.replace(f'name="match" value="{m.pk}"', "")
        assert 'value="7"' not in others and "max 7" not in html
    bad = bob.post(url(match, "ps_reactions"), {"mode_L3": "often",
                                                "phase_number": m.phase_number})
    assert bad.status_code == 400
    bad = bob.post(url(match, "ps_reactions"), {"mode_L3": "hold", "max_L3": "x",
                                                "phase_number": m.phase_number})
    assert bad.status_code == 400


def test_the_guard_hides_these_urls_for_other_games():
    alice, bob = make_user("ann"), make_user("ben")
    other = duel(alice, bob, game="final-act")
    response = client_for(alice).post(reverse("games:ps_activate", args=[other.pk]),
                                      {"choice": "M1 move", "phase_number": 1})
    assert response.status_code == 404


def test_the_rules_page_has_its_diagrams():
    html = Client().get("/games/panzer-squadron/rules/").content.decode()
    assert html.count("<svg") == 3 and "completion" in html and "ps-lof" in html


def test_the_replay_steps_through_the_phases_with_their_dice(match):
    alice = client_for(match.players[1])
    alice.post(url(match, "ps_activate"), {"choice": "M1 move", "phase_number": 1})
    alice.post(url(match, "ps_path"), {"path": "f2 12", "phase_number": 2})
    m = Match.objects.get(pk=match.pk)
    assert m.phase_number == 3
    bob = client_for(match.players[2])
    first = bob.get(reverse("games:match", args=[m.pk]) + "?replay=1").content.decode()
    assert "M1 rolls 3: 2 movement points." in first and 'class="ps-board' in first
    second = bob.get(reverse("games:match", args=[m.pk]) + "?replay=2").content.decode()
    assert "M1 moves from f1 to f2, facing 12 o" in second \
        and "rolls 1, needing more than" in second
