"""Cherkassy Pocket's turn sequence (5.2): the steps on a given turn of a scenario, which
take place, which the scenario restricts or fixes, and which of a step's tables are rolled."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.air import air_points
from campaigns.shortgames.rules.cherkassy.data import CpState, check_turn, fixed_text
from campaigns.shortgames.rules.cherkassy.reinforcements import pz24_arrival
from campaigns.shortgames.rules.common import StepState, TableUse, text

# 5.4: at the start of each activation segment a player declares which of movement and combat
# comes first for that segment, and is bound by it.
ORDERS = {
    "move_first": text("movement first, then combat", "移動が先、戦闘が後"),
    "combat_first": text("combat first, then movement", "戦闘が先、移動が後"),
}


def order_needed(step_id: str, side: str, steps: Iterable[Any]) -> bool:
    """5.4: ``side`` declares its order as it marks the activation segment's air power step
    (the segment's first phase) — unless none of its operations of that segment take place
    (scenarios 2 and 3 start after the Soviet operations of segment 1)."""
    segment, _, name = step_id.partition(".")
    if name != "air_power":
        return False
    return any(
        step.id.startswith(f"{segment}.{side}_operations") and step.applies for step in steps
    )


def _special_rules_text(
    row: Mapping[str, Any], turn: int, side: str | None, segment: int | None
) -> LocalizedText | None:
    """The scenario's special rules that restrict ``side`` on ``turn`` (and segment)."""
    texts = [
        rule["text"]
        for rule in row["special_rules"]
        if turn in (rule.get("turns") or ())
        and rule.get("side") in (side, None)
        and (rule.get("segment") is None or rule.get("segment") == segment)
        and (rule.get("no_movement") or rule.get("no_combat") or rule.get("may_not_be_adjacent_to"))
    ]
    if not texts:
        return None
    return text(" ".join(t["en"] for t in texts), "".join(t.get("ja") or t["en"] for t in texts))


def _override(step: Mapping[str, Any], campaign_game: str, turn: int) -> Mapping[str, Any] | None:
    for override in step.get("scenario_overrides") or ():
        if override["campaign_game"] == campaign_game and override["turn"] == turn:
            return override
    return None


def steps(
    turn: int,
    campaign_game: str,
    state: CpState,
    sequence: Mapping[str, Any],
    game: Mapping[str, Any],
) -> list[StepState]:
    """The turn sequence (5.2) for ``turn`` of ``campaign_game``: weather, supply, recovery
    designation, two activation segments (air, Soviet and German operations, reconstitution,
    artillery recovery), tank recovery, turn advance. Scenario 2 and 3 start mid-turn: the
    steps before the German operations of their first turn are skipped, the weather and the
    German air points fixed."""
    row = check_turn(game, campaign_game, turn)
    result = []
    for step in sequence["steps"]:
        override = _override(step, campaign_game, turn)
        applies, limited, reason = True, False, None
        effect = override["effect"] if override else None
        if effect == "skipped":
            applies = False
            reason = text(
                f"Not played: {row['rule']} starts in the German operations segment of turn "
                f"{turn}.",
                f"行いません：{row['rule']}は第{turn}ターンのドイツ軍作戦セグメントから始まります。",
            )
        elif effect == "fixed":
            reason = fixed_text(override["values"])
        elif effect == "restricted":
            limited = True
            reason = _special_rules_text(row, turn, step.get("side"), step.get("segment"))
        elif effect == "scenario_starts_here":
            reason = text(f"{row['rule']} starts here.", f"{row['rule']}はここから始まります。")
        tables = tuple(
            _table_use(step, table_id, turn, campaign_game, state, applies, override)
            for table_id in step.get("tables") or ()
        )
        result.append(
            StepState(
                id=step["id"],
                phase=None,
                side=step.get("side"),
                rule=step["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
                tables=tables,
                referee_slots=tuple(step.get("referee_slots") or ()),
            )
        )
    return result


def _table_use(
    step: Mapping[str, Any],
    table_id: str,
    turn: int,
    campaign_game: str,
    state: CpState,
    step_applies: bool,
    override: Mapping[str, Any] | None,
) -> TableUse:
    roller = {"cp.air-points-german": "german", "cp.air-points-soviet": "soviet"}.get(
        table_id, step.get("side")
    )
    rule = step["rule"]
    if not step_applies:
        return TableUse(table_id, False, rule, None, roller)
    if table_id in ("cp.air-points-german", "cp.air-points-soviet"):
        answer = air_points(turn, step.get("segment") or 1, roller, campaign_game)
        applies = answer.fixed is None and not answer.skipped
        return TableUse(table_id, applies, answer.rule, answer.reason, roller)
    if table_id == "cp.pz24-arrival":
        use = pz24_arrival(turn, step.get("segment") or 1, state)
        return TableUse(table_id, use.applies, use.rule, use.reason, roller)
    return TableUse(table_id, True, rule, None, roller)
