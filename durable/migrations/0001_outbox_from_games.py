"""The outbox's model moves from games to durable, its table unchanged (state only)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [("games", "0031_sheets_ahead")]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.CreateModel(
            name='OutboxEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('signal', 'signal'), ('task', 'task')], max_length=8, verbose_name='kind')),
                ('name', models.CharField(help_text="The signal's or the task's name.", max_length=80, verbose_name='name')),
                ('payload', models.JSONField(blank=True, default=dict, verbose_name='payload')),
                ('match_id', models.BigIntegerField(blank=True, null=True, verbose_name='match')),
                ('created_at', models.DateTimeField(verbose_name='created at')),
                ('claimed_at', models.DateTimeField(blank=True, help_text='When a dispatcher took it (a lease).', null=True, verbose_name='claimed at')),
                ('done_at', models.DateTimeField(blank=True, null=True, verbose_name='done at')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('last_error', models.TextField(blank=True, verbose_name='last error')),
            ],
            options={
                'verbose_name': 'outbox event',
                'verbose_name_plural': 'outbox events',
                'db_table': 'games_outboxevent',
                'ordering': ['pk'],
                'indexes': [models.Index(condition=models.Q(('done_at__isnull', True)), fields=['id'], name='lifecycle_outbox_undone')],
            },
        ),
    ])]
