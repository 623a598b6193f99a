"""Cherkassy Pocket's referee tables as the referee types them: a grid shaped like the printed
table (column headers, row labels, cells as printed), checked cell by cell, and read into the
data the rules use. Nothing here knows a number the rules do not print: an empty grid has the
headers and labels the rules give (the CRT's 1:4–7:1, die rolls 1–6, the terrains named in 10.8)
and no cells.

A grid is stored as ``{"format": "grid", "columns": [...], "rows": [{"label", "cells"}]}``.
``problems`` says why a grid cannot be used (every message names the row and the column);
``usable`` is the rules' data of a grid without problems, else None; ``from_legacy`` reads the
JSON tables entered before the grids (the shapes the app read), so they still load.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import WEATHER_WORDS, referee_slot
from campaigns.shortgames.rules.common import text, weather_key

# The slots typed as a grid, and which reading each one gets.
GRID_SLOTS = {
    "cp.weather-table": "weather",
    "cp.weather-track": "track",
    "cp.crt": "crt",
    "cp.tec": "tec",
}
FORMAT = "grid"
MAX_ROWS = 40
MAX_COLUMNS = 16
MAX_CELL = 40
DIE = range(1, 7)
# How the terrain chart's combat column may be headed (compared without case or spaces).
COMBAT_HEADERS = frozenset({"combat", "combateffect", "combateffects", "戦闘", "戦闘効果"})
# The terrains and hexsides 10.8 names (the chart's rows before the referee types it).
TEC_TERRAINS = (
    ("clear", "Clear", "平地"),
    ("woods", "Woods", "森"),
    ("hill", "Hill", "丘陵"),
    ("swamp", "Swamp", "沼地"),
    ("town", "Town", "町"),
    ("korsun_airfield", "Korsun airfield", "コルスン飛行場"),
    ("stream", "Stream hexside", "小河川ヘクスサイド"),
    ("river", "River hexside", "河川ヘクスサイド"),
    ("lake", "Lake hexside", "湖ヘクスサイド"),
    ("fortified_line", "Fortified-line hexside", "陣地帯ヘクスサイド"),
    ("bridge", "Bridge", "橋"),
    ("improved_road", "Improved road", "1級道路"),
    ("road", "Road", "道路"),
)
NO_EFFECT = frozenset({"", "-", "—", "–", "0", "none", "なし", "no effect", "noeffect"})
HALVES = frozenset({"½", "1/2", "half", "halved", "半減", "x1/2", "×1/2", "×½"})
_SHIFT = re.compile(r"^([LR])\s*([1-9])$", re.IGNORECASE)
_ODDS = re.compile(r"^\s*(\d+)\s*[:：]\s*(\d+)\s*$")
_RESULT = re.compile(r"^\s*(\d+)\s*[/／]\s*(\d+)\s*$")
_DIE_ROW = re.compile(r"^\s*([1-6])\s*(?:[-–~〜]\s*([1-6]))?\s*$")


@dataclass(frozen=True)
class Grid:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]  # (label, cells), cells as wide as columns

    def lines(self) -> list[tuple[int, str, list[tuple[int, str, str]]]]:
        """Each row as (index, label, [(column index, heading, cell)]), as a form prints it."""
        return [
            (i, label, [(j, self.columns[j], cell) for j, cell in enumerate(cells)])
            for i, (label, cells) in enumerate(self.rows)
        ]

    def data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "columns": list(self.columns),
            "rows": [{"label": label, "cells": list(cells)} for label, cells in self.rows],
        }


def make_grid(columns: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]) -> Grid:
    """A grid with every row as wide as the columns (short rows padded, long ones cut)."""
    width = len(columns)
    return Grid(
        tuple(str(c).strip() for c in columns),
        tuple(
            (str(label).strip(), tuple((list(map(str, cells)) + [""] * width)[:width]))
            for label, cells in rows
        ),
    )


def grid_of(data: Any) -> Grid | None:
    """A stored grid, or None when ``data`` is not one."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        return None
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return None
    if not all(isinstance(row, Mapping) and isinstance(row.get("cells"), list) for row in rows):
        return None
    return make_grid(
        [str(c) for c in columns],
        [(str(row.get("label", "")), [str(c) for c in row["cells"]]) for row in rows],
    )


# --- the empty grid of each slot ---------------------------------------------------------------


