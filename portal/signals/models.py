"""What the site records to help moderators (a login's or a submission's network and device),
the relationships players declare, and the signals the queue shows, with the moderators'
actions on them (the audit rows)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _


class ClientTrace(models.Model):
    """One login or one submission: the client's network (its address cut to /24 or /48) and
    device cookie; nothing more. Deleted after ``TRACE_RETENTION_DAYS``."""

    class Kind(models.TextChoices):
        LOGIN = "login", _("Login")
        SUBMISSION = "submission", _("Submission")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="client_traces")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    network = models.CharField(_("network"), max_length=49, blank=True,
                               help_text=_("The address cut to its /24 (IPv4) or /48 (IPv6)."))
    device = models.CharField(_("device"), max_length=40, blank=True,
                              help_text=_("The random id of the browser's device cookie."))
    match = models.ForeignKey("games.Match", verbose_name=_("match"), null=True, blank=True,
                              on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(_("when"), db_index=True)

    class Meta:
        verbose_name = _("network and device trace")
        verbose_name_plural = _("network and device traces")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["match", "user"], name="trace_match_user")]

    def __str__(self) -> str:
        return gettext("%(kind)s of %(user)s") % {"kind": self.get_kind_display(),
                                                  "user": self.user}


class Relationship(models.Model):
    """Two players who said they share a household or a club room: the queue shows them apart
    and never flags them for sharing a network. ``first`` has the smaller id."""

    class Kind(models.TextChoices):
        HOUSEHOLD = "household", _("Same household")
        CLUB_ROOM = "club_room", _("Same club room")

    first = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("first player"),
                              on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("second player"),
                               on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    declared_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("declared by"),
                                    on_delete=models.CASCADE, related_name="+")
    declared_at = models.DateTimeField(_("declared at"), auto_now_add=True)

    class Meta:
        verbose_name = _("declared relationship")
        verbose_name_plural = _("declared relationships")
        ordering = ["-declared_at"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="relationship_unique_pair"),
            models.CheckConstraint(condition=Q(first__lt=F("second")),
                                   name="relationship_ordered_pair"),
        ]

    def __str__(self) -> str:
        return gettext("%(first)s and %(second)s: %(kind)s") % {
            "first": self.first, "second": self.second, "kind": self.get_kind_display()}


class Signal(models.Model):
    """Something a moderator may want to look at, with its evidence; never a verdict. Each is
    found once (``key``); only a moderator acts on it (``SignalAction``)."""

    class Kind(models.TextChoices):
        SHARED_NETWORK = "shared_network", _("Two accounts of one match share a network")
        SHARED_DEVICE = "shared_device", _("Two accounts of one match share a device")
        SYNCHRONISED = "synchronised", _("Two seats' sheets arrive together again and again")
        SUPPORT = "support", _("A seat's moves always spare one other seat")
        NEW_ACCOUNT = "new_account", _("A new account took a seat seeking a commander")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("signal", "Open")
        DISMISSED = "dismissed", _("Dismissed")
        CASE = "case", _("Case opened")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    key = models.CharField(_("key"), max_length=120, unique=True,
                           help_text=_("What makes it the same signal when found again."))
    match = models.ForeignKey("games.Match", verbose_name=_("match"), null=True, blank=True,
                              on_delete=models.CASCADE, related_name="+")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("first account"),
                              on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("second account"),
                               null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    evidence = models.JSONField(_("evidence"), default=dict, blank=True)
    declared = models.BooleanField(
        _("declared pair"), default=False,
        help_text=_("The two accounts declared a relationship (shown apart)."))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN, db_index=True)
    found_at = models.DateTimeField(_("found at"))

    class Meta:
        verbose_name = _("signal")
        verbose_name_plural = _("signals")
        ordering = ["-found_at", "-pk"]

    def __str__(self) -> str:
        return gettext("%(kind)s (#%(number)s)") % {"kind": self.get_kind_display(),
                                                    "number": self.pk}


class SignalAction(models.Model):
    """Audit row: a moderator dismissed a signal, noted something on it, or opened a case."""

    class Action(models.TextChoices):
        DISMISS = "dismiss", _("Dismiss")
        NOTE = "note", _("Note")
        OPEN_CASE = "open_case", _("Open a case")

    signal = models.ForeignKey(Signal, verbose_name=_("signal"), on_delete=models.CASCADE,
                               related_name="actions")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("moderator"), null=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("when"))
    note = models.TextField(_("note"))

    class Meta:
        verbose_name = _("signal action")
        verbose_name_plural = _("signal actions")
        ordering = ["at", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(note=""),
                                              name="signalaction_note_required")]

    def __str__(self) -> str:
        return gettext("%(action)s by %(by)s") % {"action": self.get_action_display(),
                                                  "by": self.by}
