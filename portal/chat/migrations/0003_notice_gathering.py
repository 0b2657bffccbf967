"""The notices of new messages are gathered per match (one notice per reader for all their
channels) rather than per channel: a ``NoticeGathering`` row per match, made from the
channels' pending notices; the channels keep only their marks."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Max, Min


def gather(apps, schema_editor):
    Channel = apps.get_model("chat", "Channel")
    NoticeGathering = apps.get_model("chat", "NoticeGathering")
    rows = (Channel.objects.values("match_id")
            .annotate(due=Min("notify_due_at"), last=Max("notified_at")))
    NoticeGathering.objects.bulk_create(
        [NoticeGathering(match_id=row["match_id"], due_at=row["due"], notified_at=row["last"])
         for row in rows if row["due"] is not None or row["last"] is not None],
        ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0002_field_labels"),
        ("games", "0026_field_labels"),
    ]

    operations = [
        migrations.CreateModel(
            name="NoticeGathering",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("due_at", models.DateTimeField(blank=True, help_text="When the readers are told of the messages since the last notice (None: nothing to tell).", null=True, verbose_name="notice due at")),
                ("notified_at", models.DateTimeField(blank=True, help_text="When the last notice went out.", null=True, verbose_name="notified at")),
                ("match", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.match", verbose_name="match")),
            ],
            options={
                "verbose_name": "message notice",
                "verbose_name_plural": "message notices",
                "indexes": [models.Index(condition=models.Q(("due_at__isnull", False)), fields=["due_at"], name="chat_notice_due")],
            },
        ),
        migrations.RunPython(gather, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="channel", name="chat_channel_notice_due"),
        migrations.RemoveField(model_name="channel", name="notify_due_at"),
    ]
