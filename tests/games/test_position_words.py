"""The position in words (GamePlugin.position_words) on each game's match page: who is where and
what is seen, for a screen reader; only what the reader may see (a seat's secrets are told to
that seat, never to the other player or a spectator); in the reader's language."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

import engine
from games import services
from games.models import Match
from tests.portal.builders import fast_password_hashing  # noqa: F401  (autouse)
from tests.portal.played import GAMES, played_match, players

pytestmark = pytest.mark.django_db


def words_on_page(client, user, match: Match, language: str = "en") -> list[str]:
    """The lines of "The position in words" on the match page as ``user`` (None: anonymous)
    reads it."""
    if user is not None:
        client.force_login(user)
    else:
        client.logout()
    response = client.get(reverse("games:match", args=[match.pk]),
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    found = re.search(r'<section class="position-words"[^>]*>(.*?)</section>', page, re.S)
    assert found, "the match page has no position in words"
    return [html.unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_tells_where_each_piece_is(slug, client):
    people = players(slug[:5])
    match = played_match(slug, people)
    game = engine.get(slug)
    view = game.view(match.state, None)
    lines = words_on_page(client, people["spectator"], match)
    told = " ".join(lines)
    pieces = {"final-act": [u["at"] for u in view.get("units", []) if u.get("at")],
              "final-strategy": [p["at"] for p in view.get("pieces", [])],
              "panzer-squadron": [t["at"] for t in view.get("tanks", []) if t["alive"]],
              "tank-game": [t["at"] for t in view.get("tanks", []) if t.get("at")]}[slug]
    assert pieces, "the played match has pieces on the board"
    for square in pieces:
        assert re.search(rf"\b{re.escape(square)}\b", told), f"{square} is not told: {lines}"
    assert lines == words_on_page(client, None, match)  # anonymous: what a spectator reads


def test_final_strategy_tells_the_bunker_split_to_its_owner_only(client):
    people = players("fsw")
    match = played_match("final-strategy", people)
    own = words_on_page(client, people["seat1"], match)
    bunker = match.state["bunkers"]["1"]
    split = (f"In your bunker: {bunker['troop']} troops, {bunker['kidnapper']} kidnappers, "
             f"{bunker['bomb']} bomb{'s' if bunker['bomb'] != 1 else ''}.") \
        if "troop" in bunker else None
    mine = next(line for line in own if line.startswith("Seat 1 (you)"))
    assert "In your bunker:" in mine and (split is None or split in mine)
    for who in ("seat2", "spectator"):
        other = words_on_page(client, people[who], match)
        seat1 = next(line for line in other if line.startswith("Seat 1"))
        assert "In your bunker" not in seat1 and "(you)" not in seat1
    spectator = words_on_page(client, people["spectator"], match)
    assert not any("In your bunker" in line for line in spectator)


def test_panzer_squadron_tells_standing_reactions_to_their_author_only(client):
    people = players("psw")
    match = played_match("panzer-squadron", people)
    match.refresh_from_db()
    mine = next(t["name"] for t in engine.get("panzer-squadron").view(match.state, 1)["tanks"]
                if t["seat"] == 1 and t["alive"])
    services.orders_submit(
        match_id=match.pk, seat_number=1, user=people["seat1"], phase_number=match.phase_number,
        source="web", data={"reactions": {mine: {"mode": "side-rear", "max_range": 7}}})
    told = words_on_page(client, people["seat1"], match)
    assert any(line.startswith("Your standing reactions") and
               f"{mine}: fire only at side or rear shots, at most 7 hexes away" in line
               for line in told), told
    other = " ".join(words_on_page(client, people["seat2"], match))
    assert "side or rear" not in other and "7 hexes" not in other and f"{mine}: fire" not in other
    assert "Your standing reactions" in other  # its own, which it may read
    spectator = " ".join(words_on_page(client, people["spectator"], match))
    assert "standing reactions" not in spectator and "side or rear" not in spectator


def test_tank_game_tells_a_council_vote_to_its_voter_only(client):
    people = players("tgw")
    match = played_match("tank-game", people)
    game = engine.get("tank-game")
    state = dict(match.state)
    # A ballot with seat 1's vote in it, as the engine keeps one (its voter's secret).
    state["ballots"] = [{"id": 1, "decree": "stimulus", "status": "open", "opened_by": 1,
                         "opened_at": "2026-01-01T00:00:00+00:00", "gameday": "x",
                         "votes": {"1": {"target": 2}}, "passed": None}]
    Match.objects.filter(pk=match.pk).update(state=state)
    match.refresh_from_db()
    assert game.view(match.state, 1)["council"]["ballots"][0]["my_vote"] == {"target": 2}
    own = " ".join(words_on_page(client, people["seat1"], match))
    assert "Open ballot 1 (Stimulus)" in own and "Your vote:" in own
    for who in ("seat2", "spectator"):
        other = " ".join(words_on_page(client, people[who], match))
        assert "Open ballot 1 (Stimulus)" in other and "Your vote" not in other


def test_final_act_says_the_same_to_both_seats_and_a_spectator_but_who_reads(client):
    """Nothing on Final Act's board is secret (sealed sheets are not on it): each seat reads
    the spectator's words, plus which side it plays."""
    people = players("faw")
    match = played_match("final-act", people)
    spectator = words_on_page(client, people["spectator"], match)
    for who, side in (("seat1", "Alpha"), ("seat2", "Delta")):
        told = words_on_page(client, people[who], match)
        assert told[1].startswith(f"You play {side}")
        assert told[:1] + told[2:] == spectator


def test_the_position_is_told_in_french(client):
    people = players("frw")
    match = played_match("panzer-squadron", people)
    told = " ".join(words_on_page(client, people["spectator"], match, language="fr"))
    assert "Tour" in told and "Bois" in told, told
