"""The "vote" event (votes to end a match and concessions, docs/votes.md): a player gets its
mail when they get the result's mail, so nobody who turned result mails off starts getting
these; webhooks get it as they get every event."""

from django.db import migrations


def forward(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.all().iterator():
        channels = dict(profile.channels or {})
        ended = channels.get("match_ended", ["mail", "push", "webhook"])
        channels["vote"] = (["mail"] if "mail" in ended else []) + ["webhook"]
        profile.channels = channels
        profile.save(update_fields=["channels"])


def backward(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.all().iterator():
        channels = dict(profile.channels or {})
        if channels.pop("vote", None) is not None:
            profile.channels = channels
            profile.save(update_fields=["channels"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_alter_profile_channels_alter_profile_chat_handle_and_more")]

    operations = [migrations.RunPython(forward, backward)]
