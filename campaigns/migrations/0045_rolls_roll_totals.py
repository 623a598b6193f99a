"""The rolls not voided counted per (campaign, scope, side, table, kind, unmodified total), kept
by the database (``RollTotal``; ``campaigns.kept_counts`` writes the triggers: a roll inserted
counts, one deleted, voided or moved to another key is taken off, on SQLite and PostgreSQL).
The rolls already in the database are counted into it. tests/campaigns/dice/test_roll_totals.py
checks the triggers are there and that the table equals the rolls after random writes.
"""

import django.db.models.deletion
from django.db import migrations, models

from campaigns.kept_counts import Counted

ROLL_TOTALS = Counted(
    name="roll_total",
    table="campaigns_diceroll",
    totals="campaigns_rolltotal",
    key=("campaign_id", "visibility", "side", "table_id", "kind", "original"),
    count="rolls",
    watched="campaign_id, visibility, side, table_id, kind, original, voided_at",
    counts="{row}.voided_at IS NULL",
    columns=("voided_at",),
)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0044_rgtally_rg_totals"),
    ]

    operations = [
        migrations.CreateModel(
            name="RollTotal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("visibility", models.CharField(max_length=20)),
                ("side", models.CharField(blank=True, max_length=20)),
                ("table_id", models.CharField(blank=True, max_length=60)),
                ("kind", models.CharField(max_length=4)),
                ("original", models.SmallIntegerField()),
                ("rolls", models.PositiveIntegerField()),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="campaigns.campaign",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("campaign", "visibility", "side", "table_id", "kind", "original"),
                        name="roll_total_key",
                    )
                ],
            },
        ),
        migrations.RunPython(ROLL_TOTALS.install, ROLL_TOTALS.uninstall),
    ]
