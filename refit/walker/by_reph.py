"""A Refit Phase's day, start and id as values of a compiled query (campaigns.compiled).

A compiled query's stand-ins are plain integers replaced by the values of each run. An ORM lookup
on a day (a small-integer column), a time or an integer column (``CampaignEvent.step_reph``)
passes its value adapted to the column's type — on PostgreSQL a typed integer the stand-in no
longer is, so the compiled query ran with the stand-in and answered nothing. ``value`` puts the
stand-in into the SQL as it is (``RawSQL("%s")``, the same placeholder the lookup writes: the
database plans the query as the ORM's, with the indexes); ``day_and_start`` gives the RePh's
values adapted as Django adapts them for its own lookups. (Subqueries reading the RePh by its
id were tried: SQLite cannot see their values when it plans, and chose an index by time that
reads every roll since the RePh began — 100–200 ms at the bench's huge size.)
"""

from __future__ import annotations

from typing import Any

from django.db import connections, models, router
from django.db.models.expressions import RawSQL

from campaigns.models import RefitPhase


def value(stand_in: int, output_field: models.Field) -> RawSQL:
    """A compiled query's stand-in written as a plain parameter of the lookup's column type."""
    return RawSQL("%s", (stand_in,), output_field=output_field)


def day_and_start(reph: RefitPhase, model: type[models.Model]) -> tuple[int, Any]:
    """The RePh's CG day and start as the database that reads ``model`` takes them: the start
    adapted as a ``DateTimeField`` lookup adapts it (SQLite: text in UTC)."""
    ops = connections[router.db_for_read(model)].ops
    return int(reph.index), ops.adapt_datetimefield_value(reph.started_at)
