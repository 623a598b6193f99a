"""Tables of counts the database keeps: rows of a table counted per key, by triggers.

A kept count (``RgTotal``, ``RollTotal``) is derived data: triggers on the counted table add
each row inserted and take off each row deleted, or changed in its key (or in what decides
whether it counts), so that no write path — a service, an undo, an import, ``bulk_create``, a
queryset's ``update``, a campaign's cascade delete, raw SQL — can leave it disagreeing with the
rows it counts (docs/decisions.md, "The ledger's totals kept by the database"). A key whose last
row goes has no row left: the table equals the counted rows' ``GROUP BY``. Only counts are kept,
so a statement touching several rows of one key is right whichever order its row triggers run
in (PostgreSQL runs them after the whole statement: the count goes down one by one and the row
goes with the last).

The migrations that install the triggers call ``Counted``: what it writes for them must stay as
it ran. A change to the SQL here is a new migration that drops and installs the triggers again
(and the test comparing each migration's statements with its own copy fails first).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Counted:
    """The rows of ``table`` counted per ``key`` into ``totals``' column ``count``.

    ``name`` prefixes the triggers and functions (``<name>_insert`` …); ``watched`` are the
    columns whose update may change a row's key or whether it counts (a generated column is
    watched through the column it is made from); ``counts``, a condition on a row written with
    ``{row}``, leaves the rows it does not hold out of the counts (``{row}.voided_at IS
    NULL``), and its ``columns`` are compared with the key's when a row is updated."""

    name: str
    table: str
    totals: str
    key: tuple[str, ...]
    count: str
    watched: str
    counts: str = ""
    columns: tuple[str, ...] = ()

    @property
    def triggers(self) -> tuple[str, ...]:
        return tuple(f"{self.name}_{event}" for event in ("insert", "delete", "update"))

    def _match(self, row: str) -> str:
        return " AND ".join(f"{self.totals}.{column} = {row}.{column}" for column in self.key)

    def _changed(self, different: str) -> str:
        """An update that moves the row to another key or in or out of the counts
        (``different``: SQLite's ``IS NOT``, PostgreSQL's ``IS DISTINCT FROM``); a save that
        changes none of them writes nothing."""
        columns = (*self.key, *self.columns)
        return " OR ".join(f"OLD.{column} {different} NEW.{column}" for column in columns)

    def _add(self, row: str) -> str:
        """The row counted in its key (the key's row made when it is the first)."""
        key = ", ".join(self.key)
        values = ", ".join(f"{row}.{column}" for column in self.key)
        upsert = f"ON CONFLICT ({key}) DO UPDATE SET {self.count} = {self.totals}.{self.count} + 1;"
        if not self.counts:
            return f"INSERT INTO {self.totals} ({key}, {self.count}) VALUES ({values}, 1) {upsert}"
        # SQLite's upsert after a SELECT needs its WHERE: the condition is one.
        return (
            f"INSERT INTO {self.totals} ({key}, {self.count}) SELECT {values}, 1 "
            f"WHERE {self.counts.format(row=row)} {upsert}"
        )

    def _take(self, row: str) -> str:
        """The row taken off its key; a key of no rows goes."""
        counted = f" AND {self.counts.format(row=row)}" if self.counts else ""
        return (
            f"UPDATE {self.totals} SET {self.count} = {self.count} - 1 "
            f"WHERE {self._match(row)}{counted}; "
            f"DELETE FROM {self.totals} WHERE {self._match(row)} AND {self.count} = 0;"
        )

    def sqlite(self) -> list[str]:
        insert, delete, update = self.triggers
        return [
            f"CREATE TRIGGER {insert} AFTER INSERT ON {self.table} FOR EACH ROW "
            f"BEGIN {self._add('NEW')} END",
            f"CREATE TRIGGER {delete} AFTER DELETE ON {self.table} FOR EACH ROW "
            f"BEGIN {self._take('OLD')} END",
            f"CREATE TRIGGER {update} AFTER UPDATE OF {self.watched} ON {self.table} FOR EACH "
            f"ROW WHEN {self._changed('IS NOT')} BEGIN {self._take('OLD')} {self._add('NEW')} END",
        ]

    def sqlite_reverse(self) -> list[str]:
        return [f"DROP TRIGGER IF EXISTS {name}" for name in self.triggers]

    def postgresql(self) -> list[str]:
        insert, delete, update = self.triggers
        row, truncate = f"{self.name}_row", f"{self.name}_truncate"
        return [
            f"""CREATE FUNCTION {row}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND NOT ({self._changed("IS DISTINCT FROM")}) THEN RETURN NULL; END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN {self._take("OLD")} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN {self._add("NEW")} END IF;
        RETURN NULL;
    END $$""",
            f"""CREATE FUNCTION {truncate}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM {self.totals};
        RETURN NULL;
    END $$""",
            f"CREATE TRIGGER {insert} AFTER INSERT ON {self.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {row}()",
            f"CREATE TRIGGER {delete} AFTER DELETE ON {self.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {row}()",
            f"CREATE TRIGGER {update} AFTER UPDATE OF {self.watched} ON {self.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {row}()",
            # TRUNCATE fires no row triggers: the counts go with the rows.
            f"CREATE TRIGGER {truncate} AFTER TRUNCATE ON {self.table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {truncate}()",
        ]

    def postgresql_reverse(self) -> list[str]:
        return [
            *(f"DROP TRIGGER IF EXISTS {name} ON {self.table}" for name in self.triggers),
            f"DROP TRIGGER IF EXISTS {self.name}_truncate ON {self.table}",
            f"DROP FUNCTION IF EXISTS {self.name}_row()",
            f"DROP FUNCTION IF EXISTS {self.name}_truncate()",
        ]

    def fill(self) -> str:
        """The rows as they stand, counted (the same on both)."""
        key = ", ".join(self.key)
        where = f" WHERE {self.counts.format(row=self.table)}" if self.counts else ""
        return (
            f"INSERT INTO {self.totals} ({key}, {self.count}) "
            f"SELECT {key}, COUNT(*) FROM {self.table}{where} GROUP BY {key}"
        )

    def statements(self, vendor: str, *, reverse: bool = False) -> list[str]:
        if vendor == "sqlite":
            return self.sqlite_reverse() if reverse else self.sqlite()
        if vendor == "postgresql":
            return self.postgresql_reverse() if reverse else self.postgresql()
        raise NotImplementedError(f"{self.totals} has no triggers for {vendor}")

    def install(self, apps, schema_editor) -> None:
        """A ``RunPython`` forward: the rows counted, then the triggers."""
        for statement in [self.fill(), *self.statements(schema_editor.connection.vendor)]:
            schema_editor.execute(statement, params=None)

    def uninstall(self, apps, schema_editor) -> None:
        for statement in self.statements(schema_editor.connection.vendor, reverse=True):
            schema_editor.execute(statement, params=None)
