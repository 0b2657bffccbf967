"""The lessons' pages: the index ("Learn"), a game's lessons, and a lesson played in place.

Anyone may play a lesson; a logged-in player's tries, hints and successes are kept, an
anonymous visitor's are not (the page says so)."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from engine import RuleError
from games import plugins
from games.parsing import parse_int
from games.words import problem_dicts
from portal.lessons.catalogue import Lesson, all_lessons, game_lessons, lesson_get
from portal.lessons.models import LessonProgress
from portal.lessons.play import (
    LESSON_TIME,
    MAX_ORDERS_LENGTH,
    Attempt,
    lesson_attempt,
    lesson_board_orders,
    lesson_start,
)
from portal.lessons.services import progress_by_lesson, progress_record


def _rows(request: HttpRequest, slug: str, lessons: list[Lesson]) -> dict[str, Any]:
    progress = progress_by_lesson(user=request.user)
    rows = [{"lesson": lesson, "progress": progress.get((slug, lesson.slug))}
            for lesson in lessons]
    return {"slug": slug, "name": plugins.plugin_for(slug).name, "rows": rows,
            "solved": sum(1 for row in rows if row["progress"] and row["progress"].solved_at)}


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """GET: every game's lessons, with the player's progress."""
    games = [_rows(request, slug, lessons) for slug, lessons in all_lessons().items()]
    return render(request, "lessons/index.html", {"games": games})


@require_safe
def game_index(request: HttpRequest, game: str) -> HttpResponse:
    """GET: one game's lessons, with the player's progress."""
    lessons = game_lessons(game) if game in plugins.installed() else []
    if not lessons:
        raise Http404(_("This game has no lessons."))
    return render(request, "lessons/index.html", {"games": [_rows(request, game, lessons)],
                                                  "one_game": True})


def _progress(request: HttpRequest, lesson: Lesson) -> LessonProgress | None:
    if not request.user.is_authenticated:
        return None
    return LessonProgress.objects.filter(user=request.user, game=lesson.game,
                                         lesson=lesson.slug).first()


def _page_context(request: HttpRequest, lesson: Lesson, *, hints: int, solved: bool,
                  orders: str = "", attempt: Attempt | None = None) -> dict[str, Any]:
    plugin = plugins.plugin_for(lesson.game)
    state = lesson_start(lesson)
    siblings = game_lessons(lesson.game)
    index = [s.slug for s in siblings].index(lesson.slug)
    return {
        "lesson": lesson, "game_name": plugin.name, "slug": lesson.game,
        "board_css": plugin.board_stylesheet(),
        "seat_name": plugin.game.seat_name(lesson.seat),
        "board": plugin.lesson_board(state, lesson.seat),
        # The game's own clickable board and order panel (its orders go to the form below).
        "play_board": plugin.play_board(
            state, lesson.seat, now=LESSON_TIME,
            check_url=reverse("lessons:check", args=[lesson.game, lesson.slug])),
        "view_json": json.dumps(plugin.game.view(state, lesson.seat), indent=2,
                                sort_keys=True),
        "position_words": plugin.position_words(state, lesson.seat),
        "board_after": plugin.lesson_board(attempt.state, lesson.seat)
        if attempt is not None and attempt.state is not None else "",
        "orders_hint": plugin.orders_hint(state, lesson.seat),
        "orders_help": plugin.orders_help(state, lesson.seat),
        "orders": orders, "attempt": attempt, "solved": solved,
        "hints": lesson.hints[:hints], "hints_shown": hints,
        "previous": siblings[index - 1] if index > 0 else None,
        "next": siblings[index + 1] if index + 1 < len(siblings) else None,
        "saved": request.user.is_authenticated,
    }


@require_safe
def lesson_page(request: HttpRequest, game: str, lesson: str) -> HttpResponse:
    """GET: a lesson: its position on the board, the task, and the orders form."""
    found = lesson_get(game, lesson)
    progress = _progress(request, found)
    context = _page_context(request, found, hints=progress.hints_used if progress else 0,
                            solved=bool(progress and progress.solved_at))
    return render(request, "lessons/lesson.html", context)


def _hints_shown(request: HttpRequest, lesson: Lesson) -> int:
    """How many hints the page shows: the learner's kept count, else what the form says."""
    if request.user.is_authenticated:
        progress = _progress(request, lesson)
        return progress.hints_used if progress else 0
    return parse_int(request.POST.get("hints", "0") or "0", min=0, max=len(lesson.hints),
                     field="hints")


@require_POST
def lesson_check(request: HttpRequest, game: str, lesson: str) -> HttpResponse:
    """POST: the live check of the clickable board's panel in the lesson's position (the form
    is the game's), as JSON: what the game answers, or the problems. Stores nothing."""
    found = lesson_get(game, lesson)
    try:
        answer = plugins.plugin_for(found.game).play_check(
            lesson_start(found), found.seat, request.POST, check_url=request.get_full_path())
    except RuleError as error:
        return JsonResponse({"ok": False, "problems": problem_dicts(error.problems)},
                            status=400)
    return HttpResponse(answer) if isinstance(answer, str) else JsonResponse(answer)


@require_POST
def lesson_try(request: HttpRequest, game: str, lesson: str) -> HttpResponse:
    """POST: play the orders written; answers in place (HTMX) with solved or the next hint."""
    found = lesson_get(game, lesson)
    orders = request.POST.get("orders", "")
    if len(orders) > MAX_ORDERS_LENGTH:
        raise BadRequest(_("Orders are at most %(count)s characters long.")
                         % {"count": MAX_ORDERS_LENGTH})
    refused: Attempt | None = None
    if "sheet" in request.POST:  # played on the clickable board
        try:
            orders = lesson_board_orders(found, request.POST["sheet"])
        except RuleError as error:
            refused = Attempt(False, problems=plugins.plugin_for(found.game).problem_lines(
                error.problems, ""))
    if refused is not None:  # not a try: nothing kept, no hint spent
        context = _page_context(request, found, hints=_hints_shown(request, found),
                                solved=False, attempt=refused)
    elif request.user.is_authenticated:
        attempt = lesson_attempt(found, orders)
        progress = progress_record(user=request.user, lesson=found, solved=attempt.solved)
        hints, solved = progress.hints_used, attempt.solved or progress.solved_at is not None
    else:  # nothing kept: the form carries how many hints were shown
        shown = _hints_shown(request, found)
        attempt = lesson_attempt(found, orders)
        hints = shown if attempt.solved else min(shown + 1, len(found.hints))
        solved = attempt.solved
    if refused is None:
        context = _page_context(request, found, hints=hints, solved=solved, orders=orders,
                                attempt=attempt)
    if request.htmx:
        return render(request, "lessons/partials/attempt.html", {**context, "oob": True})
    return render(request, "lessons/lesson.html", context)
