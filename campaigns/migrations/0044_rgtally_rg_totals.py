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
count goes down one by one and the row goes with the last). The SQL is written once per vendor
(SQLite, PostgreSQL) and kept here, as a migration must stay as it ran; the RGs already in the
database are counted into it. tests/refit/purchases/test_rg_totals.py checks the triggers are there
and that the table equals the RGs after random writes.
"""

import django.db.models.deletion
from django.db import migrations, models

RGS = "campaigns_reinforcementgroup"
TOTALS = "campaigns_rgtotal"
KEY = ("campaign_id", "side", "rg_id", "map_group", "source", '"index"', "status")
TRIGGERS = ("rg_total_insert", "rg_total_delete", "rg_total_update")
# The columns whose update may change an RG's key: ``details`` holds the map group.
CHANGED = 'campaign_id, side, rg_id, "index", source, status, details'


def _match(row: str) -> str:
    return " AND ".join(f"{TOTALS}.{column} = {row}.{column}" for column in KEY)


def _changed(different: str) -> str:
    """An update that moves the RG to another key (``different``: SQLite's ``IS NOT``,
    PostgreSQL's ``IS DISTINCT FROM``); a save that changes none of them writes nothing."""
    return " OR ".join(f"OLD.{column} {different} NEW.{column}" for column in KEY)


def _add(row: str) -> str:
    """The RG counted in its key (the row made when it is the first)."""
    return (
        f"INSERT INTO {TOTALS} ({', '.join(KEY)}, rgs) "
        f"VALUES ({', '.join(f'{row}.{column}' for column in KEY)}, 1) "
        f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET rgs = {TOTALS}.rgs + 1;"
    )


def _take(row: str) -> str:
    """The RG taken off its key; a key of no RGs goes."""
    return (
        f"UPDATE {TOTALS} SET rgs = rgs - 1 WHERE {_match(row)}; "
        f"DELETE FROM {TOTALS} WHERE {_match(row)} AND rgs = 0;"
    )


SQLITE = [
    f"CREATE TRIGGER rg_total_insert AFTER INSERT ON {RGS} FOR EACH ROW BEGIN {_add('NEW')} END",
    f"CREATE TRIGGER rg_total_delete AFTER DELETE ON {RGS} FOR EACH ROW BEGIN {_take('OLD')} END",
    f"CREATE TRIGGER rg_total_update AFTER UPDATE OF {CHANGED} ON {RGS} FOR EACH ROW "
    f"WHEN {_changed('IS NOT')} BEGIN {_take('OLD')} {_add('NEW')} END",
]
SQLITE_REVERSE = [f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGERS]

POSTGRESQL = [
    f"""CREATE FUNCTION rg_total_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND NOT ({_changed("IS DISTINCT FROM")}) THEN RETURN NULL; END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN {_take("OLD")} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN {_add("NEW")} END IF;
        RETURN NULL;
    END $$""",
    f"""CREATE FUNCTION rg_total_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM {TOTALS};
        RETURN NULL;
    END $$""",
    f"CREATE TRIGGER rg_total_insert AFTER INSERT ON {RGS} "
    "FOR EACH ROW EXECUTE FUNCTION rg_total_row()",
    f"CREATE TRIGGER rg_total_delete AFTER DELETE ON {RGS} "
    "FOR EACH ROW EXECUTE FUNCTION rg_total_row()",
    f"CREATE TRIGGER rg_total_update AFTER UPDATE OF {CHANGED} ON {RGS} "
    "FOR EACH ROW EXECUTE FUNCTION rg_total_row()",
    # TRUNCATE fires no row triggers: the counts go with the RGs.
    f"CREATE TRIGGER rg_total_truncate AFTER TRUNCATE ON {RGS} "
    "FOR EACH STATEMENT EXECUTE FUNCTION rg_total_truncate()",
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {name} ON {RGS}" for name in TRIGGERS),
    f"DROP TRIGGER IF EXISTS rg_total_truncate ON {RGS}",
    "DROP FUNCTION IF EXISTS rg_total_row()",
    "DROP FUNCTION IF EXISTS rg_total_truncate()",
]

# The RGs as they stand, counted (the same on both).
FILL = (
    f"INSERT INTO {TOTALS} ({', '.join(KEY)}, rgs) "
    f"SELECT {', '.join(KEY)}, COUNT(*) FROM {RGS} GROUP BY {', '.join(KEY)}"
)


def _statements(vendor: str, *, reverse: bool = False) -> list[str]:
    if vendor == "sqlite":
        return SQLITE_REVERSE if reverse else SQLITE
    if vendor == "postgresql":
        return POSTGRESQL_REVERSE if reverse else POSTGRESQL
    raise NotImplementedError(f"the RGs' tallies have no triggers for {vendor}")


def install(apps, schema_editor):
    for statement in [FILL, *_statements(schema_editor.connection.vendor)]:
        schema_editor.execute(statement, params=None)


def uninstall(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, reverse=True):
        schema_editor.execute(statement, params=None)


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
        migrations.RunPython(install, uninstall),
    ]
