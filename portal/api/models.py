"""Per-user API tokens: only a hash of each is stored; the token itself is shown once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60,
                            help_text=_("What the token is for, e.g. “my bot”."))
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True,
                                help_text=_("SHA-256 of the token (the token is never stored)."))
    prefix = models.CharField(_("prefix"), max_length=12,
                              help_text=_("The token's first characters, to "
                                          "recognise it in a list."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user"], name="api_token_live_user",
                                condition=Q(revoked_at__isnull=True))]

    def __str__(self) -> str:
        # Unique and stable: the rate limit counts requests under this name.
        return f"api-token:{self.pk}"
