"""The outbox's model moved to durable (durable 0001), its table unchanged (state only)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0031_sheets_ahead"),
        ("durable", "0001_outbox_from_games"),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.DeleteModel(name="OutboxEvent"),
    ])]
