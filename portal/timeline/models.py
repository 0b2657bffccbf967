"""A player's private notes on a match and their commentary, sealed until the match ends."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

NOTE_MAX = 10_000
COMMENTARY_MAX = 5_000


class Note(models.Model):
    """One player's private notes on one match: only their author ever sees them (no admin,
    no API, no record)."""

    match = models.ForeignKey("games.Match", verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
                               on_delete=models.CASCADE,
                               related_name="+")
    text = models.TextField(_("text"), max_length=NOTE_MAX)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("private note")
        verbose_name_plural = _("private notes")
        constraints = [models.UniqueConstraint(fields=["match", "author"], name="note_once")]

    def __str__(self) -> str:
        return f"notes of user {self.author_id} on match {self.match_id}"


class Commentary(models.Model):
    """A player's commentary on a match, written while it is played: its author alone reads it
    until the match ends, then everyone who may see the match does."""

    match = models.ForeignKey("games.Match", verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="commentaries")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
                               on_delete=models.CASCADE,
                               related_name="+")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    text = models.TextField(_("text"), max_length=COMMENTARY_MAX)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("commentary")
        verbose_name_plural = _("commentaries")
        ordering = ["seat_number", "pk"]
        constraints = [models.UniqueConstraint(fields=["match", "author"],
                                               name="commentary_once")]

    def __str__(self) -> str:
        return f"commentary of seat {self.seat_number} on match {self.match_id}"
