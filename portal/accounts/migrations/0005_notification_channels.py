"""Per-event notification channels replace the one "notifications" choice; nobody's mail or
push changes: "every event" turns round reports on, "nothing" turns every mail off but the
leave confirmation (always sent before), "daily digest" becomes the digest delivery. Mails a
player unsubscribed from (MailOptOut rows) become that event's mail turned off."""

from django.db import migrations, models

import portal.accounts.models

# The old choice → events whose mail is on (push was never tied to it: the defaults stay).
MAIL_OFF = {
    "all": set(),
    "turn": {"phase_resolved"},
    "digest": {"phase_resolved"},
    "none": {"your_move", "phase_resolved", "match_ended", "reminder", "gameday",
             "round_started", "message"},
}
# An opt-out of a kind of mail → the events whose mail it stopped.
OPTED_OUT = {
    "phase_opened": {"your_move", "gameday"},
    "reminder": {"reminder"},
    "phase_resolved": {"phase_resolved"},
    "match_ended": {"match_ended"},
    "competition": {"round_started"},
}
DIGESTED = {"your_move", "phase_resolved", "match_ended", "reminder", "gameday"}


def forward(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    MailOptOut = apps.get_model("mail", "MailOptOut")
    opt_outs: dict[int, set[str]] = {}
    for user_id, kind in MailOptOut.objects.values_list("user_id", "kind"):
        opt_outs.setdefault(user_id, set()).update(
            DIGESTED if kind == "digest" else OPTED_OUT.get(kind, set()))
    for profile in Profile.objects.all().iterator():
        off = MAIL_OFF.get(profile.notifications, set()) | opt_outs.get(profile.user_id, set())
        channels = portal.accounts.models.default_channels()
        if profile.notifications == "all":
            channels["phase_resolved"].append("mail")
        for event in off:
            channels[event] = [c for c in channels[event] if c != "mail"]
        profile.channels = channels
        profile.mail_delivery = "digest" if profile.notifications == "digest" else "now"
        profile.save(update_fields=["channels", "mail_delivery"])
    MailOptOut.objects.filter(user_id__in=list(opt_outs)).exclude(
        kind__in=["reply", "leave"]).delete()


def backward(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.all().iterator():
        mailed = {event for event, channels in (profile.channels or {}).items()
                  if "mail" in channels}
        if profile.mail_delivery == "digest":
            profile.notifications = "digest"
        elif "phase_resolved" in mailed:
            profile.notifications = "all"
        elif mailed & {"your_move", "match_ended", "reminder"}:
            profile.notifications = "turn"
        else:
            profile.notifications = "none"
        profile.save(update_fields=["notifications"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_profile_chat_handle"),
        ("mail", "0006_inbound_authentication_answers_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="channels",
            field=models.JSONField(
                default=portal.accounts.models.default_channels,
                help_text="Event → the channels it goes out on (mail, push, webhook); a missing "
                          "event: its default.",
                validators=[portal.accounts.models.validate_channels]),
        ),
        migrations.AddField(
            model_name="profile",
            name="mail_delivery",
            field=models.CharField(
                choices=[("now", "Each e-mail as it happens"),
                         ("digest", "One daily digest of my matches")],
                default="now", max_length=10,
                help_text="A daily digest replaces the mails of match events (your move, "
                          "reports, reminders, results, gamedays)."),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="profile", name="notifications"),
    ]
