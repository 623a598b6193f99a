"""Cherkassy Pocket's stacking (8.0): three non-artillery units a hex, artillery alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.common import text


@dataclass(frozen=True)
class StackUnit:
    side: str
    artillery: bool = False
    unit_id: str = ""


def stacking_warnings(units_in_hex: Sequence[StackUnit], game: Mapping[str, Any]) -> list[Reason]:
    """8.1: at most 3 non-artillery units per hex, checked at the end of each movement phase
    (the excess is eliminated); 8.4: artillery never stacks with another unit. Markers (air,
    OOS, MSL) are not units and are not passed in."""
    rules = game["stacking"]
    warnings = []
    others = [unit for unit in units_in_hex if not unit.artillery]
    maximum = rules["max_non_artillery_units"]
    if len(others) > maximum:
        warnings.append(
            Reason(
                "over_stacked",
                "8.1",
                text=text(
                    f"{len(others)} units in one hex; at most {maximum} non-artillery units. "
                    "The excess is eliminated at the end of the movement phase (8.2).",
                    f"1ヘクスに{len(others)}ユニット。非砲兵ユニットは{maximum}つまでです。"
                    "移動フェイズ終了時に超過分は除去されます（8.2）。",
                ),
            )
        )
    if any(unit.artillery for unit in units_in_hex) and len(units_in_hex) > 1:
        warnings.append(
            Reason(
                "artillery_stacked",
                rules["artillery_never_stacks"]["rule"],
                text=text(
                    "Artillery never stacks with another unit, even while moving.",
                    "砲兵ユニットは、いかなる瞬間においても（移動の途中も）他のユニットとスタックできません。",
                ),
            )
        )
    return warnings
