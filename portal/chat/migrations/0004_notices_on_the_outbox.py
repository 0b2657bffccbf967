"""A match's notice is now an outbox row due when the notice is (durable.outbox); the notices
already due when this runs get theirs (the sweep that used to find them is gone)."""

from django.db import migrations
from django.utils import timezone


def notices_promised(apps, schema_editor):
    due = apps.get_model("chat", "NoticeGathering").objects.filter(due_at__isnull=False)
    now = timezone.now()
    apps.get_model("durable", "OutboxEvent").objects.bulk_create([
        apps.get_model("durable", "OutboxEvent")(
            kind="task", name="portal.chat.tasks.messages_notify", series=match_id,
            payload={"match_id": match_id}, created_at=now, next_attempt_at=due_at)
        for match_id, due_at in due.values_list("match_id", "due_at")])


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0003_notice_gathering"),
        ("durable", "0002_outbox_on_the_queue"),
    ]

    operations = [migrations.RunPython(notices_promised, migrations.RunPython.noop)]
