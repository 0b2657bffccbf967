"""A player's choice of who may read their page (``/players/<username>/``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class PagePrivacy(models.Model):
    """No row: the page is open to everyone (the default)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE, related_name="page_privacy")
    members_only = models.BooleanField(
        _("only for members of my clubs"), default=False,
        help_text=_("Your page is shown only to yourself, the moderators and the members of a "
                    "club you belong to."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("player page privacy")
        verbose_name_plural = _("player page privacy")

    def __str__(self) -> str:
        return gettext("Page privacy of %(user)s") % {"user": self.user}
