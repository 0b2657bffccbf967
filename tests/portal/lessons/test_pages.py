"""The lessons' pages as every role: the index, a game's lessons, a lesson played in place
(HTMX and plain form), progress kept for a player and not for an anonymous visitor, and no
lesson ever showing up as a match."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games import plugins
from games.models import Match
from portal.lessons.catalogue import all_lessons, game_lessons
from portal.lessons.models import LessonProgress

pytestmark = pytest.mark.django_db

GAME = "final-strategy"
LESSON = game_lessons(GAME)[0]
TRY = reverse("lessons:try", args=[GAME, LESSON.slug])
PAGE = reverse("lessons:lesson", args=[GAME, LESSON.slug])


@pytest.fixture(params=["anonymous", "player", "other", "moderator"])
def role(request, client, make_user):
    """A client logged in as each role (lessons have no owner: every one is a learner)."""
    if request.param != "anonymous":
        user = make_user(request.param, is_staff=request.param == "moderator")
        if request.param == "moderator":
            Group.objects.get_or_create(name="Moderator")[0].user_set.add(user)
        client.force_login(user)
    return request.param


def test_the_index_lists_every_game_and_lesson(client, role):
    page = client.get(reverse("lessons:index")).content.decode()
    for slug, lessons in all_lessons().items():
        assert reverse("lessons:game", args=[slug]) in page or \
            reverse("lessons:lesson", args=[slug, lessons[0].slug]) in page
        for lesson in lessons:
            assert reverse("lessons:lesson", args=[slug, lesson.slug]) in page
    assert ("log in to keep track" in page.lower()) == (role == "anonymous")


def test_a_lesson_page_shows_the_task_board_and_form(client, role):
    response = client.get(PAGE)
    page = response.content.decode()
    assert response.status_code == 200
    assert str(LESSON.intro) in page.replace("&#x27;", "'").replace("&quot;", '"') or \
        str(LESSON.title) in page
    assert 'name="orders"' in page and 'for="lesson-orders"' in page
    assert "<svg" in page  # the game's own board


def test_a_wrong_answer_gets_the_first_hint_in_place(client, role):
    response = client.post(TRY, {"orders": LESSON.wrong, "hints": "0"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page  # the fragment only
    assert str(LESSON.hints[0]) in page.replace("&#x27;", "'").replace("&quot;", '"')
    assert "lesson-solved" not in page
    assert 'hx-swap-oob="true"' in page and 'value="1"' in page


def test_the_solution_is_solved_in_place(client, role):
    response = client.post(TRY, {"orders": LESSON.solution, "hints": "0"},
                           HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "lesson-solved" in page
    assert str(LESSON.hints[0]) not in page


def test_without_htmx_the_whole_page_answers(client, role):
    page = client.post(TRY, {"orders": LESSON.wrong}).content.decode()
    assert "<html" in page and "lesson-missed" in page or "lesson-refused" in page


def test_progress_is_kept_for_a_player(client, make_user):
    user = make_user("learner")
    client.force_login(user)
    client.post(TRY, {"orders": LESSON.wrong}, HTTP_HX_REQUEST="true")
    client.post(TRY, {"orders": "wall"}, HTTP_HX_REQUEST="true")  # refused by the grammar
    progress = LessonProgress.objects.get(user=user, game=GAME, lesson=LESSON.slug)
    assert (progress.attempts, progress.hints_used, progress.solved_at) == (2, 2, None)
    page = client.get(PAGE).content.decode()  # the hints already earned stay shown
    assert str(LESSON.hints[1]).split("“")[0][:20] in page.replace("&#x27;", "'")
    client.post(TRY, {"orders": LESSON.solution}, HTTP_HX_REQUEST="true")
    progress.refresh_from_db()
    assert progress.attempts == 3 and progress.solved_at is not None
    index = client.get(reverse("lessons:game", args=[GAME])).content.decode()
    assert f"1 of {len(game_lessons(GAME))} lessons solved" in index


def test_an_anonymous_visitor_keeps_nothing(client):
    client.post(TRY, {"orders": LESSON.solution}, HTTP_HX_REQUEST="true")
    assert not LessonProgress.objects.exists()


def test_a_lesson_is_never_a_match(client, make_user):
    """No Match row: a lesson stays out of the lobby, the ladders, ratings and mail."""
    client.force_login(make_user("learner"))
    client.post(TRY, {"orders": LESSON.solution}, HTTP_HX_REQUEST="true")
    assert not Match.objects.exists()


@pytest.mark.parametrize("data", [{"orders": "x" * 5000}, {"orders": "wall", "hints": "-1"},
                                  {"orders": "wall", "hints": "99"}, {"orders": "wall",
                                                                      "hints": "two"}])
def test_bad_input_is_a_400(client, data):
    assert client.post(TRY, data, HTTP_HX_REQUEST="true").status_code == 400


@pytest.mark.parametrize("url", ["/learn/no-such-game/", f"/learn/{GAME}/no-such-lesson/",
                                 f"/learn/no-such-game/{LESSON.slug}/"])
def test_unknown_games_and_lessons_are_404(client, url):
    assert client.get(url).status_code == 404


def test_trying_needs_a_post(client):
    assert client.get(TRY).status_code == 405


def test_the_menu_home_the_lobby_and_the_rules_link_to_the_lessons(client, make_user):
    learn = reverse("lessons:index")
    assert learn in client.get(reverse("games:lobby")).content.decode()
    client.force_login(make_user("learner"))
    # The menu, the home's "Learn" section and, for a player with no match yet, the first
    # steps ("or start with a lesson").
    assert client.get(reverse("home")).content.decode().count(f'href="{learn}"') == 3
    rules = client.get(reverse("games:rules", args=[GAME])).content.decode()
    assert reverse("lessons:game", args=[GAME]) in rules


@pytest.mark.parametrize("lesson", [lesson for found in all_lessons().values() for lesson in found],
                         ids=lambda lesson: f"{lesson.game}/{lesson.slug}")
def test_every_lesson_page_draws_its_board_before_and_after(client, lesson):
    page = client.get(reverse("lessons:lesson", args=[lesson.game, lesson.slug]))
    assert page.status_code == 200
    # The board's own styles come with it (without them Final Act's board is a black square).
    stylesheet = plugins.plugin_for(lesson.game).board_stylesheet()
    assert not stylesheet or f"{stylesheet}\"" in page.content.decode()
    page = client.post(reverse("lessons:try", args=[lesson.game, lesson.slug]),
                       {"orders": lesson.solution}, HTTP_HX_REQUEST="true").content.decode()
    assert "lesson-solved" in page and "<svg" in page


def test_empty_orders_are_refused_with_a_sentence_and_a_hint(client):
    page = client.post(TRY, {"orders": "  "}, HTTP_HX_REQUEST="true").content.decode()
    assert "Write your orders first." in page and "lesson-refused" in page
    assert str(LESSON.hints[0])[:20] in page.replace("&#x27;", "'")


def test_a_lesson_reads_in_french(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    lesson = game_lessons("final-act")[0]
    page = client.get(reverse("lessons:lesson", args=["final-act", lesson.slug])).content.decode()
    assert "Le cône de tir" in page and "Jouer ces ordres" in page
    index = client.get(reverse("lessons:index")).content.decode()
    assert "Apprendre les jeux" in index
