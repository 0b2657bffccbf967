"""Each player's active hours: the daily window in which their clock runs and their
deadlines may fall."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clocks.arithmetic import Window

MIN_WINDOW_MINUTES = 60


def validate_zone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(_("“%(zone)s” is not a known time zone.") % {"zone": value},
                              code="invalid") from None


class ActiveHours(models.Model):
    """A player's active hours, e.g. 08:00–23:00 Europe/Paris (an end before the start runs
    past midnight). No row: always active."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE,
                                related_name="active_hours")
    start = models.TimeField(_("start"))
    end = models.TimeField(_("end"))
    time_zone = models.CharField(_("time zone"), max_length=64, validators=[validate_zone],
                                 help_text=_("The player's time zone (their profile's)."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("active hours")
        verbose_name_plural = _("active hours")
        constraints = [models.CheckConstraint(condition=~Q(start=F("end")),
                                              name="active_hours_not_empty")]

    def __str__(self) -> str:
        return f"{self.user}: {self.window}"

    @property
    def window(self) -> Window:
        return Window(self.start, self.end, self.time_zone)
