"""Cherkassy Pocket: the restrictions of an attack that need the map (pure, no Django).

The app has no map of Cherkassy Pocket, so what only the map tells is a fact the attacker
declares on the combat helper, and these rules judge the attack from it:

- ``lake_refusals``: no attack across a lake hexside, ever (11.14).
- ``river_refusals``: no tank attacks across a river hexside (11.14).
- ``river_total``: the attackers across a river are summed, then halved rounding up; the others
  count in full (11.14). Artillery fire is never halved (11.14, 11.23).
- ``chart_halving_applies``: the terrain chart's halving row (the river hexside) halves the whole
  attack only when no attacker is ticked across a river: the ticks already halve those units,
  as 11.14 counts them (never twice).
- ``artillery_range_refusals``: each supporting artillery unit's distance to the target hex
  (its own hex not counted, the target's counted) within its printed range (11.22). The range
  is printed on the counter (left of the branch symbol) and is not in our rules: entered on the
  roster; while it is not, the distance cannot be judged and the page says "unknown".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.common import text

TANK = "tank"


def lake_refusals(across_lake: bool) -> list[Reason]:
    """11.14: "in no case may an attack be made across a lake hexside"."""
    if not across_lake:
        return []
    return [
        Reason(
            "attack_across_lake",
            "11.14",
            text=text(
                "No attack across a lake hexside, in any case.",
                "いかなる場合でも、湖ヘクスサイド越しの攻撃は実施できません。",
            ),
        )
    ]


@dataclass(frozen=True)
class RiverAttacker:
    """An attacker as 11.14 sees it: its name, type and whether it attacks across a river."""

    name: str
    unit_type: str
    across_river: bool


def river_refusals(attackers: Iterable[RiverAttacker]) -> list[Reason]:
    """11.14: tank units may not take part in an attack across a river hexside."""
    tanks = [a.name for a in attackers if a.across_river and a.unit_type == TANK]
    if not tanks:
        return []
    names = ", ".join(tanks)
    return [
        Reason(
            "tank_across_river",
            "11.14",
            {"units": tanks},
            text=text(
                f"{names}: tank units may not attack across a river hexside.",
                f"{'、'.join(tanks)}：戦車ユニットは河川ヘクスサイド越しに攻撃参加できません。",
            ),
        )
    ]


def river_total(strengths: Sequence[tuple[int, bool]]) -> tuple[int, int]:
    """11.14: the attack of (strength, across a river) pairs: the river attackers' sum halved,
    rounding up (7 → 4), plus the others in full. Answers (total, the river part as counted)."""
    across = sum(strength for strength, river in strengths if river)
    others = sum(strength for strength, river in strengths if not river)
    river_part = math.ceil(across / 2)
    return others + river_part, river_part


def chart_halving_applies(row_halves: bool, ticked_across_river: bool) -> bool:
    """11.12/11.14: whether the referee's terrain chart row chosen for the defender halves the
    attack. The chart's halving is the river hexside's (11.14: "attacking across a river hexside,
    a unit's attack is halved"); when the attacker ticked its units across a river, 11.14's own
    count (those units summed, halved rounding up, the others in full) replaces the chart's
    row, so the attack is halved once. Without a tick the chart's row halves the whole attack
    (every attacker then counts as across)."""
    return row_halves and not ticked_across_river


@dataclass(frozen=True)
class Support:
    """A supporting artillery unit: its printed range (None while not entered on the roster)
    and the distance to the target the attacker declared (None while not declared)."""

    name: str
    range: int | None
    distance: int | None
    # 11.22: artillery supporting the defence ("支援砲撃を受ける自軍ユニット"): the distance is to
    # the defending unit it supports, which must be within its range as a target must.
    defending: bool = False


def artillery_range_refusals(supports: Iterable[Support]) -> list[Reason]:
    """11.22: the target hex (for artillery supporting the defence, the hex of the defending
    unit it supports) lies within the artillery's range (the artillery's own hex not counted,
    the target's counted: an adjacent target is 1). A distance must be declared for each
    artillery unit; a range not entered cannot be judged (not refused: shown unknown)."""
    refusals = []
    for support in supports:
        if support.defending:
            refusals.extend(_defending_range_refusals(support))
        elif support.distance is None or support.distance < 1:
            refusals.append(
                Reason(
                    "artillery_distance_missing",
                    "11.22",
                    {"unit": support.name},
                    text=text(
                        f"{support.name}: give the artillery's distance to the target in hexes "
                        "(its own hex not counted, the target's counted).",
                        f"{support.name}：砲兵から攻撃対象までのヘクス数を入力してください"
                        "（砲兵自身のヘクスは数えず、攻撃対象のヘクスは数えます）。",
                    ),
                )
            )
        elif support.range is not None and support.distance > support.range:
            refusals.append(
                Reason(
                    "artillery_out_of_range",
                    "11.22",
                    {"unit": support.name, "distance": support.distance, "range": support.range},
                    text=text(
                        f"{support.name}: the target is {support.distance} hexes away, beyond "
                        f"its range of {support.range}.",
                        f"{support.name}：攻撃対象まで{support.distance}ヘクスで、射程"
                        f"{support.range}の外です。",
                    ),
                )
            )
    return refusals


def _defending_range_refusals(support: Support) -> list[Reason]:
    """11.22 for artillery supporting the defence: the defending unit it supports lies within
    its range."""
    if support.distance is None or support.distance < 1:
        return [
            Reason(
                "artillery_distance_missing",
                "11.22",
                {"unit": support.name},
                text=text(
                    f"{support.name}: give the artillery's distance in hexes to the defending "
                    "unit it supports (its own hex not counted, the defender's counted).",
                    f"{support.name}：砲兵から支援する防御ユニットまでのヘクス数を入力してください"
                    "（砲兵自身のヘクスは数えず、防御ユニットのヘクスは数えます）。",
                ),
            )
        ]
    if support.range is not None and support.distance > support.range:
        return [
            Reason(
                "artillery_out_of_range",
                "11.22",
                {"unit": support.name, "distance": support.distance, "range": support.range},
                text=text(
                    f"{support.name}: the defending unit it supports is {support.distance} hexes "
                    f"away, beyond its range of {support.range}.",
                    f"{support.name}：支援する防御ユニットまで{support.distance}ヘクスで、射程"
                    f"{support.range}の外です。",
                ),
            )
        ]
    return []
