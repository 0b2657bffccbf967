"""One obvious way to give orders in every game: the board (the game's own panel), and the text
grammar only on demand, under it ("Type your orders instead", also the keyboard and
screen-reader path), with a line saying what the grammar looks like. Typed orders are taken
like any other."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

import engine
from games import plugins, services
from games.models import Action, Submission
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


def tank_match(alice, bob):
    match = services.match_create(
        creator=alice, game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN, "cooldown_minutes": 5},
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    services.gameday_tick(match_id=match.pk)  # what the sweeper does within seconds
    match.refresh_from_db()
    return match


# The game, how to make a match where alice (seat 1) must act, and the mark of its board panel.
GAMES = {
    "final-act": (lambda a, b: duel(a, b, game="final-act"), 'id="fa-board-live"'),
    "tank-game": (tank_match, 'id="tank-play"'),
    "final-strategy": (lambda a, b: duel(a, b, game="final-strategy"), 'id="fs-play"'),
    "panzer-squadron": (lambda a, b: duel(a, b, game="panzer-squadron"), 'id="ps-activation"'),
}


@pytest.fixture
def alice(client):
    user = make_user("alice")
    client.force_login(user)
    return user


def page_of(client, match) -> str:
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def disclosure(page: str) -> str:
    found = re.search(r'<details class="typed-orders" id="typed-orders"[^>]*>.*?</form>\s*'
                      r'</details>', page, re.S)
    assert found, "no typed orders on the page"
    return found.group(0)


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_board_comes_first_and_the_text_grammar_on_demand(client, alice, slug):
    make, board_mark = GAMES[slug]
    match = make(alice, make_user("bob"))
    page = page_of(client, match)
    typed = disclosure(page)
    assert page.index(board_mark) < page.index('id="typed-orders"')
    # Closed until asked for, named the same way in every game, with its line of help.
    assert typed.startswith('<details class="typed-orders" id="typed-orders">')
    assert "<summary>Type your orders instead</summary>" in typed
    hint = re.search(r'<p class="help" id="typed-orders-hint">(.*?)</p>', typed, re.S)
    assert hint and "e.g." in hint.group(1)
    full_help = plugins.plugin_for(slug).orders_help(match.state, 1)
    assert escape(full_help.split("\n")[0][:20]) in typed
    # No generic order box beside the board, and no word of another way than these two.
    assert 'id="orders-panel"' not in page and "Your orders — seat" not in page
    assert page.count('name="orders"') == 1


@pytest.mark.parametrize("slug", list(GAMES))
def test_spectators_and_waiting_players_get_no_typed_orders(client, slug):
    make, _mark = GAMES[slug]
    match = make(make_user("carol"), make_user("dave"))
    client.force_login(make_user("eve"))
    assert 'id="typed-orders"' not in page_of(client, match)


def test_the_generic_panel_stays_the_way_for_a_game_without_a_board(client, alice):
    match = duel(alice, make_user("bob"))  # the toy game: no panel of its own
    page = page_of(client, match)
    assert 'id="orders-panel"' in page and 'id="typed-orders"' not in page


def test_final_act_orders_typed_instead_are_sealed(client, alice):
    match = duel(alice, make_user("bob"), game="final-act", options={"scenario": {
        "round": 1,
        "units": [{"seat": 1, "name": "C", "at": "e4", "facing": "N", "hits": 0},
                  {"seat": 2, "name": "C", "at": "e9", "facing": "S", "hits": 0}],
        "terrain": []}})
    page = page_of(client, match)
    assert "“C FL turn fire e7”" in disclosure(page)
    response = client.post(reverse("games:orders", args=[match.pk, 1]), {
        "phase_number": match.phase_number, "format": "text", "orders": "C FL turn fire e7"})
    assert response.status_code == 302
    sheet = Submission.objects.get(phase__match=match, seat__number=1)
    assert sheet.data["units"]["C"] == {"move": "FL", "turn": True, "fire": ["e7"]}


def test_a_refused_typed_sheet_comes_back_open_with_its_text_and_the_reason(client, alice):
    match = duel(alice, make_user("bob"), game="final-strategy")
    response = client.post(reverse("games:orders", args=[match.pk, 1]), {
        "phase_number": match.phase_number, "format": "text", "orders": "occupy z99"})
    assert response.status_code == 400
    typed = disclosure(response.content.decode())
    assert typed.startswith('<details class="typed-orders" id="typed-orders" open>')
    assert "occupy z99</textarea>" in typed and 'class="errors"' in typed


def test_tank_game_actions_typed_instead_are_applied(client, alice):
    match = tank_match(alice, make_user("bob"))
    move = next(a for a in engine.get("tank-game").legal_actions(match.state, 1)
                if a["type"] == "move")
    response = client.post(reverse("games:orders", args=[match.pk, 1]), {
        "phase_number": match.phase_number, "format": "text", "orders": f"move {move['to']}"})
    assert response.status_code == 302
    assert Action.objects.filter(match=match, seat=1, source="web").count() == 1
