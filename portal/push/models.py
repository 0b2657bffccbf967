"""Web push: each browser a player turned push on in (a subscription), and the push outbox
(every notification is a row first, sent by a task, like the e-mail outbox)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.delivery.models import Delivery


class PushSubscription(models.Model):
    """One browser (device) of one player: where its push service takes our messages
    (``endpoint``) and the keys its messages are encrypted for (RFC 8291). A push service that
    answers 404 or 410 for it means it is gone: the row is deleted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key (p256dh)"), max_length=100,
                              help_text=_("The browser's public key (base64url)."))
    auth = models.CharField(_("authentication secret"), max_length=40,
                            help_text=_("The browser's auth secret (base64url)."))
    label = models.CharField(_("label"), max_length=100, blank=True,
                             help_text=_("Which device, for its owner."))
    your_move = models.BooleanField(_("your move"), default=True,
                                    help_text=_("A phase opened and I must act."))
    reminders = models.BooleanField(_("reminders"), default=True,
                                    help_text=_("A deadline is near and I have "
                                                "not acted."))
    results = models.BooleanField(_("results"), default=True, help_text=_("A match of mine ended."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_sent_at = models.DateTimeField(_("last sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["user", "created_at", "pk"]

    def __str__(self) -> str:
        return gettext("%(label)s of %(user)s") % {"label": self.label or gettext("a browser"),
                                                   "user": self.user}

    def wants(self, kind: str) -> bool:
        return {PushMessage.Kind.YOUR_MOVE: self.your_move, PushMessage.Kind.REMINDER:
                self.reminders, PushMessage.Kind.RESULT: self.results}.get(kind, True)


class PushMessage(Delivery):
    """One notification to one subscription (``portal.delivery``: queued → sending → sent, or
    retry (the push service was busy or down) / failed / expired (its time to live ran out
    before it could be sent, or a newer message on the same topic replaced it)). ``dedupe_key``
    is unique, so an event reported twice pushes once."""

    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        REMINDER = "reminder", _("Deadline reminder")
        RESULT = "result", _("Result")
        MESSAGE = "message", _("New messages")
        TEST = "test", _("Test")

    subscription = models.ForeignKey(PushSubscription, verbose_name=_("subscription"),
                                     on_delete=models.CASCADE,
                                     related_name="messages")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    topic = models.CharField(_("topic"), max_length=32, blank=True,
                             help_text=_("A newer undelivered message on the same topic replaces "
                                         "an older one (RFC 8030 Topic)."))
    payload = models.JSONField(_("payload"))
    urgency = models.CharField(_("urgency"), max_length=8, default="normal")
    expires_at = models.DateTimeField(_("expires at"),
                                      help_text=_("Its time to live ends: never sent after."))

    class Meta(Delivery.Meta):
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return gettext("%(kind)s push to %(subscription)s (%(status)s)") % {
            "kind": self.get_kind_display(), "subscription": self.subscription,
            "status": self.get_status_display()}