def blank(slot_id: str, game: Mapping[str, Any], language: str = "en") -> Grid:
    """The grid the referee starts from: the headers and labels the rules give, empty cells."""
    kind = GRID_SLOTS[slot_id]
    ja = (language or "").startswith("ja")
    if kind == "crt":
        columns = referee_slot(game, "cp.crt")["shape"]["columns_inferred"]
        return make_grid(columns, [(str(face), []) for face in DIE])
    if kind == "weather":
        return make_grid(["天候" if ja else "Weather"], [(str(face), []) for face in DIE])
    if kind == "track":
        low, high = referee_slot(game, "cp.weather-track")["shape"]["turns"]
        return make_grid(
            ["天候" if ja else "Weather"], [(str(turn), []) for turn in range(low, high + 1)]
        )
    headers = (
        ("戦闘", "移動（降雪）", "移動（泥濘）")
        if ja
        else ("Combat", "Movement (snow)", "Movement (mud)")
    )
    return make_grid(
        headers, [((name_ja if ja else name), []) for _, name, name_ja in TEC_TERRAINS]
    )


# --- checking a grid ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why a grid cannot be used, naming its row (1-based) and column when it is one cell's."""

    row: int | None
    column: str | None
    text: LocalizedText


def _where(row: int | None, column: str | None) -> tuple[str, str]:
    if row is not None and column is not None:
        return f"Row {row}, column {column}: ", f"{row}行目・{column}列："
    if row is not None:
        return f"Row {row}: ", f"{row}行目："
    if column is not None:
        return f"Column {column}: ", f"{column}列："
    return "", ""


def _problem(row: int | None, column: str | None, en: str, ja: str) -> Problem:
    where_en, where_ja = _where(row, column)
    return Problem(row, column, text(where_en + en, where_ja + ja))


def _key(value: str) -> str:
    return re.sub(r"[\s_]", "", value).lower()


def _common(grid: Grid) -> list[Problem]:
    problems = []
    if not grid.columns:
        problems.append(_problem(None, None, "The table has no column.", "列がありません。"))
    if not grid.rows:
        problems.append(_problem(None, None, "The table has no row.", "行がありません。"))
    if len(grid.rows) > MAX_ROWS or len(grid.columns) > MAX_COLUMNS:
        problems.append(
            _problem(
                None,
                None,
                f"At most {MAX_ROWS} rows and {MAX_COLUMNS} columns.",
                f"行は{MAX_ROWS}まで、列は{MAX_COLUMNS}までです。",
            )
        )
    seen: set[str] = set()
    for number, header in enumerate(grid.columns, 1):
        if not header:
            problems.append(
                _problem(None, str(number), "the column has no heading.", "見出しがありません。")
            )
        elif _key(header) in seen:
            problems.append(
                _problem(
                    None, header, "two columns have this heading.", "同じ見出しの列が2つあります。"
                )
            )
        seen.add(_key(header))
    for number, (_, cells) in enumerate(grid.rows, 1):
        for header, cell in zip(grid.columns, cells, strict=True):
            if len(cell) > MAX_CELL:
                problems.append(
                    _problem(
                        number,
                        header,
                        f"at most {MAX_CELL} characters.",
                        f"{MAX_CELL}文字までです。",
                    )
                )
    return problems


def _die_rows(grid: Grid) -> tuple[list[Problem], list[tuple[int, int]]]:
    """Row labels as die rolls or ranges ("1", "2-3") covering 1–6 once each."""
    problems, spans = [], []
    covered: dict[int, int] = {}
    for number, (label, _) in enumerate(grid.rows, 1):
        match = _DIE_ROW.match(label)
        if not match:
            problems.append(
                _problem(
                    number,
                    None,
                    f"'{label}' is not a die roll (1–6, or a range such as 2-3).",
                    f"「{label}」はダイス目ではありません（1～6、または2-3のような範囲）。",
                )
            )
            spans.append((0, -1))
            continue
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            low, high = high, low
        spans.append((low, high))
        for face in range(low, high + 1):
            if face in covered:
                problems.append(
                    _problem(
                        number,
                        None,
                        f"die roll {face} is already on row {covered[face]}.",
                        f"ダイス目{face}は{covered[face]}行目にもあります。",
                    )
                )
            covered.setdefault(face, number)
    if not problems:
        for face in DIE:
            if face not in covered:
                problems.append(
                    _problem(
                        None,
                        None,
                        f"Die roll {face} has no row.",
                        f"ダイス目{face}の行がありません。",
                    )
                )
    return problems, spans


