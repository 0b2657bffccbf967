"""A player's progress through the lessons: one row per player and lesson."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LessonProgress(models.Model):
    """How far a player got with one lesson: tries, hints shown, and when it was solved.

    A lesson is data declared by its game's plug-in, named by (game, lesson): never a Match,
    so it stays out of every list, rating and mail."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="lesson_progress")
    game = models.CharField(_("game"), max_length=40)
    lesson = models.CharField(_("lesson"), max_length=60)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    hints_used = models.PositiveIntegerField(_("hints used"), default=0)
    solved_at = models.DateTimeField(_("solved at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("lesson progress")
        verbose_name_plural = _("lesson progress")
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "lesson"],
                                    name="lesson_progress_once_per_player"),
            models.CheckConstraint(condition=~Q(game="") & ~Q(lesson=""),
                                   name="lesson_progress_names_a_lesson"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.game}/{self.lesson}"
