"""Querysets compiled once: a hot page's query, its SQL kept, run again with new values.

Django compiles a queryset to SQL on every run: ~0.3–1 ms of Python for a query whose SQL runs in
0.01–0.1 ms (docs/performance.md, "layout"). ``CompiledQuery`` builds the queryset once with
stand-in values (numbers no row has), keeps Django's compiled SQL and its compiler, and on each
call runs that SQL with the real values in their places; the rows are turned into model objects
by Django's own iterable (select_related, annotations and converters as usual).

What is kept is only the query's text and how to read its columns: they depend on the models
and the database's vendor, not on any data, so nothing can be stale or another viewer's. The
stand-ins must each appear among the compiled parameters exactly once (checked): a value the
ORM writes into the SQL text instead of a parameter cannot be a stand-in.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

# Stand-in values: ids no row has, far beyond any real one.
STAND_INS = (-7_301_907_001, -7_301_907_002, -7_301_907_003, -7_301_907_004)


class CompiledQuery(Generic[M]):
    """``CompiledQuery(lambda a, b: Model.objects.filter(x=a, y=b))``, then ``query(1, 2)``:
    ``list(Model.objects.filter(x=1, y=2))``, compiled once per database."""

    def __init__(self, build: Callable[..., QuerySet[M]], arguments: int) -> None:
        self.build = build
        self.stand_ins = STAND_INS[:arguments]
        self._compiled: dict[tuple[str, str], tuple[QuerySet[M], Any, str, tuple]] = {}
        self._model: type[Model] | None = None

    def _compile(self, alias: str) -> tuple[QuerySet[M], Any, str, tuple]:
        key = (alias, connections[alias].vendor)
        if key not in self._compiled:
            queryset = self.build(*self.stand_ins)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            for stand_in in self.stand_ins:
                if list(params).count(stand_in) != 1:
                    raise ValueError(f"{stand_in} is not one parameter of {sql!r}")
            self._compiled[key] = (queryset, compiler, sql, tuple(params))
        return self._compiled[key]

    def __call__(self, *values: Any) -> list[M]:
        if len(values) != len(self.stand_ins):
            raise TypeError(f"{len(self.stand_ins)} values, not {len(values)}")
        if self._model is None:
            self._model = self.build(*self.stand_ins).model
        queryset, compiler, sql, params = self._compile(router.db_for_read(self._model))
        where = dict(zip(self.stand_ins, values, strict=True))
        run_params = tuple(where.get(p, p) if type(p) is int else p for p in params)
        run = copy.copy(compiler)  # this request's connection, the compiled SQL
        run.connection = connections[compiler.using]
        run.as_sql = lambda *args, **kwargs: (sql, run_params)
        query = copy.copy(queryset.query)  # shallow: only its compiler is this run's
        query.get_compiler = lambda *args, **kwargs: run
        clone = QuerySet(model=queryset.model, query=query, using=queryset._db)
        for name in ("_iterable_class", "_fields", "_prefetch_related_lookups", "_hints"):
            setattr(clone, name, getattr(queryset, name))
        clone._known_related_objects = queryset._known_related_objects
        return list(clone)
