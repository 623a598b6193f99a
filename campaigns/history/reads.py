"""A long list's count and page read by SQL compiled once (the history, the dice log).

``paging.listing`` asks a list two things: how many rows it has (up to a cap) and one page of
them. Asked of a queryset, Django compiles each anew on every request (~0.4 ms the count,
0.5–0.9 ms the page: more than SQLite takes to answer them). ``ListQuery`` compiles a list's
queryset once per database — built with a stand-in campaign id — and keeps the page's SQL with
its ``LIMIT`` and ``OFFSET`` as parameters and the count's SQL around the same filters; each
request runs them with its campaign's id. The page's rows are made by Django's own iterable
(annotations, related objects and converters as usual), as ``campaigns.compiled`` does.

The SQL depends only on the models, the database's vendor and the key the caller gives (the
viewer's visible scopes: a few fixed words), never on data: nothing can be stale or another
viewer's. A list with filters a viewer chose is compiled for that request (``ListRows.of``):
the filters vary too much to keep.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet

from campaigns.compiled import STAND_INS, kept_converters, rows_of, running
from campaigns.converters import Converters

STAND_IN = STAND_INS[0]  # the campaign's id while compiling: no row has it


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet  # the page's queryset as built (its model, iterable, related objects)
    compiler: Any  # its compiler, set up by compiling (select, klass_info, annotations)
    page_sql: str  # … LIMIT %s OFFSET %s
    count_sql: str  # SELECT COUNT(*) FROM (… [LIMIT %s]) — without and with the cap
    capped_count_sql: str
    params: tuple  # the filters' parameters (page and count alike), the stand-in among them
    count_params: tuple
    converters: Converters  # the page's columns' (``kept_converters``)


def _compile(page: QuerySet, count: QuerySet) -> _Compiled:
    """``page``: the ordered queryset of the rows (its annotations included); ``count``: the
    same filters (an annotation's join would be counted too), whose primary keys are counted."""
    alias = router.db_for_read(page.model)
    compiler = page.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    inner, count_params = (
        count.order_by().values_list("pk").query.get_compiler(using=alias).as_sql()
    )
    return _Compiled(
        queryset=page,
        compiler=compiler,
        page_sql=f"{sql} LIMIT %s OFFSET %s",
        count_sql=f"SELECT COUNT(*) FROM ({inner}) subquery",
        capped_count_sql=f"SELECT COUNT(*) FROM ({inner} LIMIT %s) subquery",
        params=tuple(params),
        count_params=tuple(count_params),
        converters=kept_converters(compiler),
    )


class ListRows:
    """A list's rows as ``paging.listing`` reads them: ``count()`` (every row), ``count_to(n)``
    (no further than ``n``: the capped paginator's count) and a page by slicing, one query
    each."""

    def __init__(self, compiled: _Compiled, campaign_id: int | None = None) -> None:
        self._compiled = compiled
        if campaign_id is None:
            self._params, self._count_params = compiled.params, compiled.count_params
        else:
            self._params = _put(compiled.params, campaign_id)
            self._count_params = _put(compiled.count_params, campaign_id)

    @classmethod
    def of(cls, page: QuerySet, count: QuerySet) -> ListRows | QuerySet:
        """Rows of querysets compiled for this request only (a filtered list); a filter nothing
        can match (an empty ``__in``) has no SQL: its queryset, which the ORM answers without a
        query."""
        try:
            return cls(_compile(page, count))
        except EmptyResultSet:
            return page

    def _scalar(self, sql: str, params: tuple) -> int:
        with connections[self._compiled.compiler.using].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()[0]

    def count(self) -> int:
        return self._scalar(self._compiled.count_sql, self._count_params)

    def count_to(self, most: int) -> int:
        return self._scalar(self._compiled.capped_count_sql, (*self._count_params, most))

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[Model]:
        if not isinstance(index, slice) or index.step is not None:
            raise TypeError("ListRows reads pages: a slice without a step")
        start = index.start or 0
        if index.stop is None or index.stop <= start:
            return []  # as an empty slice of a queryset: no query
        return self._page(index.stop - start, start)

    def _page(self, limit: int, offset: int) -> list[Model]:
        compiled = self._compiled
        params = (*self._params, limit, offset)
        return rows_of(
            compiled.queryset,
            running(compiled.compiler, compiled.page_sql, params, compiled.converters),
        )


def _put(params: tuple, campaign_id: int) -> tuple:
    return tuple(campaign_id if type(p) is int and p == STAND_IN else p for p in params)


class ListQuery:
    """``ListQuery(lambda campaign_id, key: (page queryset, count queryset))``, then
    ``query.rows(campaign_id, key)``: the list's ``ListRows``, its SQL compiled once per
    database and ``key`` (a hashable of a few values the querysets are built from, e.g. the
    viewer's visible scopes)."""

    def __init__(self, build: Callable[[int, Any], tuple[QuerySet, QuerySet]]) -> None:
        self.build = build
        self._compiled: dict[tuple[str, str, Hashable], _Compiled] = {}
        self._model: type[Model] | None = None

    def rows(self, campaign_id: int, key: Hashable) -> ListRows:
        if self._model is None:
            self._model = self.build(STAND_IN, key)[0].model
        alias = router.db_for_read(self._model)
        slot = (alias, connections[alias].vendor, key)
        compiled = self._compiled.get(slot)
        if compiled is None:
            compiled = _compile(*self.build(STAND_IN, key))
            for params in (compiled.params, compiled.count_params):
                if list(params).count(STAND_IN) != 1:
                    raise ValueError(f"the campaign's id is not one parameter of {params!r}")
            self._compiled[slot] = compiled
        return ListRows(compiled, campaign_id)
