"""Querysets compiled once: a query's SQL kept, run again with new values.

Django builds and compiles a queryset to SQL on every run: ~0.3–1 ms of Python for a query whose
SQL runs in 0.01–0.1 ms (docs/performance.md, "layout", "file2"). Here a queryset is built once
with stand-in values (numbers and strings no row has), compiled by Django, and its SQL kept with
the places of the stand-ins among its parameters; each run puts the real values there and hands
the SQL to Django's own compiler, which reads the rows as usual (select_related, annotations and
the database's converters):

- ``CompiledQuery(lambda a, b: Model.objects.filter(x=a, y=b), 2)`` then ``query(1, 2)``: the
  model objects ``list(Model.objects.filter(x=1, y=2))`` gives.
- ``Reader(Model, lambda a, sides: Model.objects.filter(x=a, side__in=sides).values_list(…))``
  then ``reader(1, ["german"])``: the rows as tuples, an iterator (with ``chunk``, read that many
  at a time: PostgreSQL's server-side cursor, as ``queryset.iterator(chunk)``). A value may be a
  list (the viewer's sides or scopes): compiled once per length.
- ``Tables(lambda a: [(Model.objects.filter(…).order_by(…), ("x", "y")), …])`` then
  ``tables(1)``: the rows of several tables of different columns from one query, each as
  ``(table number, its columns)``, table after table, each in its own order (``union_of``).

What is kept is only the query's text and how to read its columns: they depend on the models,
the database's vendor and how many items a list value has, never on any data or viewer, so
nothing can be stale or another viewer's. A value the ORM writes into the SQL text instead of a
parameter cannot be a stand-in: each stand-in must be found among the parameters (checked).

The Django internals this relies on (tests/campaigns/test_compiled.py checks each, so an upgrade
that changes one fails there): ``query.get_compiler(using=…)``; ``SQLCompiler.as_sql()`` giving
``(sql, params)`` and raising ``EmptyResultSet`` when nothing can match; ``execute_sql`` and so
``results_iter(tuple_expected=…, chunked_fetch=…, chunk_size=…)`` asking ``self.as_sql()`` for
the SQL they run, on ``self.connection``, and ``results_iter`` converting with what
``self.get_converters(select[:col_count])`` answers (kept once with the SQL,
``kept_converters``; tests/campaigns/test_converters.py); ``compiler.select`` (each column's
expression, whose ``output_field`` gives its type) after ``as_sql``; the combined query's
converters taken from its first part's columns; and ``QuerySet(model=, query=, using=)`` with
``_iterable_class``, ``_fields``, ``_prefetch_related_lookups``, ``_hints`` and
``_known_related_objects``, whose iterable asks ``query.get_compiler`` for its compiler.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from operator import itemgetter
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import connections, models, router
from django.db.models import F, Model, QuerySet, Value, Window
from django.db.models.functions import Cast, RowNumber
from django.db.models.sql.constants import GET_ITERATOR_CHUNK_SIZE, MULTI

from campaigns.converters import Converters, faster

M = TypeVar("M", bound=Model)

# Stand-ins: numbers no row id reaches, strings no row holds.
_INT_BASE = -7_301_908_000
_STR_BASE = "\x00stand-in:"
# ``CompiledQuery``'s first stand-ins, as before (its ``stand_ins``).
STAND_INS = tuple(_INT_BASE - n for n in range(4))

_EMPTY = object()  # the query of this shape can match nothing (an empty list of sides)


def _stand_ins(
    values: Sequence[Any], typed: bool = True
) -> tuple[list[Any], list[Any], tuple[Any, ...]]:
    """Stand-ins for ``values`` (each int or str, or a list/tuple of them), the values flattened
    in the same order, and the shape (which values are lists, of what length) they compile to.
    Not ``typed`` (``CompiledQuery``): each value is one, of any type, its stand-in a number."""
    if not typed:
        return list(STAND_INS[: len(values)]), list(values), ()
    stand_ins: list[Any] = []
    flat: list[Any] = []
    shape: list[Any] = []

    def one(value: Any) -> Any:
        n = len(flat)
        flat.append(value)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise TypeError(f"a compiled query's value is an int or a str, not {type(value)}")
        return _INT_BASE - n if isinstance(value, int) else f"{_STR_BASE}{n}"

    for value in values:
        if isinstance(value, (list, tuple)):
            stand_ins.append([one(item) for item in value])
            shape.append(len(value))
        else:
            stand_ins.append(one(value))
            shape.append(type(value).__name__)
    return stand_ins, flat, tuple(shape)


class _Compiled:
    """A queryset built by ``build`` from stand-ins, compiled once per database and shape; each
    run Django's compiler with this run's values in the stand-ins' places."""

    typed = True  # values of the types they are compiled for (``_stand_ins``)

    def __init__(self, build: Callable[..., Any]) -> None:
        self.build = build
        self._compiled: dict[tuple[Any, ...], Any] = {}

    def queryset(self, *stand_ins: Any) -> QuerySet:
        return self.build(*stand_ins)

    def _prepare(self, queryset: QuerySet, compiler: Any) -> Any:
        """What a run needs beside the compiler (``Tables``: how to split its rows)."""
        return None

    def _compile(self, alias: str, values: Sequence[Any]) -> Any:
        stand_ins, flat, shape = _stand_ins(values, self.typed)
        key = (alias, connections[alias].vendor, shape)
        if key not in self._compiled:
            queryset = self.queryset(*stand_ins)
            compiler = queryset.query.get_compiler(using=alias)
            try:
                sql, params = compiler.as_sql()
            except EmptyResultSet:
                # Only an empty list may make a query that can match nothing. Otherwise a
                # stand-in fell outside its column's range (PostgreSQL's integer columns: the
                # ORM then drops the condition as "matches nothing"), and every run would
                # answer nothing, whatever its values.
                if 0 not in shape:
                    raise ValueError(
                        f"a stand-in of a {queryset.model.__name__} query is out of its "
                        "column's range: compile a query by id (bigint) or text values only"
                    ) from None
                self._compiled[key] = _EMPTY
                return _EMPTY
            places = {
                stand_in: n
                for n, stand_in in enumerate(
                    item
                    for value in stand_ins
                    for item in (value if isinstance(value, list) else [value])
                )
            }
            where = [places.get(p) if type(p) in (int, str) else None for p in params]
            missing = set(places.values()) - set(where)
            # (An empty list may leave out a whole part of a union, with its values.)
            if missing and 0 not in shape:
                raise ValueError(f"values {sorted(missing)} are not parameters of {sql!r}")
            extra = self._prepare(queryset, compiler)
            self._compiled[key] = (
                queryset,
                compiler,
                sql,
                tuple(params),
                where,
                extra,
                self._converters(compiler),
            )
        return self._compiled[key]

    def _run(self, alias: str, values: Sequence[Any]) -> Any:
        """(the compiled queryset, a compiler running this run's SQL, extra), or _EMPTY."""
        compiled = self._compile(alias, values)
        if compiled is _EMPTY:
            return _EMPTY
        queryset, compiler, sql, params, where, extra, converters = compiled
        flat = _stand_ins(values, self.typed)[1]
        run_params = tuple(
            p if at is None else flat[at] for p, at in zip(params, where, strict=True)
        )
        return queryset, running(compiler, sql, run_params, converters), extra

    def _converters(self, compiler: Any) -> Converters | None:
        """The converters of the rows' columns, as ``results_iter`` asks for them on every run
        (~0.1 ms), kept with the SQL and made faster (``campaigns.converters``)."""
        return kept_converters(compiler)


