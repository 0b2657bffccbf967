from django import forms

from portal.accounts.models import Profile, time_zone_choices


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(choices=time_zone_choices, help_text=Profile._meta.get_field(
        "time_zone").help_text)

    class Meta:
        model = Profile
        fields = ["time_zone", "language", "notifications", "reminder_hours"]
        widgets = {"notifications": forms.RadioSelect}
        labels = {
            "notifications": "E-mail me about",
            "reminder_hours": "Deadline reminders (hours before)",
        }


class LeaveForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366, label="Days of leave, from now")
