from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0011_scenarioend_end"),
    ]

    operations = [
        migrations.AddField(
            model_name="sideday",
            name="second_chit",
            field=models.CharField(
                blank=True, max_length=20, verbose_name="second scenario's initiative chit"
            ),
        ),
        migrations.AddField(
            model_name="sideday",
            name="second_chit_revealed",
            field=models.BooleanField(
                default=False, verbose_name="second scenario's chit revealed"
            ),
        ),
    ]