class CompiledQuery(_Compiled, Generic[M]):
    """``CompiledQuery(lambda a, b: Model.objects.filter(x=a, y=b), 2)``, then ``query(1, 2)``:
    ``list(Model.objects.filter(x=1, y=2))``, compiled once per database. Each value is one
    parameter (any type: its stand-in is a number)."""

    typed = False

    def __init__(self, build: Callable[..., QuerySet[M]], arguments: int) -> None:
        super().__init__(build)
        self.stand_ins = STAND_INS[:arguments]
        self._model: type[Model] | None = None

    def __call__(self, *values: Any) -> list[M]:
        if len(values) != len(self.stand_ins):
            raise TypeError(f"{len(self.stand_ins)} values, not {len(values)}")
        if self._model is None:
            self._model = self.build(*self.stand_ins).model
        ran = self._run(router.db_for_read(self._model), values)
        if ran is _EMPTY:
            return []
        queryset, run, _extra = ran
        return rows_of(queryset, run)


def running(compiler: Any, sql: str, params: tuple, converters: Converters | None = None) -> Any:
    """A copy of a kept ``compiler`` that runs ``sql`` with ``params`` on this thread's
    connection (``execute_sql`` asks ``as_sql`` for what it runs), converting its rows' columns
    with ``converters`` (``kept_converters``: ``results_iter`` asks ``get_converters``)."""
    run = copy.copy(compiler)
    run.connection = connections[compiler.using]
    run.as_sql = lambda *args, **kwargs: (sql, params)
    if converters is not None:
        run.get_converters = lambda expressions: converters
    return run


