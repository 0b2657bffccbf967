"""Messages between the commanders of a match: channels (public, private among seats, a game's
own), messages, who read what, whom a player muted, and the moderators' hiding of a message.

Who may read a channel is decided in one place, ``portal.chat.access``; every page, partial,
mail, push and API answer asks it. A message's text is never deleted: a moderator hides it
(``MessageHide`` keeps who, when and why), and from then on only the moderators' audit shows it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# A message longer than this is refused (characters, after trimming).
MESSAGE_MAX_CHARS = 2000
PUBLIC_KEY = "public"


class Channel(models.Model):
    """Where a message goes: the match's public channel, a private channel among a set of
    seats, or a channel the game declares (``GamePlugin.message_channels``). A row is made when
    the first message is sent to it.

    ``notified_up_to`` and ``notified_at`` mark what its readers were told of; when they are
    told is the match's ``NoticeGathering`` (``portal.chat.notify``)."""

    class Kind(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")
        GAME = "game", _("The game's own")

    match = models.ForeignKey("games.Match", verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="chat_channels")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    # "public"; "seats-1-3" (a private channel: its seats, in order); the game's key.
    key = models.CharField(_("key"), max_length=400)
    seats = models.JSONField(_("seats"), default=list, blank=True,
                             help_text=_("A private channel's seat numbers, in order."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    notified_up_to = models.BigIntegerField(
        _("notified up to"), default=0,
        help_text=_("The last message the readers were told about (its id)."))
    notified_at = models.DateTimeField(_("notified at"), null=True, blank=True)

    class Meta:
        verbose_name = _("message channel")
        verbose_name_plural = _("message channels")
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="chat_channel_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.key}"


class NoticeGathering(models.Model):
    """When the readers of a match's messages are next told of them: one notice for each
    reader covering every channel they read, at most one every few minutes, however many
    messages and channels (a player writing each message to a new private channel still
    makes one notice). The first message nobody was told about sets ``due_at``; the flush
    then tells each reader of every channel's messages since its ``notified_up_to``
    (``portal.chat.notify``). A message is written under this row's lock, so the flush sees
    every message sent before it."""

    match = models.OneToOneField("games.Match", verbose_name=_("match"),
                                 on_delete=models.CASCADE, related_name="+")
    due_at = models.DateTimeField(
        _("notice due at"), null=True, blank=True,
        help_text=_("When the readers are told of the messages since the last notice "
                    "(None: nothing to tell)."))
    notified_at = models.DateTimeField(_("notified at"), null=True, blank=True,
                                       help_text=_("When the last notice went out."))

    class Meta:
        verbose_name = _("message notice")
        verbose_name_plural = _("message notices")
        indexes = [
            # The notices' sweeper: matches whose notice is due.
            models.Index(fields=["due_at"], name="chat_notice_due",
                         condition=Q(due_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}"


class Message(models.Model):
    """One message, plain text, from one seat's player to a channel."""

    class Source(models.TextChoices):
        WEB = "web", _("Web")
        EMAIL = "email", _("E-mail reply")
        API = "api", _("API")

    channel = models.ForeignKey(Channel, verbose_name=_("channel"), on_delete=models.CASCADE,
                                related_name="messages")
    match = models.ForeignKey("games.Match", verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"), null=True,
                               on_delete=models.SET_NULL,
                               related_name="+")
    text = models.TextField(_("text"), max_length=MESSAGE_MAX_CHARS)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    created_at = models.DateTimeField(_("created at"))
    hidden = models.BooleanField(_("hidden"), default=False, help_text=_("Hidden by a moderator "
                                                                         "(see its MessageHide)."))
    # What makes a message the same message when it arrives again (an e-mail reply delivered
    # twice: "mail:<inbound id>"); None for the others.
    dedupe_key = models.CharField(_("deduplication key"), max_length=80, null=True, blank=True,
                                  unique=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["channel", "pk"]
        permissions = [("hide_message", "Can hide a message (moderators)")]
        indexes = [
            models.Index(fields=["channel", "id"], name="chat_message_channel"),
            # The per-seat rate limit: a seat's latest messages in a match.
            models.Index(fields=["match", "seat_number", "created_at"],
                         name="chat_message_seat_recent"),
        ]

    def __str__(self) -> str:
        return gettext("message %(number)s in %(channel)s") % {"number": self.pk,
                                                               "channel": self.channel_id}


class MessageHide(models.Model):
    """Audit row: a moderator hid a message (why, who, when). The message's text stays in the
    database for this audit and is shown to nobody else ever again."""

    message = models.OneToOneField(Message, verbose_name=_("message"), on_delete=models.CASCADE,
                                   related_name="hide")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("hidden by"), null=True,
                           on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(_("hidden at"))
    reason = models.TextField(_("reason"))

    class Meta:
        verbose_name = _("hidden message")
        verbose_name_plural = _("hidden messages")
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="chat_hide_reason_required"),
        ]

    def __str__(self) -> str:
        return gettext("message %(number)s hidden") % {"number": self.message_id}


class ChannelRead(models.Model):
    """How far one player has read one channel (unread counts, and no mail about what they
    have read already)."""

    channel = models.ForeignKey(Channel, verbose_name=_("channel"), on_delete=models.CASCADE,
                                related_name="reads")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="+")
    last_read_id = models.BigIntegerField(_("last message read"), default=0)

    class Meta:
        verbose_name = _("channel read mark")
        verbose_name_plural = _("channel read marks")
        constraints = [
            models.UniqueConstraint(fields=["channel", "user"], name="chat_read_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s read %(channel)s") % {"user": self.user, "channel": self.channel}


class Mute(models.Model):
    """A player muted another, for themselves: that player's messages are not shown to them,
    counted as unread, mailed or pushed to them, in any match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("muted player"),
                              on_delete=models.CASCADE,
                              related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("muted player")
        verbose_name_plural = _("muted players")
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(user=models.F("muted")),
                                   name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s mutes %(muted)s") % {"user": self.user, "muted": self.muted}