def _odds_rank(header: str) -> int | None:
    """n:1 → n, 1:n → 2 − n (1:1 → 1), so that neighbouring columns differ by 1."""
    match = _ODDS.match(header)
    if not match:
        return None
    left, right = int(match.group(1)), int(match.group(2))
    if left >= 1 and right == 1:
        return left
    if left == 1 and right >= 1:
        return 2 - right
    return None


def crt_cell(cell: str) -> tuple[int, int] | None:
    """A printed CRT result: "a/d" step losses (attacker/defender, 11.10) or "0" (11.11)."""
    if cell.strip() == "0":
        return (0, 0)
    match = _RESULT.match(cell)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2))


def _crt_problems(grid: Grid, game: Mapping[str, Any]) -> list[Problem]:
    problems, _ = _die_rows(grid)
    ranks = []
    for header in grid.columns:
        rank = _odds_rank(header)
        if rank is None and header:
            problems.append(
                _problem(
                    None,
                    header,
                    "the heading is not odds (such as 1:2 or 3:1).",
                    "見出しが戦闘比（1:2、3:1など）ではありません。",
                )
            )
        ranks.append(rank)
    if all(rank is not None for rank in ranks) and ranks:
        expected = list(range(_odds_rank("1:4") or 0, (_odds_rank("7:1") or 0) + 1))
        if ranks != expected:
            problems.append(
                _problem(
                    None,
                    None,
                    "The columns must run from 1:4 to 7:1 in order, one per odds (11.8).",
                    "列は1:4から7:1まで、戦闘比ごとに1列ずつ順に並べてください（11.8）。",
                )
            )
    for number, (_, cells) in enumerate(grid.rows, 1):
        for header, cell in zip(grid.columns, cells, strict=True):
            if not cell.strip():
                problems.append(_problem(number, header, "the cell is empty.", "空欄です。"))
            elif crt_cell(cell) is None:
                problems.append(
                    _problem(
                        number,
                        header,
                        f"'{cell}' is not a result (attacker/defender step losses such as 1/1, "
                        "or 0).",
                        f"「{cell}」は戦闘結果ではありません（1/1のような攻撃側/防御側のステップロス、"
                        "または0）。",
                    )
                )
    if problems:
        return problems
    # The one printed cell (11.9's example) must agree.
    for known in referee_slot(game, "cp.crt").get("what_is_known") or ():
        cell = known.get("cell")
        if not cell:
            continue
        table = crt_data(grid)
        got = table.get(cell["column"], {}).get(str(cell["roll"]))
        want = cell["result"]
        if got is not None and got != want:
            number = next(
                n for n, (label, _) in enumerate(grid.rows, 1) if _covers(label, cell["roll"])
            )
            printed = f"{want['attacker_steps']}/{want['defender_steps']}"
            problems.append(
                _problem(
                    number,
                    cell["column"],
                    f"the rules print {printed} for roll {cell['roll']} (11.9).",
                    f"ルールではダイス目{cell['roll']}は{printed}です（11.9）。",
                )
            )
    return problems


def _covers(label: str, face: int) -> bool:
    match = _DIE_ROW.match(label)
    if not match:
        return False
    low, high = sorted((int(match.group(1)), int(match.group(2) or match.group(1))))
    return low <= face <= high


def _single_column(grid: Grid, en: str, ja: str) -> list[Problem]:
    if len(grid.columns) != 1:
        return [_problem(None, None, en, ja)]
    return []


def _weather_problems(grid: Grid, game: Mapping[str, Any]) -> list[Problem]:
    problems, _ = _die_rows(grid)
    problems += _single_column(
        grid,
        "The weather table has one column: the weather for each die roll.",
        "天候表の列は1つ（ダイス目ごとの天候）です。",
    )
    for number, (_, cells) in enumerate(grid.rows, 1):
        for header, cell in zip(grid.columns, cells, strict=True):
            if weather_key(game, cell) not in WEATHER_WORDS:
                problems.append(
                    _problem(
                        number,
                        header,
                        f"'{cell}' is not a weather (snow or mud).",
                        f"「{cell}」は天候ではありません（降雪または泥濘）。",
                    )
                )
    return problems


ROLL_CONDITIONS = frozenset({"snow/mud", "snowormud", "roll", "降雪/泥濘", "降雪／泥濘"})


