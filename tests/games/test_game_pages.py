"""What a newcomer met on the game pages (issue 48), pinned down without a browser: the match
page puts the board and the orders first (skip links to them, the dice folded), a bot
opponent is offered neither a vote nor a private conversation (and is told why), Tank Game
says its pace, its gameday, its bot's tank and its cooldown as people would, and shows one's
own action in the logbook at once; Final Act's setup help and create form ask only what
applies; Panzer Squadron says an empty path is fine when nothing is in reach; Final
Strategy's refusal says why in a sentence."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import engine
from games import services
from games.models import Match
from games.votes import match_votes
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

QUICK = {"kind": "every", "minutes": 2, "open_minutes": 2}


def page_of(client, match) -> str:
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    # Every game's page is kept for what its context holds (all of it plain data); a query
    # while a kept block renders fails the request (PAGE_KEPT_STRICT).
    assert response.context["page_key"]
    return response.content.decode()


# -- the match page: the board and the orders first ------------------------------------------

def test_the_board_and_the_orders_come_before_the_votes_and_the_folded_dice(client):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="toy-duel")
    client.force_login(alice)
    html = page_of(client, match)
    board, orders = html.index('id="play"'), html.index('id="orders-panel"')
    votes, dice = html.index('id="votes"'), html.index('id="dice"')
    assert board < orders < votes < dice
    assert re.search(r'<details id="dice"', html)  # the commitment on demand
    # Skip links, first in the page, to the board and to the orders (which exist).
    assert html.index('href="#play"') < html.index('id="main"')
    assert 'class="skip-link" href="#orders-panel"' in html


@pytest.mark.parametrize("game, anchor", [
    ("final-act", "fa-play-side"), ("final-strategy", "fs-builder"),
    ("panzer-squadron", "ps-activation"), ("tank-game", "tank-panel")])
def test_each_game_s_skip_link_leads_to_its_own_order_panel(client, game, anchor):
    alice, bob = make_user("alice"), make_user("bob")
    options = {"schedule": QUICK} if game == "tank-game" else {}
    match = services.match_create(creator=alice, game=game, options=options, hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in (alice, bob)])
    if game == "tank-game":
        services.gameday_tick(match_id=match.pk)
    prompted = engine.get(game).prompts(Match.objects.get(pk=match.pk).state)
    client.force_login(alice if 1 in prompted else bob)
    html = page_of(client, match)
    assert f'class="skip-link" href="#{anchor}"' in html
    assert f'id="{anchor}"' in html


# -- a bot opponent --------------------------------------------------------------------------

def test_against_a_bot_no_vote_is_offered_and_the_page_says_why(client):
    alice = make_user("alice")
    match = duel(alice, "bot", game="toy-duel")
    client.force_login(alice)
    html = page_of(client, match)
    assert reverse("games:vote_propose", args=[match.pk]) not in html
    assert "is played by a bot, which does not vote" in html
    # What the page and the API read says the same.
    shown = match_votes(Match.objects.get(pk=match.pk), alice)
    assert shown["may_propose"] == [] and "does not vote" in shown["no_voter"]


def test_against_a_bot_no_private_conversation_is_offered(client):
    alice = make_user("alice")
    match = duel(alice, "bot", game="toy-duel")
    client.force_login(alice)
    html = client.get(reverse("chat:panel", args=[match.pk])).content.decode()
    assert "A new private conversation" not in html
    assert "every other seat here is played by a bot" in html


def test_between_players_the_private_conversation_is_still_offered(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="toy-duel")
    client.force_login(alice)
    html = client.get(reverse("chat:panel", args=[match.pk])).content.decode()
    assert "A new private conversation (tick the seats below)" in html
    assert 'name="seats" value="2"' in html


# -- Tank Game -------------------------------------------------------------------------------

@pytest.fixture
def tank_vs_bot():
    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="tank-game", hours_per_phase=0.25,
        options={"schedule": QUICK, "cooldown_minutes": 5},
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    match.alice = alice
    return match


def test_tank_game_says_its_pace_and_names_the_bot_s_tank_after_its_bot(client, tank_vs_bot):
    client.force_login(tank_vs_bot.alice)
    html = page_of(client, tank_vs_bot)
    assert "a gameday every 2 minutes" in html and "h per phase" not in html
    assert "Seat 2 (random bot)" in html
    assert "How to play on this board" in html
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "gamedays under way" in lobby and "phase 1 (gameday)" not in lobby


def test_one_s_own_action_is_in_the_logbook_of_the_answer(client, tank_vs_bot):
    client.force_login(tank_vs_bot.alice)
    move = next(a for a in engine.get("tank-game").legal_actions(tank_vs_bot.state, 1)
                if a["type"] == "move")
    response = client.post(reverse("games:tank_act", args=[tank_vs_bot.pk]),
                           {"type": "move", "to": move["to"]}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    log = html[html.index('id="tank-log"'):]
    assert 'hx-swap-oob="true"' in log[:200]
    assert f"moves to {move['to']}" in log or move["to"] in log
    # The cooldown just started: shown, with its end.
    assert "cooldown until" in html


def test_a_cooldown_that_is_over_is_not_shown(client, tank_vs_bot):
    client.force_login(tank_vs_bot.alice)
    match = Match.objects.get(pk=tank_vs_bot.pk)
    state = match.state
    past = (timezone.now() - timedelta(minutes=14)).isoformat()
    for tank in state["tanks"].values():
        if tank["seat"] == 1:
            tank["cooldown_until"] = past
    match.state = state
    match.save(update_fields=["state"])
    html = page_of(client, match)
    assert "cooldown until" not in html


# -- Final Act's setup help and create form --------------------------------------------------

def test_the_basic_setup_help_names_no_r_unit_and_extra_forces_do(client):
    alice = make_user("alice")
    basic = duel(alice, make_user("bob"), game="final-act")
    client.force_login(alice)
    help_line = "The R unit always faces forward ("  # (the help; not the script's words)
    assert help_line not in page_of(client, basic)
    extra = duel(alice, make_user("carl"), game="final-act", options={"extra_forces": True})
    assert help_line in page_of(client, extra)


def test_the_k_field_is_tied_to_the_token_modes_that_have_a_k(client):
    client.force_login(make_user("alice"))
    html = client.get(reverse("games:match_create"), {"game": "final-act"}).content.decode()
    k = re.search(r'<input[^>]*name="option__tokens_1"[^>]*>', html).group(0)
    assert 'data-shown-with="id_option__tokens_0"' in k
    assert 'data-shown-values="random-k draft-k"' in k


# -- Panzer Squadron: nothing in reach ---------------------------------------------------------

def test_panzer_squadron_says_an_empty_path_is_fine_with_nothing_in_reach(client):
    alice = make_user("alice")
    # A die of 1: 0 movement points (the card's modifier), no hex in reach.
    match = duel(alice, make_user("bob"), game="panzer-squadron",
                 options={"dice": [1] * 20})
    client.force_login(alice)
    response = client.post(reverse("games:ps_activate", args=[match.pk]),
                           {"choice": "M1 move", "phase_number": match.phase_number})
    assert response.status_code == 302
    html = page_of(client, match)
    assert "0 movement points" in html
    assert "leave the path empty and press “Play the path”" in html
    match.refresh_from_db()
    response = client.post(reverse("games:ps_path", args=[match.pk]),
                           {"path": "", "end": "stopped", "phase_number": match.phase_number})
    assert response.status_code == 302  # and it is, indeed, fine


# -- Final Strategy: a refusal in words ------------------------------------------------------

def test_final_strategy_refuses_an_unwalled_square_in_a_sentence(client):
    users = [make_user(n) for n in ("ann", "ben")]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in users])
    client.force_login(users[0])
    response = client.post(reverse("games:fs_turn_check", args=[match.pk, 1]),
                           {"steps": '[{"occupy": "c3"}]'})
    assert response.status_code == 400
    message = response.json()["problems"][0]["message"]
    assert message == ("c3 cannot be occupied yet: it is not walled on all four sides. "
                       "Place a barrier on an edge instead.")
