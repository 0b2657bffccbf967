"""The analysis board draws each game's own clickable board and order panel (the match page's)
for its owner seeing a position as the seat to move; the orders made on it come back as a sheet
and are played like typed ones; the raw data is folded away; nobody else plays."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from analysis.models import Analysis
from games import plugins
from portal.lessons.catalogue import game_lessons
from portal.lessons.play import LESSON_TIME, lesson_start

pytestmark = pytest.mark.django_db

GAMES = [slug for slug in plugins.installed() if game_lessons(slug)]


def analysis_of(owner, slug: str) -> tuple[Analysis, int]:
    """An analysis whose root is the position of the game's first lesson (a seat to move)."""
    lesson = game_lessons(slug)[0]
    root = {"id": 0, "parent": None, "state": lesson_start(lesson),
            "at": LESSON_TIME.isoformat(), "label": "start", "events": [], "moves": {}}
    return Analysis.objects.create(owner=owner, game=slug, seats=lesson.seats, title="t",
                                   source=Analysis.Source.RECORD, nodes=[root]), lesson.seat


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_analysis_page_draws_its_board(client, make_user, slug):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, slug)
    client.force_login(owner)
    url = reverse("analysis:detail", args=[analysis.token])
    page = client.get(url, {"as": seat}).content.decode()
    assert "<svg" in page  # a picture of the board, never a text dump only
    assert '<details class="analysis-json">' in page  # the data, folded
    if plugins.plugin_for(slug).has_play_board():
        assert "data-play-board" in page and "data-sheet-form" in page
        assert 'name="sheet"' in page
        # Seen as a spectator, the owner is offered the seats to play on the board.
        spectator = client.get(url).content.decode()
        assert "data-play-board" not in spectator and f"as={seat}" in spectator
    # Anyone else with the link sees the board, never the panel.
    client.force_login(make_user("carol"))
    other = client.get(url, {"as": seat}).content.decode()
    assert "<svg" in other and "data-sheet-form" not in other


def test_tank_game_orders_from_the_board_are_played_as_typed(client, make_user):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "tank-game")
    client.force_login(owner)
    page = client.get(reverse("analysis:detail", args=[analysis.token]),
                      {"as": seat}).content.decode()
    assert "data-sheet-part" in page and "tank-sq" in page  # the match page's panel and squares
    state = analysis.nodes[0]["state"]
    game = plugins.plugin_for("tank-game").game
    move = next(a for a in game.legal_actions(state, seat) if a["type"] == "move")
    played = client.post(reverse("analysis:play", args=[analysis.token]),
                         {"node": "0", "seat": seat, "sheet": json.dumps(move)})
    assert played.status_code == 302 and played["Location"].endswith(f"?node=1&as={seat}")
    analysis.refresh_from_db()
    assert analysis.nodes[1]["moves"] == {str(seat): f"move {move['to']}"}


def test_a_sheet_that_is_not_one_is_refused_saying_so(client, make_user):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "tank-game")
    client.force_login(owner)
    play = reverse("analysis:play", args=[analysis.token])
    for bad in ("not json", "[1, 2]", json.dumps({"type": "fly", "to": "Z99"})):
        response = client.post(play, {"node": "0", "seat": seat, "sheet": bad})
        assert response.status_code == 400
        assert "These orders cannot be played" in response.content.decode()
    analysis.refresh_from_db()
    assert len(analysis.nodes) == 1


def test_final_act_checks_the_order_sheet_live_and_plays_it(client, make_user):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "final-act")
    check = reverse("analysis:check", args=[analysis.token]) + f"?node=0&seat={seat}"
    client.force_login(owner)
    page = client.get(reverse("analysis:detail", args=[analysis.token]),
                      {"as": seat}).content.decode()
    assert 'id="fa-sheet-form" data-sheet-part' in page and "fa-live" in page
    assert f'hx-post="{check.replace("&", "&amp;")}"' in page  # the live check, here
    answer = client.post(check, {"u-C-move": "stay", "u-C-fire": "a1"})
    assert answer.status_code == 200 and 'id="fa-sheet-check"' in answer.content.decode()
    assert "would be refused" in answer.content.decode()
    played = client.post(reverse("analysis:play", args=[analysis.token]),
                         {"node": "0", "seat": seat,
                          "sheet": json.dumps({"u-C-move": "stay", "u-C-fire": "f8"})})
    assert played.status_code == 302
    analysis.refresh_from_db()
    assert "C stay fire f8" in analysis.nodes[1]["moves"][str(seat)]


def test_final_strategy_checks_a_turn_live_for_the_owner_only(client, make_user):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "final-strategy")
    check = reverse("analysis:check", args=[analysis.token]) + f"?node=0&seat={seat}"
    client.force_login(make_user("carol"))
    assert client.post(check, {"steps": "[]"}).status_code == 403
    client.force_login(owner)
    page = client.get(reverse("analysis:detail", args=[analysis.token]),
                      {"as": seat}).content.decode()
    assert f'data-check-url="{check.replace("&", "&amp;")}"' in page
    answer = client.post(check, {"steps": "[]"})
    assert answer.status_code == 200 and answer.json()["ok"] is True
    assert client.post(check, {"steps": "{"}).status_code == 400