def track_condition(game: Mapping[str, Any], cell: str) -> str | None:
    """A track box: "snow", "mud" or "snow_or_mud_roll" (printed "snow/mud")."""
    if _key(cell) in {_key(c) for c in ROLL_CONDITIONS} or _key(cell) == "snow_or_mud_roll":
        return "snow_or_mud_roll"
    key = weather_key(game, cell)
    return key if key in WEATHER_WORDS else None


def _track_problems(grid: Grid, game: Mapping[str, Any]) -> list[Problem]:
    problems = _single_column(
        grid,
        "The track has one column: each turn's weather box.",
        "トラックの列は1つ（各ターンの天候ボックス）です。",
    )
    low, high = referee_slot(game, "cp.weather-track")["shape"]["turns"]
    seen: dict[int, int] = {}
    for number, (label, cells) in enumerate(grid.rows, 1):
        if not label.strip().isdigit() or not low <= int(label) <= high:
            problems.append(
                _problem(
                    number,
                    None,
                    f"'{label}' is not a turn ({low}–{high}).",
                    f"「{label}」はターンではありません（{low}～{high}）。",
                )
            )
        elif int(label) in seen:
            problems.append(
                _problem(
                    number,
                    None,
                    f"turn {label} is already on row {seen[int(label)]}.",
                    f"ターン{label}は{seen[int(label)]}行目にもあります。",
                )
            )
        else:
            seen[int(label)] = number
        for header, cell in zip(grid.columns, cells, strict=True):
            if track_condition(game, cell) is None:
                problems.append(
                    _problem(
                        number,
                        header,
                        f"'{cell}' is not snow, mud or snow/mud.",
                        f"「{cell}」は降雪・泥濘・降雪/泥濘のいずれでもありません。",
                    )
                )
    return problems


def combat_effect(cell: str) -> tuple[int, bool] | None:
    """A terrain chart's combat cell: (column shift, attacker halved) — "L1" one column left,
    "R1" right, "½" the attack halved, "—" or empty no effect; None when it is none of these."""
    shift, halves = 0, False
    for token in re.split(r"[\s,+、]+", cell.strip()):
        lowered = token.lower()
        if lowered in NO_EFFECT:
            continue
        if lowered in HALVES:
            halves = True
            continue
        match = _SHIFT.match(token)
        if not match:
            return None
        step = int(match.group(2))
        shift += -step if match.group(1).upper() == "L" else step
    return shift, halves


def combat_column(grid: Grid) -> int | None:
    return next((i for i, h in enumerate(grid.columns) if _key(h) in COMBAT_HEADERS), None)


def _tec_problems(grid: Grid, game: Mapping[str, Any]) -> list[Problem]:
    problems = []
    column = combat_column(grid)
    if column is None:
        problems.append(
            _problem(
                None,
                None,
                "Head one column 'Combat' (戦闘): the app reads each terrain's combat effect "
                "there.",
                "1つの列の見出しを「戦闘」(Combat)にしてください：各地形の戦闘効果をそこから読みます。",
            )
        )
    seen: dict[str, int] = {}
    for number, (label, cells) in enumerate(grid.rows, 1):
        if not label:
            problems.append(
                _problem(number, None, "the terrain has no name.", "地形名がありません。")
            )
        elif _key(label) in seen:
            problems.append(
                _problem(
                    number,
                    None,
                    f"'{label}' is already on row {seen[_key(label)]}.",
                    f"「{label}」は{seen[_key(label)]}行目にもあります。",
                )
            )
        else:
            seen[_key(label)] = number
        if column is not None and not cells[column].strip():
            problems.append(
                _problem(
                    number,
                    grid.columns[column],
                    "the cell is empty (type — for no effect).",
                    "空欄です（効果なしは「—」）。",
                )
            )
        elif column is not None and combat_effect(cells[column]) is None:
            problems.append(
                _problem(
                    number,
                    grid.columns[column],
                    f"'{cells[column]}' is not a combat effect (L1 or R1: column shift; ½: attack "
                    "halved; — or empty: none).",
                    f"「{cells[column]}」は戦闘効果ではありません（L1・R1：コラムシフト、½：攻撃力半減、"
                    "—または空欄：なし）。",
                )
            )
    return problems


_CHECKS = {
    "crt": _crt_problems,
    "weather": _weather_problems,
    "track": _track_problems,
    "tec": _tec_problems,
}


def problems(slot_id: str, grid: Grid, game: Mapping[str, Any]) -> list[Problem]:
    """Why the app could not use this grid (empty: it can)."""
    found = _common(grid)
    return found + _CHECKS[GRID_SLOTS[slot_id]](grid, game)


