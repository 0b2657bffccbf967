"""A received e-mail is now stored with an outbox row that has a worker process it
(durable.outbox); those received and not processed when this runs get theirs (the sweep that
used to find them is gone)."""

from django.db import migrations
from django.utils import timezone


def processing_promised(apps, schema_editor):
    waiting = apps.get_model("mail", "InboundMessage").objects.filter(status="received")
    now = timezone.now()
    apps.get_model("durable", "OutboxEvent").objects.bulk_create([
        apps.get_model("durable", "OutboxEvent")(
            kind="task", name="portal.mail.tasks.inbound_process", payload={"inbound_id": pk},
            created_at=now, next_attempt_at=now)
        for pk in waiting.values_list("pk", flat=True)])


class Migration(migrations.Migration):

    dependencies = [
        ("mail", "0011_field_labels"),
        ("durable", "0002_outbox_on_the_queue"),
    ]

    operations = [migrations.RunPython(processing_promised, migrations.RunPython.noop)]
