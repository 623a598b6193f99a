"""Cherkassy Pocket's victory: the scenario's Soviet VP as they stand, each condition met,
not met or not known yet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import scenario
from campaigns.shortgames.rules.common import data_text, text


@dataclass(frozen=True)
class CpVictoryFacts:
    """What the scenario's victory conditions test; ``None`` = not known (shown, not counted)."""

    encirclement_formed: bool = False
    n_eliminated_or_encircled_at_formation: int | None = None
    non_n_eliminated_or_encircled_at_formation: int | None = None
    hex_control: Mapping[str, str] = field(default_factory=dict)
    stemmermann_on_map: int | None = None
    stemmermann_all_eliminated_before_relief: bool | None = None
    stemmermann_n_ever: int | None = None
    stemmermann_non_n_ever: int | None = None
    german_tanks_eliminated: int | None = None
    soviet_tanks_eliminated_or_in_recovery: int | None = None
    game_over: bool = False


@dataclass(frozen=True)
class VpCondition:
    id: str
    vp: int
    met: bool | None  # None: not known yet
    scored: bool
    rule: str
    text: LocalizedText
    note: LocalizedText | None = None


@dataclass(frozen=True)
class VictoryTally:
    vp: int
    max_vp: int
    conditions: tuple[VpCondition, ...]
    level: LocalizedText
    final: bool


# A condition's ``test`` key → the fact it compares as "at least".
COUNT_FACTS = {
    "german_units_marked_n_eliminated_or_encircled_min": "n_eliminated_or_encircled_at_formation",
    "german_units_not_marked_n_eliminated_or_encircled_min": (
        "non_n_eliminated_or_encircled_at_formation"
    ),
    "stemmermann_units_on_map_min": "stemmermann_on_map",
    "stemmermann_units_marked_n_min": "stemmermann_n_ever",
    "stemmermann_units_not_marked_n_min": "stemmermann_non_n_ever",
}


def _test(test: Mapping[str, Any], facts: CpVictoryFacts) -> bool | None:
    results: list[bool | None] = []
    for key, value in test.items():
        if key == "any_of":
            parts = [_test(part, facts) for part in value]
            if any(parts):
                results.append(True)
            elif None in parts:
                results.append(None)
            else:
                results.append(False)
        elif key == "hex":
            holder = facts.hex_control.get(value)
            results.append(None if holder is None else holder == test["controlled_by"])
        elif key == "controlled_by":
            continue
        elif key == "german_tank_units_eliminated_greater_than":
            german, soviet = (
                facts.german_tanks_eliminated,
                facts.soviet_tanks_eliminated_or_in_recovery,
            )
            results.append(None if german is None or soviet is None else german > soviet)
        elif key == "stemmermann_all_eliminated_before_relief":
            got = facts.stemmermann_all_eliminated_before_relief
            results.append(None if got is None else got == value)
        else:
            name = COUNT_FACTS[key]
            got = getattr(facts, name)
            results.append(None if got is None else got >= value)
    if False in results:
        return False
    if None in results:
        return None
    return True


def victory_tally(
    campaign_game: str, facts: CpVictoryFacts, game: Mapping[str, Any]
) -> VictoryTally:
    """The Soviet VP of the scenario as they stand. Conditions judged when the pocket forms
    count only if it formed; those judged at the end are provisional until ``game_over``;
    conditions of one ``exclusive_group`` never both score."""
    row = scenario(game, campaign_game)
    victory = row["victory"]
    met: dict[str, bool | None] = {}
    conditions = []
    scored_groups: set[str] = set()
    for condition in victory["conditions"]:
        result = _test(condition["test"], facts)
        note = None
        if condition["judged"] == "encirclement_formed" and not facts.encirclement_formed:
            result = None if not facts.game_over else False
            note = text(
                "Judged at the moment the pocket forms.",
                "包囲網が完成した瞬間に判定します。",
            )
        requires = condition.get("requires")
        if requires == "encirclement_formed":
            if not facts.encirclement_formed:
                result = False if facts.game_over else None
                note = text("Needs a formed pocket.", "包囲網の形成が必要です。")
        elif requires and met.get(requires) is not True:
            # "in addition to the above": never without the condition it builds on
            result = met.get(requires)
        group = condition.get("exclusive_group")
        scored = result is True and (group is None or group not in scored_groups)
        if scored and group:
            scored_groups.add(group)
        met[condition["id"]] = result
        conditions.append(
            VpCondition(
                condition["id"],
                condition["vp"],
                result,
                scored,
                row["rule"],
                data_text(condition["text"]),
                note,
            )
        )
    vp = sum(condition.vp for condition in conditions if condition.scored)
    vp = min(vp, victory["max_vp"])
    level = max((lvl for lvl in victory["levels"] if lvl["vp"] <= vp), key=lambda lvl: lvl["vp"])
    return VictoryTally(
        vp, victory["max_vp"], tuple(conditions), data_text(level["name"]), facts.game_over
    )