# --- the rules' data of a grid -----------------------------------------------------------------


def crt_data(grid: Grid) -> dict[str, dict[str, dict[str, int]]]:
    """{column: {"1".."6": {attacker_steps, defender_steps}}} (what ``combat.crt_result`` reads)."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for header_index, header in enumerate(grid.columns):
        column = table.setdefault(re.sub(r"\s", "", header).replace("：", ":"), {})
        for label, cells in grid.rows:
            result = crt_cell(cells[header_index])
            if result is None:
                continue
            for face in DIE:
                if _covers(label, face):
                    column[str(face)] = {"attacker_steps": result[0], "defender_steps": result[1]}
    return table


def weather_data(grid: Grid, game: Mapping[str, Any]) -> dict[str, Any]:
    """The contract dice table ``cp.weather-table`` (5.3) the dice service rolls."""
    rows = []
    for label, cells in grid.rows:
        match = _DIE_ROW.match(label)
        if not match:
            continue
        low, high = sorted((int(match.group(1)), int(match.group(2) or match.group(1))))
        key = weather_key(game, cells[0])
        en, ja = WEATHER_WORDS[key]
        rows.append({"min": low, "max": high, "result": {"weather": key, "en": en, "ja": ja}})
    rows.sort(key=lambda row: row["min"])
    return {
        "id": "cp.weather-table",
        "rule": "5.3",
        "roll": "dr",
        "drm_range": [0, 0],
        "rows": rows,
    }


def track_data(grid: Grid, game: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"turn": int(label), "condition": track_condition(game, cells[0])}
        for label, cells in grid.rows
    ]


def tec_data(grid: Grid) -> dict[str, dict[str, Any]]:
    """{terrain as typed: {"column_shift", "halves", and the other columns as printed}}."""
    column = combat_column(grid)
    rows = {}
    for label, cells in grid.rows:
        shift, halves = combat_effect(cells[column]) if column is not None else (0, False)
        row: dict[str, Any] = {
            header: cell
            for i, (header, cell) in enumerate(zip(grid.columns, cells, strict=True))
            if i != column
        }
        row.update({"column_shift": shift, "halves": halves})
        rows[label] = row
    return rows


def usable(slot_id: str, grid: Grid, game: Mapping[str, Any]) -> Any:
    """The rules' data of the grid, or None when it has problems (never half a table)."""
    if problems(slot_id, grid, game):
        return None
    kind = GRID_SLOTS[slot_id]
    if kind == "crt":
        return crt_data(grid)
    if kind == "weather":
        return weather_data(grid, game)
    if kind == "track":
        return track_data(grid, game)
    return tec_data(grid)


# --- the JSON tables entered before the grids ---------------------------------------------------


def _result_text(value: Any) -> str:
    if isinstance(value, Mapping):
        attacker, defender = value.get("attacker_steps"), value.get("defender_steps")
        if attacker is not None and defender is not None:
            return f"{attacker}/{defender}"
        return ""
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]}/{value[1]}"
    return "" if value is None else str(value)


def _shift_text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    if value == 0:
        return "—"
    return f"L{-value}" if value < 0 else f"R{value}"


