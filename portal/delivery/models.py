"""What every outgoing row has, whatever carries it (an e-mail, a web push, a webhook call)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from durable.models import Work


class Delivery(Work):
    """One thing to send once (a ``durable.models.Work``: queued → sending → sent, retry,
    failed, expired; claimed, retried and swept as every kind of durable work is).

    ``dedupe_key`` is unique, so an event reported twice makes one row."""

    dedupe_key = models.CharField(_("deduplication key"), max_length=200, unique=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(
        _("response status"), null=True, blank=True,
        help_text=_("The last answer's status code (SMTP, HTTP)."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta(Work.Meta):
        abstract = True
