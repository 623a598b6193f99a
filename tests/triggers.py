"""The triggers a table has in the test database (the kept totals and counts: docs/decisions.md)."""

from django.db import connection

from campaigns.kept_counts import Counted


def triggers_on(table: str) -> set[str]:
    """The names of ``table``'s own triggers, on SQLite or PostgreSQL."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table]
            )
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                [table],
            )
        return {name for (name,) in cursor.fetchall()}


def expected_triggers(names: tuple[str, ...], truncate: str) -> set[str]:
    """``names``, and on PostgreSQL the ``truncate`` trigger (TRUNCATE fires no row trigger)."""
    return {*names, truncate} if connection.vendor == "postgresql" else set(names)


def counted_triggers(counted: Counted) -> set[str]:
    """The triggers a kept count (``campaigns.kept_counts.Counted``) installs."""
    return expected_triggers(counted.triggers, f"{counted.name}_truncate")


def refill(counted: Counted) -> None:
    """The counts emptied, as before their migration, then filled as the migration fills them."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {counted.totals}")
        cursor.execute(f"SELECT COUNT(*) FROM {counted.totals}")
        assert cursor.fetchone() == (0,)
        cursor.execute(counted.fill())
