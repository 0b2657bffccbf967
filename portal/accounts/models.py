"""A player's profile: time zone and how they want to hear about their matches."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clocks.zones import zone_names
from games.parsing import InvalidNumber, parse_int

# Reminders further out than this are not reminders any more.
MAX_REMINDER_HOURS = 7 * 24


def parse_reminder_hours(value: str) -> list[int]:
    """``"24, 1"`` → ``[24, 1]``; ValidationError naming the bad item otherwise."""
    hours: list[int] = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        try:
            number = parse_int(item, min=0, max=10**9, field="reminder_hours")
        except InvalidNumber:
            raise ValidationError(
                _("“%(item)s” is not a whole number of hours; write e.g. “24,1”."),
                code="invalid", params={"item": item[:20]},
            ) from None
        if not 1 <= number <= MAX_REMINDER_HOURS:
            raise ValidationError(
                _("%(number)s is out of range: reminders go from 1 to %(most)s hours before a "
                  "deadline."),
                code="out_of_range", params={"number": number, "most": MAX_REMINDER_HOURS},
            )
        hours.append(number)
    return sorted(set(hours), reverse=True)


def validate_reminder_hours(value: str) -> None:
    parse_reminder_hours(value)


def validate_chat_handle(value: str) -> None:
    """A chat handle is put into chat messages: plain characters only, no markup."""
    if any(not char.isprintable() or char in "<>" for char in value):
        raise ValidationError(
            _("A chat handle may not hold < or > or control characters."), code="invalid")


def validate_time_zone(value: str) -> None:
    if value != "UTC" and ("/" not in value or value not in zone_names()):
        raise ValidationError(_("“%(value)s” is not a known time zone."), code="invalid",
                              params={"value": value})


class Event(models.TextChoices):
    """What a player can hear about; each is delivered on the channels they chose for it."""

    YOUR_MOVE = "your_move", _("Your move (a phase opened in which you must act)")
    PHASE_RESOLVED = "phase_resolved", _("Round report (a phase was resolved)")
    MATCH_ENDED = "match_ended", _("Result (a match of yours ended)")
    REMINDER = "reminder", _("Deadline reminder")
    GAMEDAY = "gameday", _("A gameday began")
    LEAVE = "leave", _("Leave and holidays")
    ROUND_STARTED = "round_started", _("Tournament rounds and results")
    MESSAGE = "message", _("Messages in a match")
    VOTE = "vote", _("Votes to end a match (draw, cancel) and concessions")
    SEAT = "seat", _("Seats of your matches: seeking a new commander, or taken")


class Channel(models.TextChoices):
    MAIL = "mail", _("E-mail")
    PUSH = "push", _("Push")
    WEBHOOK = "webhook", _("Webhook")


# Mail and push as a new player gets them (and as "your move and results" gave them before the
# per-event choices): every push the site sends, mail for all but round reports; webhooks (set
# up on purpose) get everything.
DEFAULT_MAIL = {Event.YOUR_MOVE, Event.MATCH_ENDED, Event.REMINDER, Event.GAMEDAY, Event.LEAVE,
                Event.ROUND_STARTED, Event.MESSAGE, Event.VOTE,
                Event.SEAT}
DEFAULT_PUSH = {Event.YOUR_MOVE, Event.MATCH_ENDED, Event.REMINDER, Event.GAMEDAY, Event.MESSAGE}


def default_channels() -> dict[str, list[str]]:
    """Event key → the channels it goes out on."""
    return {event: [channel for channel, on in (
        (Channel.MAIL, event in DEFAULT_MAIL), (Channel.PUSH, event in DEFAULT_PUSH),
        (Channel.WEBHOOK, True)) if on] for event in Event.values}


def validate_channels(value: object) -> None:
    """A mapping of known events to lists of known channels (a missing event: its default)."""
    if not isinstance(value, dict):
        raise ValidationError(_("Notification channels must be a mapping of events."),
                              code="invalid")
    for event, channels in value.items():
        if event not in Event.values:
            raise ValidationError(_("“%(event)s” is not an event."), code="invalid",
                                  params={"event": str(event)[:30]})
        if not isinstance(channels, list) or not set(channels) <= set(Channel.values):
            raise ValidationError(_("The channels of “%(event)s” must be a list of "
                                    "%(channels)s."), code="invalid",
                                  params={"event": event, "channels": ", ".join(Channel.values)})


class Profile(models.Model):
    class Delivery(models.TextChoices):
        IMMEDIATE = "now", _("Each e-mail as it happens")
        DAILY_DIGEST = "digest", _("One daily digest of my matches")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="profile"
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        verbose_name=_("time zone"),
        help_text=_("Deadlines are shown in this time zone."),
    )
    channels = models.JSONField(
        default=default_channels, validators=[validate_channels],
        verbose_name=_("notification channels"),
        help_text=_("Event → the channels it goes out on (mail, push, webhook); a missing "
                    "event: its default."))
    mail_delivery = models.CharField(
        max_length=10, choices=Delivery.choices, default=Delivery.IMMEDIATE,
        verbose_name=_("e-mail delivery"),
        help_text=_("A daily digest replaces the mails of match events (your move, reports, "
                    "reminders, results, gamedays)."))
    reminder_hours = models.CharField(
        max_length=60,
        blank=True,
        default="24,1",
        validators=[validate_reminder_hours],
        verbose_name=_("deadline reminders (hours before)"),
        help_text=_("Hours before an unmet deadline, e.g. “24,1”; empty for none."),
    )
    language = models.CharField(
        max_length=10,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        verbose_name=_("language"),
        help_text=_("Pages and e-mails in this language; empty: the browser's."),
    )
    chat_handle = models.CharField(
        max_length=100,
        blank=True,
        default="",
        validators=[validate_chat_handle],
        verbose_name=_("chat handle"),
        help_text=_("Optional: your Discord user id, Slack member id or Matrix id (like "
                    "@you:matrix.org), for the chats of your matches and clubs to mention you "
                    "when it is your move (if you allow it below)."),
    )
    chat_mentions = models.BooleanField(
        default=False,
        verbose_name=_("mention me in chats"),
        help_text=_("The Discord, Slack and Matrix chats that follow your matches may mention "
                    "you by your chat handle: a Discord id only on Discord, a Slack id only on "
                    "Slack, a Matrix id only on Matrix. Other webhooks never get it."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    def __str__(self) -> str:
        return gettext("Profile of %(user)s") % {"user": self.user}

    def channels_of(self, event: str) -> set[str]:
        """The channels ``event`` goes out on for this player."""
        stored = (self.channels or {}).get(event)
        return set(stored if stored is not None else default_channels()[event])

    @property
    def reminders(self) -> list[int]:
        """Reminder offsets in hours, largest first."""
        return parse_reminder_hours(self.reminder_hours)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
