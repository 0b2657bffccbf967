"""Webhook targets (a club's or a match's chat: Discord, Slack, Matrix, or any JSON receiver)
and the webhook deliveries (one row per target and event, sent by the delivery pipeline)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.delivery.models import Delivery


class WebhookTarget(models.Model):
    """Where a club's or a match's news is posted. ``url`` holds the service's secret token
    (Discord and Slack put it in the path): it is never shown again after it is saved.
    ``secret`` signs the generic format's bodies (HMAC-SHA256), shown once at creation."""

    class Format(models.TextChoices):
        DISCORD = "discord", _("Discord")
        SLACK = "slack", _("Slack")
        MATRIX = "matrix", _("Matrix (hookshot generic webhook)")
        GENERIC = "generic", _("Generic JSON, signed")

    club = models.ForeignKey("competitions.Club", verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.CASCADE, related_name="webhook_targets")
    match = models.ForeignKey("games.Match", verbose_name=_("match"), null=True, blank=True,
                              on_delete=models.CASCADE,
                              related_name="webhook_targets")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    name = models.CharField(_("name"), max_length=80)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices)
    url = models.URLField(_("URL"), max_length=2000)
    secret = models.CharField(_("secret"), max_length=64, blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    consecutive_failures = models.PositiveIntegerField(_("consecutive failures"), default=0)
    disabled_at = models.DateTimeField(_("disabled at"), null=True, blank=True)
    disabled_reason = models.CharField(_("disabled reason"), max_length=300, blank=True)
    last_sent_at = models.DateTimeField(_("last sent at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["created_at", "pk"]
        constraints = [
            # A club's or a match's, never both, never neither.
            models.CheckConstraint(
                condition=(Q(club__isnull=False, match__isnull=True)
                           | Q(club__isnull=True, match__isnull=False)),
                name="webhook_club_or_match"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.format})"

    @property
    def host(self) -> str:
        from urllib.parse import urlsplit

        return urlsplit(self.url).hostname or ""


class WebhookDelivery(Delivery):
    """One event posted to one target (``portal.delivery``: queued → sending → sent, or retry /
    failed). ``dedupe_key`` names the target and the event, so an event reported twice posts
    once. ``payload`` is the body, written when the event happened (in the target's format and
    language); the target's address and secret are read when it is sent."""

    target = models.ForeignKey(WebhookTarget, verbose_name=_("target"), on_delete=models.CASCADE,
                               related_name="deliveries")
    event = models.CharField(_("event"), max_length=20)
    payload = models.JSONField(_("payload"))

    class Meta(Delivery.Meta):
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return gettext("%(event)s to %(target)s (%(status)s)") % {
            "event": self.event, "target": self.target, "status": self.get_status_display()}
