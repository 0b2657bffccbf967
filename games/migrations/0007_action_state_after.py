"""Checkpoints for replays: a tick row keeps the state after it (lz4-compressed on PostgreSQL,
as the match state is), so the logbook slider replays one gameday, not the whole match."""

from django.db import migrations, models


def use_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
                       "AND 'lz4' = ANY(enumvals)")
        if cursor.fetchone():
            cursor.execute("ALTER TABLE games_action ALTER COLUMN state_after "
                           "SET COMPRESSION lz4")


class Migration(migrations.Migration):

    dependencies = [("games", "0006_outbox_and_sweep_claims")]

    operations = [
        migrations.AddField(
            model_name="action",
            name="state_after",
            field=models.JSONField(
                blank=True, null=True,
                help_text="Ticks only: the engine state after this tick, a checkpoint replays "
                          "start from (so a replay is as long as a gameday, not the whole match).",
            ),
        ),
        migrations.AlterField(
            model_name="action",
            name="events",
            field=models.JSONField(
                blank=True, default=list,
                help_text="The logbook entries this input gave (rewritten by a strike-out's "
                          "replay).",
            ),
        ),
        migrations.AddIndex(
            model_name="action",
            index=models.Index(condition=models.Q(("kind", "tick")), fields=["match", "seq"],
                               name="action_tick_seq"),
        ),
        migrations.RunPython(use_lz4, migrations.RunPython.noop),
    ]
