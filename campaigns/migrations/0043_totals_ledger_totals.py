"""The ledger's totals per (campaign, side, CG day, ledger, kind, map group, RG, amount), kept by
the database.

``LedgerTotal`` is derived data: triggers on the ledger table add each row inserted and take
off each row deleted (or changed), so that no write path — a service, an undo, an import,
``bulk_create``, a campaign's cascade delete, raw SQL — can leave it disagreeing with the
ledger (docs/decisions.md, "The ledger's totals kept by the database"). A key whose last row goes
has no total left: the table equals the ledger's ``GROUP BY``. The SQL is written once per
vendor (SQLite, PostgreSQL) and kept here, as a migration must stay as it ran; the rows already
in the database are summed into it. tests/campaigns/ledger/test_totals.py checks the triggers
are there and that the totals equal the ledger after random writes.
"""

import django.db.models.deletion
from django.db import migrations, models

LEDGER = "campaigns_ledgerentry"
TOTALS = "campaigns_ledgertotal"
KEY = ("campaign_id", "side", '"index"', "ledger", "kind", "map_group", "rg", "amount")
TRIGGERS = ("ledger_total_insert", "ledger_total_delete", "ledger_total_update")


def _match(row: str, table: str = TOTALS) -> str:
    return " AND ".join(f"{table}.{column} = {row}.{column}" for column in KEY)


def _located(row: str) -> str:
    return f"CASE WHEN {row}.locations IS NULL THEN 0 ELSE 1 END"


def _add(row: str) -> str:
    """The row added to its key's total (the total made when it is the first)."""
    return (
        f"INSERT INTO {TOTALS} ({', '.join(KEY)}, entries, locations, located, first) "
        f"VALUES ({', '.join(f'{row}.{column}' for column in KEY)}, 1, "
        f"COALESCE({row}.locations, 0), {_located(row)}, {row}.id) "
        f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET entries = {TOTALS}.entries + 1, "
        f"locations = {TOTALS}.locations + excluded.locations, "
        f"located = {TOTALS}.located + excluded.located, "
        f"first = CASE WHEN excluded.first < {TOTALS}.first THEN excluded.first "
        f"ELSE {TOTALS}.first END;"
    )


def _take(row: str) -> str:
    """The row taken off its key's total; a total of no rows goes; a first row gone, the next
    (an index look-up: ``ledger_day_sums`` holds the key).

    PostgreSQL runs row triggers after the whole statement: when one ``DELETE`` or ``UPDATE``
    takes every row of a key, the first trigger finds none left while the total still counts
    the others, and keeps ``first`` as it was; the last row's trigger then takes the total."""
    return (
        f"UPDATE {TOTALS} SET entries = entries - 1, "
        f"locations = locations - COALESCE({row}.locations, 0), "
        f"located = located - {_located(row)} WHERE {_match(row)}; "
        f"DELETE FROM {TOTALS} WHERE {_match(row)} AND entries = 0; "
        f"UPDATE {TOTALS} SET first = COALESCE((SELECT MIN(id) FROM {LEDGER} WHERE "
        f"{_match(row, LEDGER)}), first) "
        f"WHERE {_match(row)} AND first = {row}.id;"
    )


CHANGED = "id, campaign_id, side, \"index\", ledger, kind, map_group, rg, amount, locations"

SQLITE = [
    f"CREATE TRIGGER ledger_total_insert AFTER INSERT ON {LEDGER} FOR EACH ROW "
    f"BEGIN {_add('NEW')} END",
    f"CREATE TRIGGER ledger_total_delete AFTER DELETE ON {LEDGER} FOR EACH ROW "
    f"BEGIN {_take('OLD')} END",
    f"CREATE TRIGGER ledger_total_update AFTER UPDATE OF {CHANGED} ON {LEDGER} FOR EACH ROW "
    f"BEGIN {_take('OLD')} {_add('NEW')} END",
]
SQLITE_REVERSE = [f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGERS]

POSTGRESQL = [
    f"""CREATE FUNCTION ledger_total_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN {_take('OLD')} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN {_add('NEW')} END IF;
        RETURN NULL;
    END $$""",
    f"""CREATE FUNCTION ledger_total_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM {TOTALS};
        RETURN NULL;
    END $$""",
    f"CREATE TRIGGER ledger_total_insert AFTER INSERT ON {LEDGER} "
    "FOR EACH ROW EXECUTE FUNCTION ledger_total_row()",
    f"CREATE TRIGGER ledger_total_delete AFTER DELETE ON {LEDGER} "
    "FOR EACH ROW EXECUTE FUNCTION ledger_total_row()",
    f"CREATE TRIGGER ledger_total_update AFTER UPDATE OF {CHANGED} ON {LEDGER} "
    "FOR EACH ROW EXECUTE FUNCTION ledger_total_row()",
    # TRUNCATE fires no row triggers: the totals go with the ledger.
    f"CREATE TRIGGER ledger_total_truncate AFTER TRUNCATE ON {LEDGER} "
    "FOR EACH STATEMENT EXECUTE FUNCTION ledger_total_truncate()",
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {name} ON {LEDGER}" for name in TRIGGERS),
    f"DROP TRIGGER IF EXISTS ledger_total_truncate ON {LEDGER}",
    "DROP FUNCTION IF EXISTS ledger_total_row()",
    "DROP FUNCTION IF EXISTS ledger_total_truncate()",
]

# The ledger as it stands, summed (the same on both).
FILL = (
    f"INSERT INTO {TOTALS} ({', '.join(KEY)}, entries, locations, located, first) "
    f"SELECT {', '.join(KEY)}, COUNT(*), COALESCE(SUM(locations), 0), COUNT(locations), MIN(id) "
    f"FROM {LEDGER} GROUP BY {', '.join(KEY)}"
)


def _statements(vendor: str, *, reverse: bool = False) -> list[str]:
    if vendor == "sqlite":
        return SQLITE_REVERSE if reverse else SQLITE
    if vendor == "postgresql":
        return POSTGRESQL_REVERSE if reverse else POSTGRESQL
    raise NotImplementedError(f"the ledger's totals have no triggers for {vendor}")


def install(apps, schema_editor):
    for statement in [FILL, *_statements(schema_editor.connection.vendor)]:
        schema_editor.execute(statement, params=None)


def uninstall(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, reverse=True):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0042_groups_rg_map_group"),
    ]

    operations = [
        migrations.CreateModel(
            name="LedgerTotal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("side", models.CharField(max_length=20)),
                ("index", models.PositiveSmallIntegerField()),
                ("ledger", models.CharField(max_length=3)),
                ("kind", models.CharField(max_length=30)),
                ("map_group", models.CharField(blank=True, max_length=10)),
                ("rg", models.CharField(blank=True, max_length=20)),
                ("amount", models.IntegerField()),
                ("entries", models.PositiveIntegerField()),
                ("locations", models.IntegerField(default=0)),
                ("located", models.PositiveIntegerField(default=0)),
                ("first", models.BigIntegerField()),
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
                            "index",
                            "ledger",
                            "kind",
                            "map_group",
                            "rg",
                            "amount",
                        ),
                        name="ledger_total_key",
                    )
                ],
            },
        ),
        migrations.RunPython(install, uninstall),
    ]
