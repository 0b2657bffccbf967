"""Players' reports of a match or a player, queued for the moderators (admin: "Reports")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report", "Open")
        HANDLED = "handled", pgettext_lazy("report", "Handled")
        DISMISSED = "dismissed", pgettext_lazy("report", "Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reporter"),
                                 on_delete=models.CASCADE,
                                 related_name="reports_made")
    match = models.ForeignKey("games.Match", verbose_name=_("match"), null=True, blank=True,
                              on_delete=models.CASCADE,
                              related_name="reports")
    reported_user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reported user"),
                                      null=True, blank=True,
                                      on_delete=models.CASCADE, related_name="reports_about")
    message = models.ForeignKey(
        "chat.Message", verbose_name=_("message"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="reports",
        help_text=_("The message reported (its text is the evidence, shown to moderators only)."))
    reason = models.TextField(_("reason"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN,
                              db_index=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("handled by"),
                                   null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True, help_text=_("What the moderator did."))

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(match__isnull=False) | Q(reported_user__isnull=False),
                name="report_is_about_something"),
            models.CheckConstraint(condition=~Q(reason=""), name="report_reason_required"),
        ]

    def __str__(self) -> str:
        about = self.match or self.reported_user
        return gettext("report #%(number)s about %(about)s") % {"number": self.pk, "about": about}
