"""The side's RGs counted per (campaign, side, RG, CG day, source, map group, status), kept by
the database.

``RgTotal`` is derived data, like ``LedgerTotal`` (0043_totals_ledger_totals): triggers on the
RG table add each RG inserted and take off each RG deleted, or changed in a column of its key
(or in its ``details``, of which ``map_group`` is a stored generated column), so that no write
path — a service, an undo, an import, ``bulk_create``, a queryset's ``update``, a campaign's
cascade delete, raw SQL — can leave it disagreeing with the RGs (docs/decisions.md, "The RGs'
tallies kept by the database"). A key whose last RG goes has no row left: the table equals the
RGs' ``GROUP BY``. Only counts are kept, so a statement touching several RGs of one key is right
whichever order its row triggers run in (PostgreSQL runs them after the whole statement: the
count goes down one by one and the row goes with the last). The SQL, one text per vendor (SQLite,
PostgreSQL), is written by ``campaigns.kept_counts`` (as the rolls' counts are), which must keep
writing it as it ran; the RGs already in the database are counted into it. tests/refit/purchases/test_rg_totals.py checks the triggers are there
and that the table equals the RGs after random writes.
"""

import django.db.models.deletion
from django.db import migrations, models

from campaigns.kept_counts import Counted

# The SQL (campaigns.kept_counts) must stay as it ran: tests/campaigns/test_kept_counts.py keeps
# a copy of what this migration installed.
RG_TOTALS = Counted(
    name="rg_total",
    table="campaigns_reinforcementgroup",
    totals="campaigns_rgtotal",
    key=("campaign_id", "side", "rg_id", "map_group", "source", '"index"', "status"),
    count="rgs",
    # The columns whose update may change an RG's key: ``details`` holds the map group.
    watched='campaign_id, side, rg_id, "index", source, status, details',
)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0043_totals_ledger_totals"),
    ]

    operations = [
        migrations.CreateModel(
            name="RgTotal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("side", models.CharField(max_length=20)),
                ("rg_id", models.CharField(max_length=10)),
                ("index", models.PositiveSmallIntegerField()),
                ("source", models.CharField(max_length=10)),
                ("map_group", models.TextField(blank=True)),
                ("status", models.CharField(max_length=20)),
                ("rgs", models.PositiveIntegerField()),
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
                        fields=(
                            "campaign",
                            "side",
                            "rg_id",
                            "map_group",
                            "source",
                            "index",
                            "status",
                        ),
                        name="rg_total_key",
                    )
                ],
                "indexes": [
                    models.Index(
                        fields=[
                            "campaign",
                            "side",
                            "rg_id",
                            "map_group",
                            "source",
                            "index",
                            "status",
                            "rgs",
                        ],
                        name="rg_total_read",
                    )
                ],
            },
        ),
        migrations.RunPython(RG_TOTALS.install, RG_TOTALS.uninstall),
    ]