def kept_converters(compiler: Any) -> Converters:
    """What ``results_iter`` of a compiled ``compiler`` gets from ``get_converters``, faster.

    Converters take the connection they read from as an argument; the few that are bound
    methods of the compiling thread's ``connection.ops`` read only settings through it (the
    time zone), the same on every thread, as ``union_of``'s already are."""
    return faster(compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]]))


def rows_of(queryset: QuerySet[M], run: Any) -> list[M]:
    """What ``list(queryset)`` gives (model objects, values or tuples, as the queryset reads
    them), its SQL run by ``run`` (``running``) instead of compiled again."""
    query = copy.copy(queryset.query)  # shallow: only its compiler is this run's
    query.get_compiler = lambda *args, **kwargs: run
    clone = QuerySet(model=queryset.model, query=query, using=queryset._db)
    for name in ("_iterable_class", "_fields", "_prefetch_related_lookups", "_hints"):
        setattr(clone, name, getattr(queryset, name))
    clone._known_related_objects = queryset._known_related_objects
    return list(clone)


class Reader(_Compiled):
    """``Reader(Model, lambda a, sides: Model.objects.filter(x=a, side__in=sides).values_list(…))``
    then ``reader(1, ["german"])``: the rows of that queryset as tuples (an iterator, the query
    run at the first row asked; with ``chunk``, read that many rows at a time), the queryset
    built and compiled once per database and shape."""

    def __init__(self, model: type[Model], build: Callable[..., Any]) -> None:
        super().__init__(build)
        self.model = model

    def _rows(self, values: Sequence[Any], chunk: int | None) -> Iterator[Any]:
        ran = self._run(router.db_for_read(self.model), values)
        if ran is _EMPTY:
            return
        _queryset, run, _extra = ran
        if chunk is None:  # every row at once, as ``list(queryset)``
            rows = run.results_iter(tuple_expected=True)
        else:  # as ``queryset.iterator(chunk)``: PostgreSQL's server-side cursor
            rows = run.results_iter(tuple_expected=True, chunked_fetch=True, chunk_size=chunk)
        yield from rows

    def __call__(self, *values: Any, chunk: int | None = None) -> Iterator[Any]:
        yield from self._rows(values, chunk)


# --- several tables in one query ---------------------------------------------------------------

# Columns of these kinds share a slot of the union (one type in SQL, no converter or the same).
_INTEGERS = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
    "ForeignKey",
    "OneToOneField",
}
_TEXTS = {"CharField", "TextField", "SlugField", "EmailField", "URLField"}


def _kind(field: models.Field) -> tuple[str, models.Field]:
    """A column's kind (columns of one kind share a slot) and a field to cast a NULL to."""
    internal = field.get_internal_type()
    if internal in _INTEGERS:
        return "integer", models.BigIntegerField()
    if internal in _TEXTS:
        return "text", models.TextField()
    if internal in {"DateTimeField", "DateField", "BooleanField", "JSONField"}:
        return internal, type(field)()
    raise TypeError(f"a column of {internal} cannot be in a union of tables yet")


