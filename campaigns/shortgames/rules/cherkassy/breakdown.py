"""Cherkassy Pocket's tank breakdown (10.3): who rolls, and what a face does to the unit."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import BREAKDOWN_TYPES
from campaigns.shortgames.rules.common import text


@dataclass(frozen=True)
class Breakdown:
    required: bool
    table_id: str
    fails_on: tuple[int, ...]
    rule: str
    reason: LocalizedText


def tank_breakdown(
    side: str, unit_type: str, *, moved: bool = True, advance_after_combat: bool = False
) -> Breakdown:
    """10.3: each Soviet tank or mechanized infantry unit (not motorized) that moves rolls one
    die; a 1 is a maintenance step loss. Never for an advance after combat."""
    table, rule, fails = "cp.tank-breakdown", "10.3", (1,)
    if side != "soviet" or unit_type not in BREAKDOWN_TYPES:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text(
                "Only Soviet tank and mechanized infantry units roll for breakdown.",
                "故障判定をするのはソ連軍の戦車／機械化歩兵ユニットだけです。",
            ),
        )
    if advance_after_combat:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text(
                "No breakdown roll for an advance after combat.",
                "戦闘後前進では故障判定をしません。",
            ),
        )
    if not moved:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text("Only a unit that moves rolls.", "移動したユニットだけが判定します。"),
        )
    return Breakdown(
        True,
        table,
        fails,
        rule,
        text(
            "Roll one die for this unit: on a 1 it loses a step to breakdown.",
            "このユニットについてダイスを1つ振ります：1なら整備不良で1ステップ喪失。",
        ),
    )


@dataclass(frozen=True)
class BreakdownOutcome:
    step_lost: bool
    to_box: str | None  # "recovery_1" / "recovery_2" when the unit leaves the map
    place_msl: bool
    text: LocalizedText


def breakdown_result(face: int, full_strength: bool, has_msl: bool) -> BreakdownOutcome:
    if face != 1:
        return BreakdownOutcome(False, None, False, text("No effect.", "影響なし。"))
    if full_strength:
        return BreakdownOutcome(
            True,
            None,
            True,
            text(
                "Breakdown: flip to the reduced side and place an MSL marker under it.",
                "整備不良：裏返して減少面にし、下に整備不良マーカーを置く。",
            ),
        )
    if has_msl:
        return BreakdownOutcome(
            True,
            "recovery_2",
            False,
            text(
                "Breakdown: to the 'Tank/Mech Units with 2 Steps Eligible for Recovery' box.",
                "整備不良：“2ステップ”回復ボックスへ。",
            ),
        )
    return BreakdownOutcome(
        True,
        "recovery_1",
        False,
        text(
            "Breakdown: to the 'Tank/Mech Units with 1 Step Eligible for Recovery' box.",
            "整備不良：“1ステップ”回復ボックスへ。",
        ),
    )
