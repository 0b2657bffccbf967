"""On PostgreSQL, every INSERT into the outbox notifies channel ``games_outbox`` when its
transaction commits (never if it rolls back): the payload lists the new rows as
``kind:id`` separated by commas, or is ``*`` ("look for undone rows") when that list would
not fit PostgreSQL's 8,000-byte payload. The outbox relay (``games/relay.py``) listens and
queues their dispatch, so a transaction that writes side effects no longer publishes a task
itself. Other databases (the embedded SQLite default) keep publishing on commit."""

from django.db import migrations

CREATE = """
CREATE FUNCTION games_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    listed text;
BEGIN
    SELECT string_agg(kind || ':' || id, ',' ORDER BY id) INTO listed FROM inserted;
    IF listed IS NOT NULL THEN
        PERFORM pg_notify('games_outbox', CASE WHEN length(listed) > 7900 THEN '*'
                                              ELSE listed END);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER games_outbox_notify AFTER INSERT ON games_outboxevent
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
    EXECUTE FUNCTION games_outbox_notify();
"""

DROP = """
DROP TRIGGER IF EXISTS games_outbox_notify ON games_outboxevent;
DROP FUNCTION IF EXISTS games_outbox_notify();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_moderation_retry_abort")]
    operations = [migrations.RunPython(create, drop)]
