from django import forms

from clocks.services import active_hours_of
from portal.accounts.models import Profile, time_zone_choices


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(choices=time_zone_choices, help_text=Profile._meta.get_field(
        "time_zone").help_text)
    active_from = forms.TimeField(
        label="Active hours: from", required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="Optional, in your time zone, e.g. 08:00. Your correspondence clocks run "
                  "only in your active hours, and a deadline that would fall outside them "
                  "while you still owe orders moves to their start (as far as the match "
                  "allows).")
    active_until = forms.TimeField(
        label="Active hours: until", required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="e.g. 23:00 (before the start: past midnight). Leave both empty: always.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        hours = active_hours_of(self.instance.user) if self.instance.pk else None
        if hours is not None:
            self.initial.setdefault("active_from", hours.start)
            self.initial.setdefault("active_until", hours.end)

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("active_from"), cleaned.get("active_until")
        if (start is None) != (end is None) and not self.errors:
            raise forms.ValidationError("Give both ends of your active hours, or neither.")
        return cleaned

    class Meta:
        model = Profile
        fields = ["time_zone", "language", "notifications", "reminder_hours", "chat_handle"]
        widgets = {"notifications": forms.RadioSelect}
        labels = {
            "notifications": "E-mail me about",
            "reminder_hours": "Deadline reminders (hours before)",
            "chat_handle": "Chat handle",
        }


class LeaveForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366, label="Days of leave, from now")
