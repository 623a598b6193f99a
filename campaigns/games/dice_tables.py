"""Dice tables as data: parse, check coverage, look up a modified result.

A table maps a *final* (modified) roll to a result. Rows give inclusive bounds; ``null`` means
open-ended ("≤ 4", "12+"). Every reachable final roll must fall in exactly one row: the range
reachable is the roll's natural range widened by the table's declared DRM bounds
(``drm_range``, default ``[0, 0]``). Plain Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import GameDataError

ROLL_RANGES = {"dr": (1, 6), "DR": (2, 12), "2dr": (2, 12), "d10": (1, 10)}


@dataclass(frozen=True)
class Row:
    min: int | None
    max: int | None
    result: Any

    def contains(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


@dataclass(frozen=True)
class DiceTable:
    id: str
    rule: str
    roll: str
    drm_range: tuple[int, int]
    rows: tuple[Row, ...]

    @property
    def reachable(self) -> tuple[int, int]:
        low, high = ROLL_RANGES[self.roll]
        return low + self.drm_range[0], high + self.drm_range[1]

    def lookup(self, final: int) -> Any:
        for row in self.rows:
            if row.contains(final):
                return row.result
        raise ValueError(f"{self.id}: no row for final roll {final}")


def _bound(value: Any, path: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameDataError(path, "must be a whole number or null")
    return value


def parse_table(data: Any, path: str) -> DiceTable:
    if not isinstance(data, dict):
        raise GameDataError(path, "must be an object")
    for key in ("id", "rule", "roll"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise GameDataError(f"{path}.{key}", "is required")
    if data["roll"] not in ROLL_RANGES:
        raise GameDataError(f"{path}.roll", f"must be one of {', '.join(ROLL_RANGES)}")
    drm_range = data.get("drm_range", [0, 0])
    if (
        not isinstance(drm_range, list)
        or len(drm_range) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in drm_range)
        or drm_range[0] > drm_range[1]
    ):
        raise GameDataError(f"{path}.drm_range", "must be [lowest, highest] total DRM")
    raw_rows = data.get("rows")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise GameDataError(f"{path}.rows", "must list at least one row")
    rows = []
    for i, raw in enumerate(raw_rows):
        row_path = f"{path}.rows[{i}]"
        if not isinstance(raw, dict) or "result" not in raw:
            raise GameDataError(row_path, "needs min, max and result")
        row = Row(
            _bound(raw.get("min"), f"{row_path}.min"),
            _bound(raw.get("max"), f"{row_path}.max"),
            raw["result"],
        )
        if row.min is not None and row.max is not None and row.min > row.max:
            raise GameDataError(row_path, f"min {row.min} is above max {row.max}")
        rows.append(row)
    table = DiceTable(
        id=data["id"],
        rule=data["rule"],
        roll=data["roll"],
        drm_range=(drm_range[0], drm_range[1]),
        rows=tuple(rows),
    )
    check_coverage(table, path)
    return table


def check_coverage(table: DiceTable, path: str) -> None:
    """Every reachable final roll in exactly one row, rows in ascending order."""
    low, high = table.reachable
    for i, (before, after) in enumerate(zip(table.rows, table.rows[1:], strict=False), start=1):
        if before.max is None or after.min is None:
            raise GameDataError(f"{path}.rows[{i}]", "overlaps the row before it")
        if after.min <= before.max:
            raise GameDataError(f"{path}.rows[{i}]", "overlaps the row before it")
        if after.min > before.max + 1:
            raise GameDataError(
                f"{path}.rows[{i}]", f"leaves a gap: {before.max + 1}–{after.min - 1}"
            )
    first, last = table.rows[0], table.rows[-1]
    if first.min is not None and first.min > low:
        raise GameDataError(f"{path}.rows[0]", f"does not cover final rolls from {low}")
    if last.max is not None and last.max < high:
        raise GameDataError(
            f"{path}.rows[{len(table.rows) - 1}]", f"does not cover final rolls up to {high}"
        )
