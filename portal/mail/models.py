"""The outbox (every email we send is a row first) and the inbox (every email we receive)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.delivery.models import Delivery


class OutgoingEmail(Delivery):
    """One email to send (``portal.delivery``: queued → sending → sent, or retry / failed).

    ``dedupe_key`` is unique, so an event creates its email once however often it is reported
    (e.g. ``phase_opened:m12:p3:u7``).
    """

    class Kind(models.TextChoices):
        PHASE_OPENED = "phase_opened", _("Phase opened (your move)")
        REMINDER = "reminder", _("Deadline reminder")
        PHASE_RESOLVED = "phase_resolved", _("Round report")
        MATCH_ENDED = "match_ended", _("Final result")
        DIGEST = "digest", _("Daily digest")
        REPLY = "reply", _("Answer to an emailed order sheet")
        LEAVE = "leave", _("Leave taken (vacation)")
        COMPETITION = "competition", _("Clubs and tournaments (invitations, rounds, results)")
        VOTE = "vote", _("Votes to end a match and concessions")
        SEAT = "seat", _("A seat seeking a new commander, or taken")
        MESSAGE = "message", _("New messages in a match")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+"
    )
    phase_number = models.PositiveIntegerField(_("phase number"), null=True, blank=True)
    to = models.CharField(_("recipient"), max_length=254)
    reply_to = models.CharField(_("reply to"), max_length=254, blank=True)
    subject = models.CharField(_("subject"), max_length=255)
    body_text = models.TextField(_("text body"))
    body_html = models.TextField(_("HTML body"), blank=True)
    headers = models.JSONField(_("headers"), default=dict, blank=True)

    class Meta(Delivery.Meta):
        verbose_name = _("outgoing e-mail")
        verbose_name_plural = _("outgoing e-mails")
        ordering = ["-created_at", "-pk"]
        indexes = [
            *Delivery.Meta.indexes,
            # The answers mailed to one address in the last hour (a cap on backscatter).
            models.Index(
                fields=["to", "created_at"], name="outbox_answers_to",
                condition=Q(kind="reply"),
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s to %(to)s (%(status)s)") % {
            "kind": self.get_kind_display(), "to": self.to, "status": self.get_status_display()}


class InboundMessage(models.Model):
    """A received email, stored before anything else happens to it; then its outcome."""

    class Status(models.TextChoices):
        RECEIVED = "received", _("Received, not processed yet")
        ACCEPTED = "accepted", _("Orders accepted")
        REFUSED = "refused", _("Refused (answered when it carried a valid reply token)")
        IGNORED = "ignored", _("Ignored (not answered)")
        ERROR = "error", _("Processing failed")

    class Source(models.TextChoices):
        PIPE = "pipe", _("MTA pipe (stdin)")
        MAILDIR = "maildir", _("Maildir")
        WEBHOOK = "webhook", _("ESP webhook (anymail)")

    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    raw = models.BinaryField(_("raw message"),
                             help_text=_("The message as received (cut at the size limit)."))
    size = models.PositiveIntegerField(_("size"), help_text=_("Size in bytes as received."))
    sender = models.CharField(_("sender"), max_length=254, blank=True, db_index=True)
    subject = models.CharField(_("subject"), max_length=255, blank=True)
    message_id = models.CharField(_("Message-ID"), max_length=255, blank=True)
    fingerprint = models.CharField(
        _("fingerprint"), max_length=64, unique=True, null=True, blank=True,
        help_text=_("sha256 of sender and Message-ID (of the bytes when there is none): a message "
                    "delivered again is this row, processed once."),
    )
    deliveries = models.PositiveIntegerField(
        _("deliveries"), default=1,
        help_text=_("How often this message arrived (MTA retries, webhook re-posts)."))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RECEIVED, db_index=True
    )
    outcome = models.CharField(
        _("outcome"), max_length=40, blank=True,
        help_text=_("Why: accepted, bad_token, wrong_sender, not_authentic, loop, ...")
    )
    error = models.TextField(_("error"), blank=True)
    authentication = models.CharField(
        _("authentication"), max_length=200, blank=True,
        help_text=_("DKIM and DMARC results of the receiving server's Authentication-Results "
                    "header, e.g. \"dkim=pass dmarc=pass (by mx.example.org)\"; empty: none."))
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+"
    )
    seat_number = models.PositiveSmallIntegerField(_("seat number"), null=True, blank=True)
    phase_number = models.PositiveIntegerField(_("phase number"), null=True, blank=True)
    receipt = models.CharField(_("receipt"), max_length=64, blank=True)
    received_at = models.DateTimeField(_("received at"), auto_now_add=True, db_index=True)
    processed_at = models.DateTimeField(_("processed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("incoming e-mail")
        verbose_name_plural = _("incoming e-mails")
        ordering = ["-received_at", "-pk"]

    def __str__(self) -> str:
        return gettext("Mail from %(sender)s (%(status)s)") % {
            "sender": self.sender or "?", "status": self.get_status_display()}


class FailingAddress(models.Model):
    """An address our mail cannot reach (a bounce, a delivery report) or whose owner called it
    spam (a complaint): nothing more is sent to it until its player says it works again (or
    changes it), and the site shows them a banner meanwhile."""

    class Reason(models.TextChoices):
        BOUNCE = "bounce", _("Bounced")
        COMPLAINT = "complaint", _("Reported as spam")
        REJECTED = "rejected", _("Rejected by the mail provider")

    address = models.CharField(_("address"), max_length=254, unique=True,
                               help_text=_("Lower-cased."))
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    detail = models.TextField(_("detail"), blank=True,
                              help_text=_("What the report or the ESP said."))
    source = models.CharField(_("source"), max_length=40, blank=True,
                              help_text=_("dsn, anymail:<esp>, ..."))
    count = models.PositiveIntegerField(_("count"), default=1)
    first_at = models.DateTimeField(_("first seen at"), auto_now_add=True)
    last_at = models.DateTimeField(_("last seen at"), auto_now=True)

    def __str__(self) -> str:
        return f"{self.address} ({self.get_reason_display()})"

    class Meta:
        verbose_name = _("failing address")
        verbose_name_plural = _("failing addresses")


class MailOptOut(models.Model):
    """A kind of mail a user turned off (from the List-Unsubscribe link of one of them)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="mail_opt_outs")
    kind = models.CharField(_("kind"), max_length=20, choices=OutgoingEmail.Kind.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("mail opt-out")
        verbose_name_plural = _("mail opt-outs")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_opt_out")]

    def __str__(self) -> str:
        return gettext("%(user)s does not want: %(kind)s") % {"user": self.user,
                                                               "kind": self.get_kind_display()}
