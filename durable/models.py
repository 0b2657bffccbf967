"""The row every kind of durable work is kept in (``Work``: abstract; each kind's table adds
what its work needs, such as a mail's recipient or a job's payload) and the generic jobs'
table (``Job``)."""

from __future__ import annotations

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Work(models.Model):
    """One piece of work to do once, kept until it is done: queued → sending (claimed by a
    worker, ``sending_since`` its lease) → sent; or retry (a temporary failure: due again at
    ``next_attempt_at``, after the kind's back-off) → sending ...; failed (for good, or after
    the kind's most attempts: the admins see it and may queue it again); expired (its time
    ran out before it could be done, or a newer one replaced it). A worker killed while it
    held a row leaves it sending; once the lease ran out the row is due again.

    How rows are claimed, retried and swept is ``durable.queue.Queue``'s, the same for every
    kind."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        RETRY = "retry", _("Waiting to retry")
        FAILED = "failed", _("Failed")
        EXPIRED = "expired", _("Expired (too late, or replaced by a newer one)")

    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.QUEUED, db_index=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    sending_since = models.DateTimeField(_("sending since"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        abstract = True
        indexes = [
            # The claim: rows waiting, by when they are due ...
            models.Index(fields=["next_attempt_at"], name="%(app_label)s_%(class)s_due",
                         condition=Q(status__in=["queued", "retry"])),
            # ... and rows whose worker's lease may have run out.
            models.Index(fields=["sending_since"], name="%(app_label)s_%(class)s_lease",
                         condition=Q(status="sending")),
        ]


class OutboxEvent(Work):
    """A side effect a transaction promised (a signal to its listeners, such as the "your
    move" mail; a task, such as a bot's sheet or a message notice): written inside that
    transaction, so it exists exactly when the change it reports does, and carried out after
    the commit by a worker (``durable.outbox``), or when it is due (``next_attempt_at``), or
    by the sweeper if that never happened. Carrying one out twice is harmless: every listener
    and task is idempotent; the row's status only saves the work."""

    kind = models.CharField(_("kind"), max_length=20,
                            help_text=_("How it is carried out: a signal sent, a task run."))
    name = models.CharField(_("name"), max_length=80,
                            help_text=_("The signal's or the task's name."))
    payload = models.JSONField(_("payload"), default=dict, blank=True, encoder=DjangoJSONEncoder)
    series = models.BigIntegerField(
        _("series"), null=True, blank=True,
        help_text=_("Rows of one series (a match) are carried out in the order written."))
    # (not indexed: a claim, which changes only the status, the lease and the attempts, is
    # then a HOT update, writing no index; its words are a side effect's, not a message's)
    status = models.CharField(_("status"), max_length=10, default=Work.Status.QUEUED, choices=[
        (Work.Status.QUEUED, _("Queued")), (Work.Status.SENDING, _("In progress")),
        (Work.Status.SENT, _("Done")), (Work.Status.RETRY, _("Waiting to retry")),
        (Work.Status.FAILED, _("Failed")), (Work.Status.EXPIRED, _("Expired"))])
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # (due at once unless written due later)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True,
                                           default=timezone.now)
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)

    class Meta(Work.Meta):
        verbose_name = _("outbox event")
        verbose_name_plural = _("outbox events")
        ordering = ["pk"]
        # (Only this one: written at every phase of every match, the table keeps its writes
        # cheap; the sweeper's and the claims' reads go through it too.)
        indexes = [
            # What is still to do, a batch at a time by id (the relay's catch-up, the sweeper;
            # the done rows, nearly all of them, are not in it).
            models.Index(fields=["id"], name="durable_outbox_undone",
                         condition=Q(done_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} {self.payload}"
