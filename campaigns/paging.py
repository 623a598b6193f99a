"""Paging the lists that grow with a campaign (the dice log, the history).

The list is a queryset already filtered to what the viewer may see, so the count and the number
of pages say nothing of anything else. The page number and the filters live in the query string:
a page can be bookmarked, reloaded and reached without JavaScript. A page number that is not a
number reads as the first page and one past the end as the last (``Paginator.get_page``): an old
bookmark still lands on a page, never on an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload
from urllib.parse import urlsplit

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, QueryDict
from django.utils.functional import cached_property
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, override

Row = TypeVar("Row")


@dataclass(frozen=True)
class Listing:
    """One page of a list and the addresses around it."""

    page: Page
    here: str  # the list as asked: its filters and page number
    newer_url: str  # the page before (newer rows), "" on the first
    older_url: str  # the page after (older rows), "" on the last


def with_query(path: str, params: QueryDict) -> str:
    query = params.urlencode()
    return f"{path}?{query}" if query else path


def _page_url(path: str, params: QueryDict, number: int | str, param: str = "page") -> str:
    query = params.copy()
    query[param] = str(number)
    return with_query(path, query)


# How many pages past the one asked a capped list counts before it says "more than".
LOOKAHEAD = 10


class CappedPaginator(Paginator):
    """A paginator that counts no further than ``cap`` rows: the list's ``COUNT`` reads at most
    ``cap + 1`` rows of its index (``SELECT COUNT(*) FROM (… LIMIT cap + 1)``), so a page of a
    history of any length costs the same. ``more`` says the count stopped at the cap; the page
    count is then a lower bound and the last page's link is the next page's."""

    def __init__(self, object_list: QuerySet | list, per_page: int, cap: int | None) -> None:
        super().__init__(object_list, per_page)
        self.cap = cap

    @cached_property
    def count(self) -> int:
        if self.cap is None:
            return super().count
        if isinstance(self.object_list, QuerySet):
            # Which rows make up the cap does not matter to a count: unordered, the database
            # may count them from any index that answers the filters.
            return self.object_list.order_by()[: self.cap + 1].count()
        count_to = getattr(self.object_list, "count_to", None)
        if count_to is not None:
            # Rows that count themselves no further than asked (campaigns.history.reads).
            return count_to(self.cap + 1)
        return min(len(self.object_list), self.cap + 1)

    @property
    def more(self) -> bool:
        return self.cap is not None and self.count > self.cap


def _cap(number: str | None, size: int) -> int | None:
    """What a page asked as ``number`` counts up to: its rows and ``LOOKAHEAD`` pages more. A
    number below 1 asks for the last page, which needs the whole count (None); one that is not
    a number reads as the first page."""
    try:
        asked = int(number or 1)
    except ValueError:
        asked = 1
    return None if asked < 1 else (asked + LOOKAHEAD) * size


def listing(
    queryset: QuerySet | list,
    params: QueryDict,
    *,
    size: int,
    path: str,
    param: str = "page",
    capped: bool = False,
) -> Listing:
    """The page of ``queryset`` (ordered, newest first) that ``params[param]`` asks for (a page
    with two lists names each one's page by its own ``param``). ``capped``: count no further
    than ``LOOKAHEAD`` pages past it (``CappedPaginator``)."""
    number = params.get(param)
    paginator = (
        CappedPaginator(queryset, size, _cap(number, size)) if capped else Paginator(queryset, size)
    )
    page = paginator.get_page(number)
    return Listing(
        page=page,
        here=with_query(path, params),
        newer_url=_page_url(path, params, page.previous_page_number(), param)
        if page.has_previous()
        else "",
        older_url=_page_url(path, params, page.next_page_number(), param)
        if page.has_next()
        else "",
    )


ALL = "all"


@dataclass(frozen=True)
class Window:
    """A page of a list a player also wants whole (a sheet to print): the newest rows first by
    default, ``?<param>=all`` for every row."""

    rows: list
    listing: Listing | None  # None when every row is shown
    all_url: str  # every row ("" when shown, or when one page holds them all)
    first_url: str  # back to the newest page ("" on it)


def window(
    queryset: QuerySet | list, params: QueryDict, *, size: int, path: str, param: str
) -> Window:
    """``listing`` with "show all": ``queryset`` (or a list of rows already built) ordered
    newest first; the rows come back in that order."""
    if params.get(param) == ALL:
        query = params.copy()
        query.pop(param, None)
        return Window(list(queryset), None, "", with_query(path, query))
    found = listing(queryset, params, size=size, path=path, param=param)
    paged = found.page.has_other_pages()
    return Window(
        list(found.page.object_list),
        found,
        _page_url(path, params, ALL, param) if paged else "",
        _page_url(path, params, 1, param) if found.page.number > 1 else "",
    )


def back_to(request: HttpRequest, next_url: str, path: str) -> str:
    """Where a list was (``next_url``: its filters and page) when a form on it was posted, or the
    list itself: only ever ``path`` on this site."""
    if (
        next_url
        and urlsplit(next_url).path == path
        and url_has_allowed_host_and_scheme(
            next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return next_url
    return path


def query_of(next_url: str) -> QueryDict:
    """The filters and page number of a list's address."""
    return QueryDict(urlsplit(next_url).query if next_url else "")


class LazyRows(Sequence[Row]):
    """A record's rows made from its items only when read, in the language of the moment the
    record was read: a page of 50 builds its 50 rows, the printed sheet iterates them all.
    What the record sums over every row (totals, #P counts) is computed from the items, not
    from the rows. ``items`` may be an ordered queryset: its length is then a ``COUNT`` and a
    page one ``LIMIT`` query; or a function giving them, called when they are first read (a
    queryset whose building costs more than reading nothing of it)."""

    def __init__(
        self,
        items: Sequence[Any] | QuerySet | Callable[[], Sequence[Any] | QuerySet],
        make: Callable[[Any], Row],
    ) -> None:
        self._source = items
        self._make = make
        self._language = get_language()
        self._all: list[Row] | None = None
        self._count: list[int] = []  # a queryset's COUNT, asked once (shared when reversed)

    @property
    def _items(self) -> Sequence[Any] | QuerySet:
        if callable(self._source):
            self._source = self._source()
        return self._source

    def _made(self, items: Iterable[Any]) -> list[Row]:
        if get_language() == self._language:
            return [self._make(item) for item in items]
        with override(self._language):
            return [self._make(item) for item in items]

    def __len__(self) -> int:
        if isinstance(self._items, QuerySet):
            if not self._count:
                self._count.append(self._items.count())
            return self._count[0]
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return self._made(self._items[index])
        return self._made([self._items[index]])[0]

    def __iter__(self):
        # Every row (a printed sheet): made once, kept for a second pass over them.
        if self._all is None:
            self._all = self._made(self._items)
        return iter(self._all)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRows | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def newest_first(self) -> LazyRows[Row]:
        """The same rows, last first (still made only when read)."""
        items = self._items
        reversed_rows = LazyRows(
            items.reverse() if isinstance(items, QuerySet) else items[::-1], self._make
        )
        reversed_rows._language = self._language
        reversed_rows._count = self._count  # the same rows: counted once
        return reversed_rows
