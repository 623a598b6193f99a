"""A game's named weathers, read from its data: the key the calendar stores, its name in the
reader's language, and the conditions the rules read from it. Plain Python, no Django.

The weathers are listed in the module's data as ``types``: the short games in ``game.json``
(``weather.types``), Red Factories in ``weather.json`` (``types``). Each type has a ``key`` and
a ``name`` {en, ja}; Red Factories' types add the table result they are booked for (``rolled``),
whether they are December's (``december``) and flags (``falling_snow``, ``ground_snow``,
``falling_snow_possible``), and ``kind``, what the type counts as for the next day's DRMs
(December's Mist is Overcast with Falling Snow, 11.618).

Red Factories' Environmental Conditions (``ec_types``: Wet, Moist, Moderate, Dry) are named the
same way and read by the same functions.

A calendar holds a key. Older campaigns and exports may hold words (typed by hand, or booked
by an earlier version: "Overcast, Falling Snow; Ground Snow"): ``key_of`` reads a type's key,
either name and the spellings listed as its ``legacy`` words, whole and ignoring case, spaces and
underscores — never a word found inside another ("Clear; Ground Snow" is not falling snow).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from campaigns.games.registry import localized

FLAGS = ("falling_snow", "falling_snow_possible", "ground_snow")

WeatherType = Mapping[str, Any]


def types_of(files: Mapping[str, Any]) -> tuple[WeatherType, ...]:
    """The module's named weathers (its data files by name), or () when it names none."""
    game = (files.get("game") or {}).get("weather") or {}
    return tuple(game.get("types") or (files.get("weather") or {}).get("types") or ())


def ec_types_of(files: Mapping[str, Any]) -> tuple[WeatherType, ...]:
    """The module's named Environmental Conditions (RF ``weather.json`` ``ec_types``), or ()."""
    return tuple((files.get("weather") or {}).get("ec_types") or ())


def folded(value: str) -> str:
    """A weather's spelling for comparison: NFKC (full-width letters as ASCII), case-folded,
    without whitespace or underscores ("Light  mud" and "light_mud" are the same)."""
    value = unicodedata.normalize("NFKC", value).casefold()
    return "".join(char for char in value if not char.isspace() and char != "_")


def key_of(types: Sequence[WeatherType], stored: str | None) -> str | None:
    """The key of the type a stored weather stands for, or None (empty, or words that name
    none of the types as a whole)."""
    if not isinstance(stored, str):
        return None
    wanted = folded(stored)
    if not wanted:
        return None
    for kind in types:
        names = kind.get("name") or {}
        spellings = {folded(kind["key"]), folded(names.get("en", "")), folded(names.get("ja", ""))}
        spellings |= {folded(word) for word in kind.get("legacy", ())}
        if wanted in spellings:
            return kind["key"]
    return None


def entered_as_text(files: Mapping[str, Any]) -> bool:
    """Does the calendar keep the module's weather and EC as typed words (SaP: no table to roll
    on), storing the key of a named type where the words name one?"""
    return bool((files.get("weather") or {}).get("entered_as_text"))


def stored_as(types: Sequence[WeatherType], typed: str) -> str:
    """Words typed for a free-text weather or EC as they are stored: the key of the type they
    name (in either language), else as typed."""
    return key_of(types, typed) or typed


def type_of(types: Sequence[WeatherType], key: str | None) -> WeatherType | None:
    return next((kind for kind in types if kind["key"] == key), None)


def label_of(types: Sequence[WeatherType], stored: str, language: str | None) -> str:
    """A stored weather in the reader's words: its type's name, else as it was written."""
    kind = type_of(types, key_of(types, stored))
    if kind is None or not kind.get("name"):
        return stored
    return localized(kind["name"], language)


def conditions(types: Sequence[WeatherType], stored: str | None) -> frozenset[str] | None:
    """What a stored weather tells the rules: the type's ``kind`` (or its key) and each of its
    flags that is set, e.g. {"overcast", "falling_snow", "ground_snow"}; None when the stored
    weather is no type of the game (unknown to the rules)."""
    kind = type_of(types, key_of(types, stored))
    if kind is None:
        return None
    return frozenset({kind.get("kind", kind["key"]), *(flag for flag in FLAGS if kind.get(flag))})


def offered(types: Sequence[WeatherType], month: int | None) -> tuple[WeatherType, ...]:
    """The types a calendar day may hold: December's only in December and the others only
    outside it, where the data says which are December's and the day's month is known."""
    if month is None:
        return tuple(types)
    return tuple(
        kind for kind in types if "december" not in kind or bool(kind["december"]) == (month == 12)
    )


def booked(types: Sequence[WeatherType], rolled: str, month: int | None) -> str | None:
    """The key to book for a weather table's result ``rolled`` in ``month``: the type booked
    for that result in that month (December's own types in December), or None."""
    for kind in offered(types, month):
        if kind.get("rolled") == rolled:
            return kind["key"]
    return None
