"""Rows that are cheap to draw: the long lists (the history, the dice log, the order of battle)
draw up to a page of rows with the same few links and words, so these are built once per page.

- ``Lookup``: a row whose template lookups (``{{ row.name }}``) find their value at the first
  try. Django's template engine first tries ``row["name"]`` and only then the attribute; on a
  plain object the first try raises, which costs about as much as drawing the value.
- ``when_drawn``: a row's time in its two forms with the language's format looked up once.
- ``url_maker``: a URL of one row per row without ``reverse`` (``{% url %}``) for each: the
  address is reversed once with a stand-in id and the row's opaque id put in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.timezone import template_localtime

from campaigns.oid import oid


class Lookup:
    """``row["name"]`` reads ``row.name`` (see the module's docstring)."""

    __slots__ = ()

    def __getitem__(self, name: str) -> object:
        return getattr(self, name)


STAND_IN = 1


def url_maker(name: str, *args: object) -> Callable[..., str]:
    """The address of ``name`` with ``args`` and then a row's id (an ``<oid:…>`` converter),
    as ``reverse(name, args=[*args, pk])`` answers it; ``make(pk, token)`` with the row's
    ``oid(pk)`` already written."""
    stand_in = oid(STAND_IN)
    head, tail = reverse(name, args=[*args, STAND_IN]).rsplit(stand_in, 1)

    def make(pk: int, token: str = "") -> str:
        return f"{head}{token or oid(pk)}{tail}"

    return make


# Format characters that read more than the minute (seconds and below, the whole instant): a
# format with any of them is drawn for every row (its letters escaped or not: erring safe).
_FINER_THAN_MINUTES = frozenset("suvUcr")


def when_drawn() -> Callable[[Any], tuple[str, str]]:
    """A time as ``|date:'c'`` and ``|date:"SHORT_DATETIME_FORMAT"`` draw it, in the reader's
    time zone and language (the format looked up once per page). The short form reads to the
    minute in every language Django has: drawn once per minute of the page's rows (a page's
    changes are mostly a few minutes' work), keyed by the wall clock and its offset."""
    short = get_format("SHORT_DATETIME_FORMAT")
    by_minute: dict[tuple, str] | None = None if _FINER_THAN_MINUTES & set(short) else {}

    def drawn(moment: Any) -> tuple[str, str]:
        local = template_localtime(moment)
        if by_minute is None:
            return local.isoformat(), dateformat.format(local, short)
        key = (local.year, local.month, local.day, local.hour, local.minute, local.utcoffset())
        text = by_minute.get(key)
        if text is None:
            text = by_minute[key] = dateformat.format(local, short)
        return local.isoformat(), text

    return drawn
