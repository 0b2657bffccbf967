"""The outbox's undone rows indexed by id: the sweeper and the relay's catch-up read them a
batch at a time after the last batch's highest id (the index by creation time it replaces
served the old single read, oldest first)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_moderation_excuse_strike_kinds'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='outboxevent',
            name='lifecycle_outbox_pending',
        ),
        migrations.AddIndex(
            model_name='outboxevent',
            index=models.Index(condition=models.Q(('done_at__isnull', True)), fields=['id'], name='lifecycle_outbox_undone'),
        ),
    ]
