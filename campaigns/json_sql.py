"""JSON in SQL where Django's ORM has no expression for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import NotSupportedError
from django.db.models import F, Func, JSONField


class WithoutKeys(Func):
    """A JSON object column read without some of its top-level keys, removed by the database
    (SQLite's ``json_remove``, PostgreSQL's ``jsonb - text[]``): only the rest travels to Python
    and is decoded. The export leaves the history's undo snapshots out so, which are most of the
    events' data (62 of the demo's 72 KB)."""

    output_field = JSONField()

    def __init__(self, column: str, keys: Sequence[str]) -> None:
        if not keys or not all(key.isidentifier() for key in keys):  # SQLite: plain JSON paths
            raise ValueError(f"{keys!r}: plain keys, one or more")
        super().__init__(F(column))
        self.keys = tuple(keys)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list]:
        sql, params = compiler.compile(self.source_expressions[0])
        paths = ", ".join(["%s"] * len(self.keys))
        return f"JSON_REMOVE({sql}, {paths})", [*params, *(f"$.{key}" for key in self.keys)]

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list]:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} - %s::text[])", [*params, list(self.keys)]

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list]:
        raise NotSupportedError(f"WithoutKeys on {connection.vendor}")