def union_of(
    tables: Sequence[tuple[QuerySet, Sequence[str]]], alias: str
) -> tuple[QuerySet, list[tuple[Callable[[tuple], tuple], list[tuple[int, tuple, Any]]]]]:
    """One ``UNION ALL`` query of several tables' rows, and for each table how to take its own
    columns out of a row and the converters of those columns (``get_converters``).

    ``tables``: each an ordered queryset and the names of the columns to read (as
    ``values_list``'s). The tables' columns differ, so the rows are shaped alike: each row is
    (the table's number, its row number in the table's own order, then slots), each table's
    columns in slots of their kind (text, integer, date and time, JSON, …) and a typed NULL in
    the slots it does not use. The rows come table after table, each in its queryset's order.
    """
    columns_of: list[list[tuple[str, models.Field]]] = []
    converters: list[list[tuple[int, tuple, Any]]] = []
    for queryset, names in tables:
        compiler = queryset.values_list(*names).query.get_compiler(using=alias)
        # as_sql() fills compiler.select (each column's expression) before it may find that the
        # WHERE matches nothing.
        with suppress(EmptyResultSet):
            compiler.as_sql()
        columns = [column for column, _sql, _alias in compiler.select]
        columns_of.append([_kind(column.output_field) for column in columns])
        # The database's and the fields' converters of the table's own columns (a date read
        # from SQLite's text, JSON decoded), applied to its rows alone.
        converters.append(
            [
                (n, tuple(convs), column)
                for n, (convs, column) in faster(compiler.get_converters(columns)).items()
            ]
        )
    # Slots: for each kind, as many as the table with the most columns of it needs.
    slots: list[tuple[str, models.Field]] = []
    positions: list[list[int]] = []
    for columns in columns_of:
        used: dict[str, int] = {}
        places = []
        for kind, cast_to in columns:
            nth = used[kind] = used.get(kind, 0) + 1
            found = [n for n, (k, _f) in enumerate(slots) if k == kind]
            if len(found) < nth:
                slots.append((kind, cast_to))
                found.append(len(slots) - 1)
            places.append(found[nth - 1])
        positions.append(places)
    parts = []
    for number, ((queryset, names), places) in enumerate(zip(tables, positions, strict=True)):
        given = dict(zip(places, names, strict=True))
        expressions = {
            "table": Value(number),
            "row": Window(RowNumber(), order_by=list(queryset.query.order_by)),
            **{
                f"slot{n}": F(given[n]) if n in given else Cast(Value(None), cast_to)
                for n, (_kind_, cast_to) in enumerate(slots)
            },
        }
        parts.append(queryset.order_by().annotate(**expressions).values_list(*expressions))
    union = parts[0].union(*parts[1:], all=True).order_by("table", "row")
    takers = [_taker([2 + n for n in places]) for places in positions]
    return union, list(zip(takers, converters, strict=True))


def _taker(places: list[int]) -> Callable[[tuple], tuple]:
    if len(places) == 1:
        (place,) = places
        return lambda row: (row[place],)
    return itemgetter(*places)


class Tables(Reader):
    """``Tables(lambda a, sides: [(ordered queryset, column names), …])`` then
    ``tables(1, ["german"])``: ``(table number, its columns)`` for every row of every table, from
    one query (``union_of``), table after table, each in its own order; compiled once per
    database and shape like ``Reader``."""

    def __init__(self, model: type[Model], build: Callable[..., Any]) -> None:
        super().__init__(model, build)
        self._alias = ""

    def queryset(self, *stand_ins: Any) -> QuerySet:
        union, self._tables = union_of(self.build(*stand_ins), self._alias)
        return union

    def _compile(self, alias: str, values: Sequence[Any]) -> Any:
        self._alias = alias
        return super()._compile(alias, values)

    def _prepare(self, queryset: QuerySet, compiler: Any) -> Any:
        return self._tables

    def _converters(self, compiler: Any) -> None:
        return None  # each table's own, in ``_prepare``'s (``union_of``)

    def _rows(self, values: Sequence[Any], chunk: int | None) -> Iterator[Any]:
        ran = self._run(router.db_for_read(self.model), values)
        if ran is _EMPTY:
            return
        _queryset, run, tables = ran
        # The rows as the database gives them (``execute_sql``: no converter), each then
        # converted by its own table's converters only (the union's would convert every slot).
        chunks = run.execute_sql(
            MULTI, chunked_fetch=chunk is not None, chunk_size=chunk or GET_ITERATOR_CHUNK_SIZE
        )
        if chunks is None:
            return
        connection = run.connection
        readers = [_reader(take, converters, connection) for take, converters in tables]
        for rows in chunks:
            for row in rows:
                table = row[0]
                yield table, readers[table](row)

    def by_table(self, *values: Any) -> dict[int, list[tuple]]:
        """Every row at once, as ``{table number: its rows}`` (a table with none: no key)."""
        tables: dict[int, list[tuple]] = {}
        for table, row in self(*values):
            tables.setdefault(table, []).append(row)
        return tables


def _reader(
    take: Callable[[tuple], tuple], converters: list[tuple[int, tuple, Any]], connection: Any
) -> Callable[[tuple], tuple]:
    """A table's columns out of a union's row, converted as Django's ``apply_converters``."""
    if not converters:
        return take

    def read(row: tuple) -> tuple:
        values = list(take(row))
        for n, convs, column in converters:
            value = values[n]
            for convert in convs:
                value = convert(value, column, connection)
            values[n] = value
        return tuple(values)

    return read
