"""A lesson draws its game's own clickable board and order panel (the match page's) where the
game has one; the orders made on it come back as a sheet and are played like typed ones (the
solution solves, a bad sheet is refused saying why); the position's data is folded away."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import plugins
from games.final_act.sheet_panel import fields_from_sheet
from portal.lessons.catalogue import all_lessons, game_lessons
from portal.lessons.models import LessonProgress
from portal.lessons.play import lesson_start

pytestmark = pytest.mark.django_db

GAMES = sorted(all_lessons())


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_lesson_page_draws_its_board(client, slug):
    lesson = game_lessons(slug)[0]
    page = client.get(reverse("lessons:lesson", args=[slug, lesson.slug])).content.decode()
    assert "<svg" in page
    assert '<details class="lesson-json">' in page
    assert 'name="orders"' in page  # typing stays possible
    if plugins.plugin_for(slug).has_play_board():
        assert "data-play-board" in page and "data-sheet-form" in page
        assert "data-sheet-part" in page or "data-check-url" in page  # its order panel
        assert '<details class="lesson-typed"' in page  # typing is folded under the board


def test_every_game_draws_its_clickable_board():
    assert [s for s in GAMES if plugins.plugin_for(s).has_play_board()] == [
        "final-act", "final-strategy", "panzer-squadron", "tank-game"]


def solution_handed(slug: str, lesson) -> dict:
    """The lesson's solution as the board's panel hands it over: a form's fields (Tank Game's
    action panel, Panzer Squadron's activation, Final Act's order sheet), or what the script
    built (Final Strategy's turn)."""
    if slug == "panzer-squadron":
        return {"choice": lesson.solution.removeprefix("activate "), "phase_number": ""}
    game, state = plugins.plugin_for(slug).game, lesson_start(lesson)
    sheet = game.parse_text(state, lesson.seat, lesson.solution)
    if slug == "final-act":  # the order sheet's fields
        return fields_from_sheet(game.validate(state, lesson.seat, sheet))
    if slug == "tank-game":
        (action,) = sheet["actions"]
        return {name: str(value) for name, value in action.items()}
    return sheet


@pytest.mark.parametrize("slug", GAMES)
def test_the_solution_played_on_the_board_solves_the_lesson(client, make_user, slug):
    lesson = game_lessons(slug)[0]
    user = make_user("learner")
    client.force_login(user)
    answer = client.post(reverse("lessons:try", args=[slug, lesson.slug]),
                         {"sheet": json.dumps(solution_handed(slug, lesson))},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "lesson-solved" in answer.content.decode()
    assert LessonProgress.objects.get(user=user, lesson=lesson.slug).solved_at


def test_a_bad_sheet_is_refused_saying_why_and_costs_no_hint(client, make_user):
    lesson = game_lessons("tank-game")[0]
    user = make_user("learner")
    client.force_login(user)
    answer = client.post(reverse("lessons:try", args=["tank-game", lesson.slug]),
                         {"sheet": "{not json"}, HTTP_HX_REQUEST="true")
    page = answer.content.decode()
    assert answer.status_code == 200 and "lesson-refused" in page
    assert "could not be read" in page
    assert not LessonProgress.objects.filter(user=user).exists()


def test_final_strategy_checks_the_turn_live(client):
    lesson = game_lessons("final-strategy")[0]
    check = reverse("lessons:check", args=["final-strategy", lesson.slug])
    page = client.get(reverse("lessons:lesson", args=["final-strategy", lesson.slug]))
    assert f'data-check-url="{check}"' in page.content.decode()
    assert client.post(check, {"steps": "[]"}).json()["ok"] is True
    refused = client.post(check, {"steps": "nope"})
    assert refused.status_code == 400 and refused.json()["problems"]
    assert client.post(reverse("lessons:check", args=["tank-game",
                                                      game_lessons("tank-game")[0].slug]),
                       {}).status_code == 400  # a game that checks nothing here


def test_panzer_squadron_standing_reactions_are_set_on_the_board_in_their_lesson(client):
    lesson = next(x for x in game_lessons("panzer-squadron") if x.slug == "opportunity-fire")
    page = client.get(reverse("lessons:lesson", args=["panzer-squadron", lesson.slug]))
    assert 'name="mode_L1"' in page.content.decode()  # the reactions panel, on the board
    answer = client.post(reverse("lessons:try", args=["panzer-squadron", lesson.slug]),
                         {"sheet": json.dumps({"mode_L1": "first", "phase_number": ""})})
    assert "lesson-solved" in answer.content.decode()
