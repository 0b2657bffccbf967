"""Writing a player's progress through the lessons."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from portal.lessons.catalogue import Lesson
from portal.lessons.models import LessonProgress


def progress_record(*, user: AbstractBaseUser, lesson: Lesson, solved: bool) -> LessonProgress:
    """Count one try of ``lesson`` by ``user``: a miss shows one more hint (up to all of them),
    the first success marks it solved. Locks the player's row, so two tries at once both
    count."""
    with transaction.atomic():
        progress, _ = LessonProgress.objects.select_for_update().get_or_create(
            user=user, game=lesson.game, lesson=lesson.slug)
        progress.attempts += 1
        if solved and progress.solved_at is None:
            progress.solved_at = timezone.now()
        elif not solved:
            progress.hints_used = min(progress.hints_used + 1, len(lesson.hints))
        progress.save()
    return progress


def progress_by_lesson(*, user: AbstractBaseUser) -> dict[tuple[str, str], LessonProgress]:
    """The player's progress rows by (game, lesson)."""
    if not user.is_authenticated:
        return {}
    return {(p.game, p.lesson): p for p in LessonProgress.objects.filter(user=user)}
