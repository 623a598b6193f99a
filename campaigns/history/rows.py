"""Rows that are cheap to draw: the long lists (the history, the dice log, the order of battle)
draw up to a page of rows with the same few links and words, so these are built once per page.

- ``Lookup``: a row whose template lookups (``{{ row.name }}``) find their value at the first
  try. Django's template engine first tries ``row["name"]`` and only then the attribute; on a
  plain object the first try raises, which costs about as much as drawing the value.
- ``url_maker``: a URL of one row per row without ``reverse`` (``{% url %}``) for each: the
  address is reversed once with a stand-in id and the row's opaque id put in its place.
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from campaigns.oid import oid


class Lookup:
    """``row["name"]`` reads ``row.name`` (see the module's docstring)."""

    __slots__ = ()

    def __getitem__(self, name: str) -> object:
        return getattr(self, name)


STAND_IN = 1


def url_maker(name: str, *args: object) -> Callable[[int], str]:
    """The address of ``name`` with ``args`` and then a row's id (an ``<oid:…>`` converter),
    as ``reverse(name, args=[*args, pk])`` answers it."""
    stand_in = oid(STAND_IN)
    head, tail = reverse(name, args=[*args, STAND_IN]).rsplit(stand_in, 1)
    return lambda pk: f"{head}{oid(pk)}{tail}"
