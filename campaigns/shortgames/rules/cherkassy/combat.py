"""Cherkassy Pocket's combat: the odds (11.6), the CRT column after the shifts (11.8, 11.9),
terrain shifts from the referee's terrain chart (11.12) and the referee's CRT."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.cherkassy.data import referee_slot, slot_data
from campaigns.shortgames.rules.common import text


def odds(attack: int, defense: int) -> str:
    """11.6: A ≥ D gives ⌊A/D⌋:1, else 1:⌈D/A⌉ (26 vs 7 → 3:1, 5 vs 11 → 1:3)."""
    if attack <= 0 or defense <= 0:
        raise ValueError("attack and defense must be positive")
    if attack >= defense:
        return f"{attack // defense}:1"
    return f"1:{math.ceil(defense / attack)}"


def _columns(game: Mapping[str, Any]) -> list[str]:
    return list(referee_slot(game, "cp.crt")["shape"]["columns_inferred"])


def odds_column(attack: int, defense: int, shift: int, game: Mapping[str, Any]) -> str:
    """The CRT column after the net column shift (+ right): the raw odds clamped to 1:4–7:1,
    shifted, clamped again (11.8; the intermediate columns are inferred)."""
    columns = _columns(game)
    raw = odds(attack, defense)
    left, right = raw.split(":")
    value = int(left) if right == "1" else -int(right)
    numbers = [int(c.split(":")[0]) if c.endswith(":1") else -int(c.split(":")[1]) for c in columns]
    value = min(max(value, numbers[0]), numbers[-1])
    index = numbers.index(value) if value in numbers else 0
    index = min(max(index + shift, 0), len(columns) - 1)
    return columns[index]


def column_shift(ids: Iterable[str], tables: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """The net shift of the chosen column-shift rows (cp.column-shifts), with the rules;
    "fortified_line_and_stream" replaces the two it combines. A row whose shift is unknown
    (terrain: the TEC is missing) raises."""
    chart = next(c for c in tables["charts"] if c["id"] == "cp.column-shifts")
    rows = {row["id"]: row for row in chart["rows"]}
    chosen = list(dict.fromkeys(ids))
    for row_id in list(chosen):
        for replaced in rows[row_id].get("replaces") or ():
            if replaced in chosen:
                chosen.remove(replaced)
    total = 0
    for row_id in chosen:
        shift = rows[row_id]["shift"]
        if shift is None:
            raise ValueError(f"the {row_id} shift is unknown (the terrain chart is missing)")
        total += shift
    return total, tuple(rows[row_id]["rule"] for row_id in chosen)


def _tec_rows(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's TEC as {terrain id: row}: a mapping of rows, or a list of rows with ``id``
    (or ``terrain``). Only rows are read; anything else in the data is left alone."""
    tec = slot_data(referee_tables, game, "cp.tec")
    if isinstance(tec, Mapping):
        return {str(key): row for key, row in tec.items() if isinstance(row, Mapping)}
    if isinstance(tec, list):
        return {
            str(row.get("id") or row.get("terrain")): row
            for row in tec
            if isinstance(row, Mapping) and (row.get("id") or row.get("terrain"))
        }
    return {}


def terrain_shifts(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, int]:
    """11.12: the column shift of each terrain or hexside of the referee's TEC that has one
    (``column_shift``, a whole number; left = negative); {} while the TEC is missing."""
    shifts = {}
    for terrain, row in _tec_rows(referee_tables, game).items():
        value = row.get("column_shift")
        if isinstance(value, int) and not isinstance(value, bool):
            shifts[terrain] = value
    return shifts


def terrain_halves(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> set[str]:
    """11.12: the terrains of the referee's TEC that halve the attack (a "½" in its combat
    column; 11.14: summed, then halved, rounding up)."""
    return {t for t, row in _tec_rows(referee_tables, game).items() if row.get("halves") is True}


def halved(attack: int) -> int:
    """11.14: the attackers' total halved, rounding up (7 → 4)."""
    return math.ceil(attack / 2)


def crt_answers(column: str, referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    """Whether the referee's CRT answers every roll of ``column`` (checked before rolling, so
    that a die is never spent on a table that cannot answer it)."""
    crt = slot_data(referee_tables, game, "cp.crt")
    if not isinstance(crt, Mapping) or not isinstance(crt.get(column), Mapping):
        return False
    return all(isinstance(crt[column].get(str(face)), Mapping) for face in range(1, 7))


def crt_entered(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    """Whether the referee entered a CRT (the one printed example cell is not a CRT)."""
    return slot_data(referee_tables, game, "cp.crt") is not None


def crt_result(
    column: str, face: int, referee_tables: Mapping[str, Any], game: Mapping[str, Any]
) -> Mapping[str, int] | None:
    """The CRT cell {attacker_steps, defender_steps}, or None while the referee has not
    entered the CRT (the one printed cell, 2:1 / 4 → 1/1, is always known)."""
    crt = slot_data(referee_tables, game, "cp.crt")
    if crt is None:
        for known in referee_slot(game, "cp.crt").get("what_is_known") or ():
            cell = known.get("cell")
            if cell and cell["column"] == column and cell["roll"] == face:
                return cell["result"]
        return None
    return crt[column][str(face)] if isinstance(crt.get(column), Mapping) else None


PREPARED_ATTACK = "prepared_attack"


def prepared_attack(
    declared: str | None, ticked: bool, segment: int | None = None
) -> tuple[bool, Reason | None]:
    """11.27: every attack of a side that declared combat first (5.4) for the activation
    segment gets one column right; none of a side that declared movement first. ``declared``:
    the attacker's order for the current segment ("combat_first", "move_first", "" when it
    declared none), or None when the turn is at no activation segment (the player's tick
    stands). Answers whether the shift applies, and the refusal of a tick the order denies."""
    if declared is None:
        return ticked, None
    if declared == "combat_first":
        return True, None
    if not ticked:
        return False, None
    where = f" {segment}" if segment is not None else ""
    return False, Reason(
        "not_a_prepared_attack",
        "11.27",
        {"segment": segment, "declared": declared},
        text=text(
            f"No prepared-attack shift: the attacker did not declare combat first for "
            f"activation segment{where} (5.4).",
            f"準備下攻撃のコラムシフトはありません：攻撃側は第{segment or ''}活性化セグメントで"
            "戦闘先行を宣言していません（5.4）。",
        ),
    )
