"""The outbox on the durable queue: its rows are ``durable.models.Work`` (a status, a lease, a
due time; claimed, retried and swept by ``durable.queue``), its table is durable's own, and
its trigger notifies channel ``durable_outbox`` (the relay, ``durable/relay.py``).

On PostgreSQL every INSERT into the outbox notifies that channel when its transaction commits
(never if it rolls back): the payload lists the new rows as ``kind:id`` separated by commas,
or is ``*`` ("look for undone rows") when that list would not fit PostgreSQL's 8,000-byte
payload. Other databases (the embedded SQLite default) publish on commit instead."""

import django.core.serializers.json
import django.utils.timezone
from django.db import migrations, models

CREATE = """
CREATE FUNCTION durable_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    listed text;
BEGIN
    SELECT string_agg(kind || ':' || id, ',' ORDER BY id) INTO listed FROM inserted;
    IF listed IS NOT NULL THEN
        PERFORM pg_notify('durable_outbox', CASE WHEN length(listed) > 7900 THEN '*'
                                                ELSE listed END);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER durable_outbox_notify AFTER INSERT ON durable_outboxevent
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
    EXECUTE FUNCTION durable_outbox_notify();
"""

DROP = """
DROP TRIGGER IF EXISTS durable_outbox_notify ON durable_outboxevent;
DROP FUNCTION IF EXISTS durable_outbox_notify();
"""

# games 0016's trigger, on the table before it was renamed
DROP_OLD = """
DROP TRIGGER IF EXISTS games_outbox_notify ON games_outboxevent;
DROP FUNCTION IF EXISTS games_outbox_notify();
"""


def old_trigger_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_OLD)


def trigger_create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def trigger_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


def statuses(apps, schema_editor):
    """Done rows are sent; the rest queued, due when written (the sweeper takes them), or
    failed where they used up the old five attempts."""
    rows = apps.get_model("durable", "OutboxEvent").objects
    rows.filter(done_at__isnull=False).update(status="sent", next_attempt_at=None)
    rows.filter(done_at__isnull=True).update(next_attempt_at=models.F("created_at"))
    rows.filter(done_at__isnull=True, attempts__gte=5).update(status="failed",
                                                              next_attempt_at=None)


class Migration(migrations.Migration):

    dependencies = [
        ("durable", "0001_outbox_from_games"),
        ("games", "0032_outbox_to_durable"),
    ]

    operations = [
        migrations.RunPython(old_trigger_drop, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="outboxevent", name="lifecycle_outbox_undone"),
        migrations.RenameField(model_name="outboxevent", old_name="match_id", new_name="series"),
        migrations.AlterField(
            model_name="outboxevent", name="series",
            field=models.BigIntegerField(
                blank=True, null=True, verbose_name="series",
                help_text="Rows of one series (a match) are carried out in the order written.")),
        migrations.RenameField(model_name="outboxevent", old_name="claimed_at",
                               new_name="sending_since"),
        migrations.AlterField(
            model_name="outboxevent", name="sending_since",
            field=models.DateTimeField(blank=True, null=True, verbose_name="sending since")),
        migrations.AddField(
            model_name="outboxevent", name="next_attempt_at",
            field=models.DateTimeField(blank=True, null=True, default=django.utils.timezone.now,
                                       verbose_name="next attempt at")),
        migrations.AlterField(
            model_name="outboxevent", name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now,
                                       verbose_name="created at")),
        migrations.AddField(
            model_name="outboxevent", name="status",
            field=models.CharField(choices=[
                ("queued", "Queued"), ("sending", "In progress"), ("sent", "Done"),
                ("retry", "Waiting to retry"), ("failed", "Failed"), ("expired", "Expired")],
                default="queued", max_length=10, verbose_name="status")),
        migrations.AlterField(
            model_name="outboxevent", name="attempts",
            field=models.PositiveIntegerField(default=0, verbose_name="attempts")),
        migrations.AlterField(
            model_name="outboxevent", name="kind",
            field=models.CharField(help_text="How it is carried out: a signal sent, a task run.",
                                   max_length=20, verbose_name="kind")),
        migrations.AlterField(
            model_name="outboxevent", name="payload",
            field=models.JSONField(blank=True, default=dict,
                                   encoder=django.core.serializers.json.DjangoJSONEncoder,
                                   verbose_name="payload")),
        migrations.RunPython(statuses, migrations.RunPython.noop),
        migrations.AlterModelTable(name="outboxevent", table=None),
        migrations.AddIndex(
            model_name="outboxevent",
            index=models.Index(condition=models.Q(("done_at__isnull", True)),
                               fields=["id"], name="durable_outbox_undone")),
        migrations.RunPython(trigger_create, trigger_drop),
    ]
