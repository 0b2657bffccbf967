"""A player's calendar feed: its secret URL is derived from the user and a generation number,
so nothing secret is stored and regenerating (a new generation) kills every old URL."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class CalendarFeed(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE,
                                related_name="calendar_feed")
    generation = models.PositiveIntegerField(_("generation"), default=0,
                                             help_text=_("Bumped to regenerate the "
                                                         "secret URL."))
    regenerated_at = models.DateTimeField(_("regenerated at"), null=True, blank=True)

    def __str__(self) -> str:
        return gettext("Calendar feed of %(user)s (generation %(generation)s)") % {
            "user": self.user, "generation": self.generation}

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")
