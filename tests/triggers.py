"""The triggers a table has in the test database (the kept totals and counts: docs/decisions.md)."""

from django.db import connection


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
