"""Django's two commonest column converters, each in one C call, for the queries compiled once.

Reading a row, Django runs each column's converters. A date and time read from SQLite's text
goes ``convert_datetimefield_value`` → ``parse_datetime`` → ``datetime.fromisoformat``, then
``is_aware`` and ``make_aware``; a JSON column goes ``from_db_value`` → ``json.loads`` →
``decode`` → ``raw_decode`` (two regex matches) → the C scanner. The work is the last call of
each; the rest is Python around it, ~2 µs a value. The export reads ~500 such values at the
demo's size, other pages tens to hundreds (docs/performance.md, "eighth round").

``faster`` puts in their place a function that makes that one call and gives the same value,
and hands every other case (NULL, a value already converted, text of another shape, an error)
to Django's own converter, which stays the rule. Any other converter is kept as it is.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.db.models import JSONField

Converter = Callable[[Any, Any, Any], Any]
Converters = dict[int, tuple[list[Converter], Any]]

# json.loads's own decoder, its C scanner called directly (as ``raw_decode`` calls it).
_scan = json.scanner.make_scanner(json.JSONDecoder())
_datetime = dt.datetime
_fromisoformat = dt.datetime.fromisoformat


def faster(converters: Converters) -> Converters:
    """``compiler.get_converters(…)``'s answer with the two converters above made faster."""
    return {
        position: ([_faster(convert) for convert in converts], expression)
        for position, (converts, expression) in converters.items()
    }


def _faster(convert: Converter) -> Converter:
    function = getattr(convert, "__func__", None)
    if function is JSONField.from_db_value and convert.__self__.decoder is None:  # type: ignore[attr-defined]
        return _json_value(convert)
    if function is not None and _name(function) == _SQLITE_DATETIME:
        return _sqlite_datetime(convert)
    return convert


# Known by name: a module imported while Django sets up its apps (campaigns.access) cannot
# import a database backend's module (with PostgreSQL's settings: a circular import).
_SQLITE_DATETIME = (
    "django.db.backends.sqlite3.operations",
    "DatabaseOperations.convert_datetimefield_value",
)


def _name(function: Callable) -> tuple[str, str]:
    return getattr(function, "__module__", ""), getattr(function, "__qualname__", "")


def _json_value(django_convert: Converter) -> Converter:
    """``JSONField.from_db_value`` for a whole JSON text: what ``json.loads`` gives."""

    def convert(value: Any, expression: Any, connection: Any) -> Any:
        if type(value) is str:
            try:
                decoded, end = _scan(value, 0)
            except (StopIteration, ValueError):  # not JSON from its first letter: Django's way
                pass
            else:
                if end == len(value):  # (a text with more after it: json.loads refuses it)
                    return decoded
        return django_convert(value, expression, connection)

    return convert


def _sqlite_datetime(django_convert: Converter) -> Converter:
    """SQLite's ``convert_datetimefield_value``: made aware in the connection's time zone.

    A column declared ``datetime`` comes already parsed (Django registers ``parse_datetime``
    with the sqlite3 module), naive; one read through an expression or a union comes as the
    text Django writes, parsed here by ``fromisoformat`` (which ``parse_datetime`` tries
    first)."""

    def convert(value: Any, expression: Any, connection: Any) -> Any:
        zone = connection.timezone  # None without USE_TZ: Django's way
        if zone is not None:
            kind = type(value)
            if kind is _datetime:
                return value if value.tzinfo is not None else value.replace(tzinfo=zone)
            if kind is str:
                try:
                    parsed = _fromisoformat(value)
                except ValueError:
                    pass
                else:
                    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=zone)
        return django_convert(value, expression, connection)

    return convert
