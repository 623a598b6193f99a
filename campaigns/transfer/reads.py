"""The export's queries, compiled once: each section's queryset built and compiled to SQL once per
database and shape, then run with this export's values, its rows read as tuples.

An export reads some twenty tables, one query each. Django builds and compiles a queryset on every
run (~0.5–1 ms of Python; the SQL of a demo campaign's table takes 0.02–0.1 ms): about half an
export's time at the demo (docs/performance.md, ``file2``). ``Reader`` is
``campaigns.compiled.CompiledQuery``'s idea for the export's needs: values that may be lists (the
viewer's sides and scopes, compiled once per length), rows as tuples read a chunk at a time through
Django's own compiler (its converters, PostgreSQL's server-side cursor), no model objects.

What is kept is the SQL text and how to read its columns: they depend on the models, the database's
vendor and how many sides or scopes are asked, never on any data or viewer. The stand-ins (numbers
and strings no row has) must each appear among the compiled parameters (checked): a value the ORM
writes into the SQL text instead cannot be a stand-in.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet

# Stand-ins: numbers no row id reaches, strings no row holds.
_INT_BASE = -7_301_908_000
_STR_BASE = "\x00stand-in:"

_EMPTY = object()  # the query of this shape can match nothing (an empty list of sides)


def _stand_ins(values: Sequence[Any]) -> tuple[list[Any], list[Any], tuple[Any, ...]]:
    """Stand-ins for ``values`` (each int or str, or a list/tuple of them), the values flattened
    in the same order, and the shape (which values are lists, of what length) they compile to."""
    stand_ins: list[Any] = []
    flat: list[Any] = []
    shape: list[Any] = []

    def one(value: Any) -> Any:
        n = len(flat)
        flat.append(value)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise TypeError(f"a Reader value is an int or a str, not {type(value).__name__}")
        return _INT_BASE - n if isinstance(value, int) else f"{_STR_BASE}{n}"

    for value in values:
        if isinstance(value, (list, tuple)):
            stand_ins.append([one(item) for item in value])
            shape.append(len(value))
        else:
            stand_ins.append(one(value))
            shape.append(type(value).__name__)
    return stand_ins, flat, tuple(shape)


class Reader:
    """``Reader(Model, lambda a, sides: Model.objects.filter(x=a, side__in=sides).values_list(…))``
    then ``reader(1, ["german"])``: the rows of that queryset as tuples (an iterator, the query
    run at the first row asked; with ``chunk``, read that many rows at a time), the queryset
    built and compiled once per database and shape."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet]) -> None:
        self.model = model
        self.build = build
        self._compiled: dict[tuple[Any, ...], Any] = {}

    def _compile(self, alias: str, values: Sequence[Any]) -> tuple[Any, list[int | None]]:
        stand_ins, _flat, shape = _stand_ins(values)
        key = (alias, connections[alias].vendor, shape)
        if key not in self._compiled:
            queryset = self.build(*stand_ins)
            compiler = queryset.query.get_compiler(using=alias)
            try:
                sql, params = compiler.as_sql()
            except EmptyResultSet:
                self._compiled[key] = (_EMPTY, [])
                return self._compiled[key]
            flat_stand_ins = {
                stand_in: n
                for n, stand_in in enumerate(
                    item
                    for value in stand_ins
                    for item in (value if isinstance(value, list) else [value])
                )
            }
            where = [flat_stand_ins.get(p) if type(p) in (int, str) else None for p in params]
            missing = set(flat_stand_ins.values()) - set(where)
            if missing:
                raise ValueError(f"values {sorted(missing)} are not parameters of {sql!r}")
            self._compiled[key] = ((compiler, sql, tuple(params)), where)
        return self._compiled[key]

    def __call__(self, *values: Any, chunk: int | None = None) -> Iterator[tuple[Any, ...]]:
        alias = router.db_for_read(self.model)
        compiled, where = self._compile(alias, values)
        if compiled is _EMPTY:
            return
        compiler, sql, params = compiled
        _stand_ins_, flat, _shape = _stand_ins(values)
        run_params = tuple(
            p if at is None else flat[at] for p, at in zip(params, where, strict=True)
        )
        run = copy.copy(compiler)  # this thread's connection, the compiled SQL
        run.connection = connections[alias]
        run.as_sql = lambda *args, **kwargs: (sql, run_params)
        if chunk is None:  # every row at once, as ``list(queryset)``
            yield from run.results_iter(tuple_expected=True)
        else:  # as ``queryset.iterator(chunk)``: PostgreSQL's server-side cursor
            yield from run.results_iter(tuple_expected=True, chunked_fetch=True, chunk_size=chunk)
