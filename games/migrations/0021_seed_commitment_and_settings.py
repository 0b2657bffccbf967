# Verifiable dice: a salt per match (its commitment is derived from it), and the out-of-turn
# settings a phase took. Matches made before this keep an empty salt (they published no
# commitment); new ones get a random salt from the model's default.

import games.fields
import games.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_deadline_move'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='seed_salt',
            field=models.CharField(blank=True, default='', help_text='Secret until the match ends.', max_length=64),
        ),
        migrations.AlterField(
            model_name='match',
            name='seed_salt',
            field=models.CharField(blank=True, default=games.models.new_seed_salt, help_text='Secret until the match ends.', max_length=64),
        ),
        migrations.AddField(
            model_name='phase',
            name='settings',
            field=games.fields.JSONField(blank=True, default=list, help_text='Out-of-turn settings taken while the phase was open, in order ({seat, data, at}): secret to their authors until the match ends (match records).'),
        ),
    ]
