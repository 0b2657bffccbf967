from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.services import active_hours_of
from clocks.zones import zone_choices
from portal.accounts.chat_handles import chat_platform
from portal.accounts.models import Channel, Event, Profile
from portal.accounts.notifications import DELIVERED


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=zone_choices,
                                  help_text=Profile._meta.get_field("time_zone").help_text)
    active_from = forms.TimeField(
        label=_("Active hours: from"), required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("Optional, in your time zone, e.g. 08:00. Your correspondence clocks run "
                    "only in your active hours, and a deadline that would fall outside them "
                    "while you still owe orders moves to their start (as far as the match "
                    "allows)."))
    active_until = forms.TimeField(
        label=_("Active hours: until"), required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("e.g. 23:00 (before the start: past midnight). Leave both empty: always."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A zone saved under an old alias stays choosable as it is (the list has current names).
        self.fields["time_zone"].choices = zone_choices(keep=self.instance.time_zone)
        hours = active_hours_of(self.instance.user) if self.instance.pk else None
        if hours is not None:
            self.initial.setdefault("active_from", hours.start)
            self.initial.setdefault("active_until", hours.end)

    def clean_chat_handle(self) -> str:
        """A handle is one chat's id: it is only ever sent to a chat of that kind."""
        handle = self.cleaned_data.get("chat_handle", "").strip()
        if handle and chat_platform(handle) is None:
            raise forms.ValidationError(_(
                "A chat handle is a Discord user id (17 to 20 digits), a Slack member id "
                "(U or W and capitals or digits, like U024BE7LH) or a Matrix id (like "
                "@you:matrix.org)."), code="invalid")
        return handle

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("active_from"), cleaned.get("active_until")
        if (start is None) != (end is None) and not self.errors:
            raise forms.ValidationError(_("Give both ends of your active hours, or neither."))
        return cleaned

    class Meta:
        model = Profile
        fields = ["time_zone", "language", "reminder_hours", "chat_handle", "chat_mentions"]
        labels = {"reminder_hours": _("Deadline reminders (hours before)"),
                  "chat_handle": _("Chat handle"), "language": _("Language"),
                  "chat_mentions": _("Mention me in chats")}


class LeaveForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366, label=_("Days of leave, from now"))


# The choices of one event's row, as columns of the profile's table.
NONE, MAIL, PUSH, BOTH = "none", "mail", "push", "both"
COLUMNS = [(NONE, _("Nothing")), (MAIL, _("E-mail")), (PUSH, _("Push")), (BOTH, _("Both"))]
SENT_ON = {NONE: set(), MAIL: {Channel.MAIL}, PUSH: {Channel.PUSH},
           BOTH: {Channel.MAIL, Channel.PUSH}}


class NotificationsForm(forms.Form):
    """One row per event the site delivers: nothing, e-mail, push or both (push only for a
    player with a push device, and for the events pushed), and how the mails come."""

    mail_delivery = forms.ChoiceField(
        label=_("Your matches' e-mails"), choices=Profile.Delivery.choices,
        widget=forms.RadioSelect,
        help_text=_("A daily digest replaces the e-mails of your move, round reports, "
                    "reminders, results, gamedays and messages."))

    def __init__(self, *args, profile: Profile, has_push: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.profile, self.has_push = profile, has_push
        self.initial.setdefault("mail_delivery", profile.mail_delivery)
        for event in self.events():
            channels = profile.channels_of(event) & self.offered(event)
            self.fields[event] = forms.ChoiceField(
                label=Event(event).label, widget=forms.RadioSelect,
                choices=[(key, label) for key, label in COLUMNS
                         if SENT_ON[key] <= self.offered(event)],
                error_messages={"invalid_choice": _(
                    "“%(value)s” is not one of the choices of this event.")})
            self.initial.setdefault(event, next(
                key for key, sent in SENT_ON.items() if sent == channels))

    @staticmethod
    def events() -> list[str]:
        return [event for event in Event.values if DELIVERED[event]]

    def offered(self, event: str) -> set[str]:
        return {c for c in DELIVERED[event] if c != Channel.PUSH or self.has_push}

    def rows(self) -> list[dict]:
        """The table: each event's label, errors and one radio button (or None) per column."""
        rows = []
        for event in self.events():
            field = self[event]
            buttons = {widget.data["value"]: widget for widget in field.subwidgets}
            rows.append({"field": field,
                         "cells": [buttons.get(key) for key, _label in COLUMNS]})
        return rows

    def channels(self) -> dict[str, list[str]]:
        """Every event's channels after this form: the offered ones as chosen, the rest (an
        event not shown, push without a device, webhooks) as they were."""
        channels = {}
        for event in Event.values:
            kept = self.profile.channels_of(event) - self.offered(event)
            chosen = SENT_ON[self.cleaned_data[event]] if event in self.fields else set()
            channels[event] = sorted(kept | chosen)
        return channels
