"""What every outgoing row has, whatever carries it (an e-mail, a web push, a webhook call)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Delivery(models.Model):
    """One thing to send once: queued → sending → sent, or retry (a temporary failure, with
    back-off) → sending ..., failed (for good, or after too many attempts: the admins see it),
    expired (its time ran out before it could be sent, or a newer one replaced it).

    ``dedupe_key`` is unique, so an event reported twice makes one row; a worker claims a row
    by marking it sending (``sending_since`` is its lease: a worker killed mid-batch leaves it,
    and the row is due again once the lease ran out)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        RETRY = "retry", _("Waiting to retry")
        FAILED = "failed", _("Failed")
        EXPIRED = "expired", _("Expired (too late, or replaced by a newer one)")

    dedupe_key = models.CharField(_("deduplication key"), max_length=200, unique=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.QUEUED,
                              db_index=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    sending_since = models.DateTimeField(_("sending since"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(
        _("response status"), null=True, blank=True,
        help_text=_("The last answer's status code (SMTP, HTTP)."))
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        abstract = True
        indexes = [
            # The claim: rows waiting to be sent, by when they are due ...
            models.Index(fields=["next_attempt_at"], name="%(app_label)s_%(class)s_due",
                         condition=Q(status__in=["queued", "retry"])),
            # ... and rows whose worker's lease may have run out.
            models.Index(fields=["sending_since"], name="%(app_label)s_%(class)s_lease",
                         condition=Q(status="sending")),
        ]
