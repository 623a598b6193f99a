"""The Historical DRM chart (RF 11.6161) as typed or pasted: pure, no Django.

Our rules do not print the chart's values, so the referee types them in, usually from a printed
table: one line per CG day, the day first, then one value per side::

    10/17   ?   ?
    18 Oct  -2  0
    1942-10-19	+1	-1        (tab-separated, as pasted from a spreadsheet)

``parse_chart`` reads such text into values per (CG day index, side key) and, for every line it
cannot read, a ``ChartError`` naming the line and the cell (the words are the caller's:
``campaigns.histdrm.forms``). A value is a signed whole number (−2, +1, ±0, 0; full-width
digits and the typographic minus are read too) or "?" / an empty tab-separated cell for unknown.
A first line naming the sides ("Date German Soviet") sets the order of the value columns.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# The chart is missing from our rules, so it gives no bounds; the examples show −2 … +1. A DRM
# beyond ±9 on a 2–12 DR is a typing slip, never a chart value (the roster's form has the same).
LIMIT = 9

UNKNOWN_MARKS = frozenset({"?", ""})
MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\ufe63": "-"})
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)


@dataclass(frozen=True)
class ChartError:
    """One thing in the pasted chart that cannot be read.

    ``code``: ``no_day`` (the day is not a CG day of the campaign game), ``repeated_day``,
    ``cell_count`` (too few or too many values), ``not_a_value``, ``out_of_range``,
    ``side_not_editable`` (a header names a side the user may not set). ``line`` counts from 1;
    ``cell`` is the side key of the value column, or "" for the whole line / the day."""

    line: int
    code: str
    cell: str = ""
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ParsedChart:
    values: dict[tuple[int, str], int | None]  # (CG day index, side key) → DRM, None = unknown
    errors: tuple[ChartError, ...]
    lines: dict[int, int]  # CG day index → the line it was given on


def normalize(text: str) -> str:
    """Text as compared: full-width folded (NFKC), lower case, "." and "," dropped, leading
    zeros of numbers dropped, runs of spaces made one."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(MINUSES)
    text = re.sub(r"[.,]", " ", text)
    text = re.sub(r"(?<!\d)0+(\d)", r"\1", text)
    return " ".join(text.split())


def day_aliases(key: str, labels: Iterable[str] = ()) -> set[str]:
    """The ways a printed table or a person writes a CG day, normalized: its labels and, for a
    day whose key is a date, "10/17", "17 Oct", "Oct 17", "1942-10-17", "10月17日" and the like."""
    aliases = {normalize(label) for label in labels if label.strip()}
    aliases.add(normalize(key))
    try:
        date = dt.date.fromisoformat(key)
    except ValueError:
        return aliases
    y, m, d = date.year, date.month, date.day
    month = MONTHS[m - 1]
    for name in (month, month[:3]):
        aliases |= {f"{d} {name}", f"{d} {name} {y}", f"{name} {d}", f"{name} {d} {y}"}
    aliases |= {
        f"{m}/{d}",
        f"{m}/{d}/{y}",
        f"{y}/{m}/{d}",
        f"{y}-{m}-{d}",
        f"{m}月{d}日",
        f"{y}年{m}月{d}日",
    }
    return {normalize(alias) for alias in aliases}


def read_value(text: str) -> tuple[int | None, str]:
    """One cell: (value, "") or (None, "") for unknown, or (None, error code)."""
    cell = normalize(text)
    if cell in UNKNOWN_MARKS:
        return None, ""
    match = re.fullmatch(r"(\+|-|±|\+/-)?\s*(\d{1,3})", cell)
    if match is None:
        return None, "not_a_value"
    sign, digits = match.groups()
    value = int(digits)
    if sign in ("±", "+/-") and value != 0:
        return None, "not_a_value"
    value = -value if sign == "-" else value
    if abs(value) > LIMIT:
        return None, "out_of_range"
    return value, ""


def _cells(line: str) -> list[str]:
    if "\t" in line:
        return [cell.strip() for cell in line.split("\t")]
    return line.split()


def _find_day(
    cells: list[str], count: int, by_alias: Mapping[str, int]
) -> tuple[int, str, list[str]] | None:
    """(day index, day as written, value cells) of a line: the leading cells that name a CG day,
    preferring the reading that leaves ``count`` values; None when no leading cells name one."""
    found = None
    for split in range(1, len(cells) + 1):
        label = " ".join(cells[:split]).strip()
        index = by_alias.get(normalize(label))
        if index is None:
            continue
        found = (index, label, cells[split:])
        if len(cells) - split == count:
            break
    return found


def _header(cells: list[str], sides: Mapping[str, set[str]]) -> list[str] | None:
    """The side keys a header line names, in its order ("Date German Soviet", "German Soviet",
    a tab-separated line with an empty first cell); None when the line is not a header."""
    named = [normalize(cell) for cell in cells if cell.strip()]

    def keys_of(names: list[str]) -> list[str] | None:
        keys = [
            next((k for k, aliases in sides.items() if name in aliases), None) for name in names
        ]
        if not keys or None in keys or len(set(keys)) != len(keys):
            return None
        return keys  # type: ignore[return-value]

    return keys_of(named) or keys_of(named[1:])


def parse_chart(
    text: str,
    days: Sequence[set[str]],
    sides: Mapping[str, set[str]],
    editable: Sequence[str],
) -> ParsedChart:
    """Read a pasted chart.

    ``days``: for each CG day (by index), the aliases it is written as (``day_aliases``).
    ``sides``: every side of the game, key → the names it is written as (normalized).
    ``editable``: the side keys the user may set, in the game's order — the value columns
    unless a header line names them otherwise.
    """
    by_alias: dict[str, int] = {}
    for index, aliases in enumerate(days):
        for alias in aliases:
            by_alias.setdefault(alias, index)
    columns = list(editable)
    values: dict[tuple[int, str], int | None] = {}
    errors: list[ChartError] = []
    lines: dict[int, int] = {}
    first = True
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        tabbed = "\t" in raw
        cells = _cells(raw)
        if first:
            first = False
            header = _header(cells, sides)
            if header is not None:
                errors += [
                    ChartError(number, "side_not_editable", key)
                    for key in header
                    if key not in editable
                ]
                columns = header
                continue
        if tabbed:
            while len(cells) > len(columns) + 1 and not cells[-1]:
                cells = cells[:-1]  # a spreadsheet's empty trailing columns
        found = _find_day(cells, len(columns), by_alias)
        if found is None:
            label = " ".join(cells[: max(len(cells) - len(columns), 1)]).strip()
            errors.append(ChartError(number, "no_day", "", {"day": label}))
            continue
        index, label, cells = found
        if len(cells) != len(columns):
            errors.append(
                ChartError(
                    number,
                    "cell_count",
                    "",
                    {"day": label, "expected": len(columns), "found": len(cells)},
                )
            )
            continue
        if index in lines:
            errors.append(
                ChartError(number, "repeated_day", "", {"day": label, "first": lines[index]})
            )
            continue
        lines[index] = number
        for key, cell in zip(columns, cells, strict=True):
            value, problem = read_value(cell)
            if problem:
                errors.append(
                    ChartError(number, problem, key, {"value": cell, "day": label, "limit": LIMIT})
                )
            elif key in editable:
                values[index, key] = value
    return ParsedChart(values=values, errors=tuple(errors), lines=lines)
