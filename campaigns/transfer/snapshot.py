"""One consistent reading of the database for as long as an export is written.

An export reads its sections one after the other, and streamed, over seconds on a large
campaign. Without one snapshot, a purchase taken back in the middle could leave an RG in the file
pointing at ledger rows the file does not hold, and such a file does not import.

* PostgreSQL: a ``REPEATABLE READ`` read-only transaction, whose snapshot is taken at its first
  query. Readers never block writers.
* SQLite: a deferred transaction (``BEGIN DEFERRED``), whose snapshot is taken at its first read.
  The app's own transactions begin ``IMMEDIATE`` (config/settings.py), which would hold the write
  lock for the whole download; a deferred one takes none. With the WAL journal (settings) writers
  go on while the export reads its snapshot.

Inside a caller's transaction (a test's, a management command's ``atomic``) nothing is opened:
a transaction cannot be begun twice. There the caller's isolation decides: one snapshot on
SQLite, a snapshot per statement under PostgreSQL's default READ COMMITTED (the download view
runs outside any transaction, so it always gets its own). Nothing inside an export writes or
opens a transaction of its own (on SQLite the deferred one is begun without Django knowing).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction


@contextmanager
def read_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Every query of the block reads the database as it was at the block's first query."""
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    if connection.vendor == "sqlite":
        # Django's sqlite backend runs in autocommit and begins its own transactions with
        # the configured mode; a read needs none of the write lock that mode takes.
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("ROLLBACK")  # nothing was written: nothing to keep
        return
    yield