def from_legacy(slot_id: str, data: Any) -> Grid | None:
    """A grid holding what an earlier JSON table said (its cells as text, to be checked like
    any typed cell), or None when the JSON has no shape a grid can hold."""
    kind = GRID_SLOTS.get(slot_id)
    if kind is None or data is None:
        return None
    if grid_of(data) is not None:
        return grid_of(data)
    if kind == "weather" and isinstance(data, Mapping) and isinstance(data.get("rows"), list):
        rows = []
        for row in data["rows"]:
            if not isinstance(row, Mapping):
                return None
            low, high = row.get("min"), row.get("max")
            label = f"{low}" if low == high else f"{low}-{high}"
            result = row.get("result")
            weather = result.get("weather") if isinstance(result, Mapping) else result
            rows.append((label, [str(weather or "")]))
        return make_grid(["Weather"], rows)
    if kind == "track" and isinstance(data, list):
        rows = [
            (str(row.get("turn", "")), [str(row.get("condition", "")).replace("_", " ")])
            for row in data
            if isinstance(row, Mapping)
        ]
        rows = [(label, ["snow/mud" if c == ["snow or mud roll"] else c[0]]) for label, c in rows]
        return make_grid(["Weather"], rows) if rows else None
    if kind == "crt" and isinstance(data, Mapping):
        if isinstance(data.get("columns"), list) and isinstance(data.get("rows"), list):
            columns = [str(c) for c in data["columns"]]
            rows = []
            for number, row in enumerate(data["rows"], 1):
                if isinstance(row, Mapping):
                    label = str(row.get("roll", row.get("label", number)))
                    cells = row.get("cells") or row.get("results") or []
                else:
                    label, cells = str(number), row
                if not isinstance(cells, list):
                    return None
                rows.append((label, [_result_text(c) for c in cells]))
            return make_grid(columns, rows)
        if all(isinstance(v, Mapping) for v in data.values()) and data:
            columns = [str(c) for c in data]
            rows = [
                (str(face), [_result_text(data[c].get(str(face))) for c in data]) for face in DIE
            ]
            return make_grid(columns, rows)
        return None
    if kind == "tec":
        if isinstance(data, Mapping):
            items = [(str(k), v) for k, v in data.items() if isinstance(v, Mapping)]
        elif isinstance(data, list):
            items = [
                (str(row.get("id") or row.get("terrain") or ""), row)
                for row in data
                if isinstance(row, Mapping)
            ]
        else:
            return None
        if not items:
            return None
        others: list[str] = []
        for _, row in items:
            for key in row:
                if key not in ("id", "terrain", "column_shift", "combat") and key not in others:
                    others.append(str(key))
        rows = []
        for label, row in items:
            combat = row.get("combat")
            cell = str(combat) if combat is not None else _shift_text(row.get("column_shift"))
            rows.append((label, [cell, *(_result_text(row.get(key)) for key in others)]))
        return make_grid(["Combat", *others], rows)
    return None


# --- editing a grid (the form's add/remove buttons) ---------------------------------------------


def edited(grid: Grid, action: str) -> Grid:
    """``add-row``, ``add-column``, ``remove-row-N`` or ``remove-column-N`` (0-based) applied;
    an unknown action or one past the limits leaves the grid as it is."""
    columns, rows = list(grid.columns), [(label, list(cells)) for label, cells in grid.rows]
    if action == "add-row" and len(rows) < MAX_ROWS:
        rows.append(("", []))
    elif action == "add-column" and len(columns) < MAX_COLUMNS:
        columns.append("")
        rows = [(label, [*cells, ""]) for label, cells in rows]
    elif match := re.fullmatch(r"remove-row-(\d+)", action):
        index = int(match.group(1))
        if index < len(rows):
            del rows[index]
    elif match := re.fullmatch(r"remove-column-(\d+)", action):
        index = int(match.group(1))
        if index < len(columns):
            del columns[index]
            rows = [(label, cells[:index] + cells[index + 1 :]) for label, cells in rows]
    return make_grid(columns, rows)


# --- the file of tables reused in the next game --------------------------------------------------

FILE_FORMAT = "campaign-desk/cherkassy-referee-tables"
FILE_VERSION = 1


def tables_file(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's tables as a file: {slot id: stored data} of the grid slots entered."""
    return {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "tables": [{"slot": slot, "data": stored[slot]} for slot in GRID_SLOTS if stored.get(slot)],
    }


def read_tables_file(payload: Any) -> list[tuple[str, Grid]] | LocalizedText:
    """The (slot, grid) pairs of a tables file, or why it is not one (its cells are checked
    when each table is saved)."""
    if not isinstance(payload, Mapping) or payload.get("format") != FILE_FORMAT:
        return text(
            "This is not a file of Cherkassy Pocket referee tables.",
            "チェルカッシー・ポケットの審判表のファイルではありません。",
        )
    if payload.get("version") != FILE_VERSION:
        return text(
            "This file was written by a newer version of the app.",
            "このファイルはより新しいバージョンのアプリで書かれています。",
        )
    found = []
    rows = payload.get("tables")
    if not isinstance(rows, list):
        rows = [None]
    for number, row in enumerate(rows, 1):
        slot = row.get("slot") if isinstance(row, Mapping) else None
        grid = from_legacy(slot, row.get("data")) if slot in GRID_SLOTS else None
        if grid is None or any(s == slot for s, _ in found):
            return text(
                f"Table {number} of the file is not one of the referee's tables.",
                f"ファイルの{number}番目の表は審判表ではありません。",
            )
        found.append((slot, grid))
    return found
