"""The Refit Phase pages' hot queries, compiled once per side (campaigns.compiled).

``per_side(name, side, build, arguments)`` is a ``CompiledQuery`` of ``build`` kept under
``(name, side)``: the side is a constant of its SQL (a word, which a compiled query's number
stand-ins cannot replace), the campaign, the day or the RePh its values. What is kept is the
query's text alone, as ``CompiledQuery`` keeps it: nothing of any data.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db.models import IntegerField, QuerySet, Subquery, Value

from campaigns.compiled import CompiledQuery
from campaigns.models import RefitPhase

_COMPILED: dict[tuple, CompiledQuery] = {}


def per_side(
    name: str, side: Hashable, build: Callable[..., QuerySet], arguments: int
) -> CompiledQuery:
    key = (name, side)
    if key not in _COMPILED:
        if len(_COMPILED) > 1000:  # a campaign's sides are few: never reached but by mistake
            _COMPILED.clear()
        _COMPILED[key] = CompiledQuery(build, arguments)
    return _COMPILED[key]


def number(value: int) -> Value:
    """A small-integer column's value as a query parameter a compiled query can replace: a
    plain number out of the column's range, as the stand-ins are, makes Django drop the query."""
    return Value(value, output_field=IntegerField())


def started_at(reph_id: int) -> Subquery:
    """The start of RePh ``reph_id`` inside the query (a time cannot be a compiled query's
    value; the RePh's id can): ``rolled_at__gte=started_at(reph_id)`` is ``reph.started_at``
    read by the database, still a range of the rolls' indexes."""
    return Subquery(RefitPhase.objects.filter(pk=reph_id).order_by().values("started_at")[:1])
