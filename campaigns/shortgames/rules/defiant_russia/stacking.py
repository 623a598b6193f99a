"""Defiant Russia's stacking (6.2): what the opponent may remove at the end of a phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.common import text
from campaigns.shortgames.rules.defiant_russia.data import SOVIET_ARMY_TYPES


@dataclass(frozen=True)
class StackUnit:
    side: str
    nationality: str
    type: str
    unit_id: str = ""


def _counts_for_stacking(unit: StackUnit, game: Mapping[str, Any]) -> bool:
    if unit.type == "leader":
        return False  # 11.6
    if unit.nationality == "spanish":
        return False  # 6.22, 11.44
    # 6.2 says nothing of fleets (AMB-11): like leaders they are not ground units.
    return unit.type != "fleet"


def stacking_warnings(units_in_hex: Sequence[StackUnit], game: Mapping[str, Any]) -> list[Reason]:
    """6.2: at most 2 units per hex at the end of every phase (leaders, the Blue Division and
    fleets not counted), one Soviet army per hex unless with Stalin, Hungarians and Romanians
    never together. Excess units are removed, chosen by the opponent."""
    rules = game["stacking"]
    warnings: list[Reason] = []
    counted = [unit for unit in units_in_hex if _counts_for_stacking(unit, game)]
    maximum = rules["max_units_per_hex"]
    if len(counted) > maximum:
        warnings.append(
            Reason(
                "over_stacked",
                rules["rule"],
                text=text(
                    f"{len(counted)} units in one hex; at most {maximum} (leaders, the Blue "
                    "Division and fleets not counted). The opponent removes the excess at the "
                    "end of the phase.",
                    f"1ヘクスに{len(counted)}部隊。最大{maximum}部隊です（リーダー、青師団、艦隊は"
                    "数えません）。フェイズ終了時に超過分は相手の選択で取り除かれます。",
                ),
            )
        )
    with_stalin = any(unit.unit_id == "stalin" for unit in units_in_hex)
    armies = [unit for unit in counted if unit.type in SOVIET_ARMY_TYPES]
    army_rule = rules["soviet_army_units_per_hex"]
    if len(armies) > army_rule["max"] and not with_stalin:
        warnings.append(
            Reason(
                "soviet_armies",
                army_rule["rule"],
                text=text(
                    "Only one Soviet infantry army or shock army per hex (any two Soviet units "
                    "may stack with Stalin, 11.62).",
                    "1ヘクスに置けるソビエト連邦歩兵軍か打撃軍は1つだけです"
                    "（スターリンとはどの2部隊でもスタックできます、11.62）。",
                ),
            )
        )
    nationalities = {unit.nationality for unit in counted}
    hate = rules["never_together"]
    if set(hate["nationalities"]) <= nationalities:
        warnings.append(
            Reason(
                "hungarian_romanian",
                hate["rule"],
                text=text(
                    "Hungarian and Romanian units may never end a phase stacked together.",
                    "ハンガリーとルーマニアの部隊は決して一緒に積み重ねられてフェイズを終えることは"
                    "できません。",
                ),
            )
        )
    return warnings
