"""The Refit Phase pages' hot queries, compiled once per side (campaigns.compiled).

``per_side(name, side, build, arguments)`` is a ``CompiledQuery`` of ``build`` kept under
``(name, side)``: the side is a constant of its SQL (a word, which a compiled query's number
stand-ins cannot replace), the campaign its value. Only ids are values: a day (a small-integer
column) cannot take a stand-in on PostgreSQL, so queries by day stay plain querysets. What is
kept is the query's text alone, as ``CompiledQuery`` keeps it: nothing of any data.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db.models import QuerySet

from campaigns.compiled import CompiledQuery

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
