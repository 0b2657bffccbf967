"""Candidates for a seat seeking a commander see only what a spectator may see: the seat's
link page shows the spectator's board (``view(state, None)``), never the seat's hidden side
nor a sheet or setting it sealed, in every game that hides something: Final Act's sealed
setup, Tank Game's Council votes, Panzer Squadron's standing reactions, Final Strategy's
bunkers. Each secret is looked for as an anonymous visitor, a logged-in stranger and the
other player; the same check finds it on the page of whoever then takes the seat, so it can
fail."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse

import engine
from games import plugins, services
from games.models import Match, Seat, Submission
from games.plugins import sheet_text
from tests.helpers import client_for
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


def offer_page(token: str, user) -> str:
    answer = client_for(user).get(reverse("games:seat_offer", args=[token]))
    assert answer.status_code == 200
    return html.unescape(answer.content.decode())


def leave_and_look(match: Match, leaver, seat_number: int, other) -> tuple[str, list[str]]:
    """``leaver`` leaves ``seat_number``; the link page as every role that may hold the link
    (anonymous, a stranger, another player). Returns the seat's token and the pages."""
    services.seat_leave(match_id=match.pk, user=leaver)
    token = Seat.objects.get(match=match, number=seat_number).offer_token
    pages = [offer_page(token, user) for user in (None, make_user("stranger"), other)]
    match.refresh_from_db()
    spectator_board = html.unescape(plugins.plugin_for(match.game).board_html(
        match, match.state, None))
    for page in pages:  # the board shown is the spectator's (each picture's own id aside)
        assert same_ids(spectator_board) in same_ids(page)
    return token, pages


def same_ids(page: str) -> str:
    """``page`` with the ids a board picture numbers itself by (unique on a page) made one."""
    return re.sub(r'id="([a-z-]+?)-\d+-\d+"', r'id="\1"', page)


def taken_page(match: Match, token: str) -> str:
    """The match page of the newcomer who took the seat (where its secrets are theirs)."""
    newcomer = make_user("newcomer")
    services.seat_take(token=token, user=newcomer)
    answer = client_for(newcomer).get(reverse("games:match", args=[match.pk]))
    return html.unescape(answer.content.decode())


def test_final_strategy_a_candidate_never_sees_the_seats_bunker():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-strategy")
    split = re.compile(r"\d+ troops?, \d+ kidnappers?, \d+ bombs?")
    assert split.search(html.unescape(plugins.plugin_for("final-strategy").board_html(
        match, match.state, 2)))  # the seat's own board shows it
    token, pages = leave_and_look(match, bob, 2, alice)
    for page in pages:  # (nor alice's own bunker: the page shows a spectator's board)
        assert not split.search(page)
    assert split.search(taken_page(match, token))


def test_final_act_a_candidate_never_sees_the_seats_sealed_setup():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-act", options={"round_limit": 3})
    game = engine.get("final-act")
    assert match.state["phase"] == "setup"
    setup = game.bot_submission(match.state, 2, game.bots[0], random.Random(5))
    services.orders_submit(match_id=match.pk, seat_number=2, user=bob, source="web",
                           phase_number=match.phase_number, data=setup)
    sheet = Submission.objects.get(phase__match=match, seat__number=2)
    text = sheet_text(game, match.state, 2, sheet.data)
    markers = [sheet.salt, sheet.receipt, text, json.dumps(sheet.data, sort_keys=True)]
    markers += [line for line in text.splitlines() if len(line) >= 16]
    assert len(text) >= 12
    token, pages = leave_and_look(match, bob, 2, alice)
    for page in pages:
        for marker in markers:
            assert marker not in page, marker
    assert text.splitlines()[0] in taken_page(match, token)  # the newcomer's sealed setup


def test_panzer_squadron_a_candidate_never_sees_the_seats_standing_reactions():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="panzer-squadron", options={"dice": [3] + [1] * 20})
    answer = client_for(bob).post(reverse("games:ps_reactions", args=[match.pk]), {
        "mode_L3": "side-rear", "max_L3": "7", "phase_number": match.phase_number})
    assert answer.status_code == 302
    match.refresh_from_db()
    assert engine.get("panzer-squadron").view(match.state, 2)["reactions"]["L3"] == {
        "mode": "side-rear", "max_range": 7}
    token, pages = leave_and_look(match, bob, 2, alice)
    for page in pages:
        assert "side-rear" not in page and "max 7" not in page
    assert 'value="side-rear" selected' in taken_page(match, token)


def test_tank_game_a_candidate_never_sees_the_seats_council_vote():
    users = [make_user(f"voter{n}") for n in (1, 2, 3, 4)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN},
        seats=[{"kind": "human", "user": u} for u in users])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    state = match.state  # seats 3 and 4 fell earlier: dead tanks sit on the Council
    for seat in ("3", "4"):
        state["tanks"][seat].update(lives=0, ap=0, gold=0, bounty=0, status="dead", durability=3)
        state["deaths"].append(int(seat))
    state["coffer"] = 0
    Match.objects.filter(pk=match.pk).update(state=state)
    answer = client_for(users[2]).post(
        reverse("games:tank_act", args=[match.pk]),
        {"type": "open_ballot", "decree": "stimulus", "target": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    match.refresh_from_db()
    vote = '"my_vote": {'
    assert vote in html.unescape(plugins.plugin_for("tank-game").board_html(
        match, match.state, 3))
    token, pages = leave_and_look(match, users[2], 3, users[0])
    for page in pages:
        assert vote not in page and "Your vote: voter1" not in page
    assert "Your vote: voter1" in taken_page(match, token)
