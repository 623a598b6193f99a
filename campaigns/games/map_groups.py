"""RF CG I "Red Factories" (11.58): what a campaign game played on two map groups changes.

Pure: the campaign game's definition (campaign_games.json) and plain values come in.

* 11.616 — a side's CPP replenishment DR is made per map group, "one DR on the RB map, one on
  the RO map" (L947); both land in the side's one CPP pool (docs/rules-decisions.md, issue 15
  "RF CG I"), each with its map group's Historical DRM (11.6161 has an RB CG and an RO CG column).
* 11.6161 — the Historical DRM per map group; a roll for an RG takes its map group's value.
* CG victory is judged per map group; a side winning on one and losing on the other is a draw
  (L941).
* CG6, CG8, CG9, CG17 — the limits the players follow when they set up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The effect kinds of a campaign game's ``cg_rule_changes`` that make a table rolled once per
# map group, and the tables they concern.
PER_MAP_GROUP_EFFECTS = {"cpp_replenishment_per_map_group": ("rf.cpp-replenishment",)}


def map_groups(cg_def: Mapping[str, Any]) -> tuple[str, ...]:
    """The campaign game's map groups ("RB", "RO"); one or none: nothing is per map group."""
    return tuple(cg_def.get("map_groups") or ())


def is_split(cg_def: Mapping[str, Any]) -> bool:
    """Whether the campaign game is played on more than one map group (RF CG I)."""
    return len(map_groups(cg_def)) > 1


def per_map_group_tables(cg_def: Mapping[str, Any]) -> frozenset[str]:
    """The dice tables a side rolls once per map group in this campaign game."""
    if not is_split(cg_def):
        return frozenset()
    tables: set[str] = set()
    for change in cg_def.get("cg_rule_changes") or ():
        for effect in change.get("effects") or ():
            tables.update(PER_MAP_GROUP_EFFECTS.get(effect.get("kind", ""), ()))
    return frozenset(tables)


def groups_to_roll(cg_def: Mapping[str, Any], table_id: str) -> tuple[str, ...]:
    """The map groups ``table_id`` is rolled for (("",): once, for no map group)."""
    if table_id in per_map_group_tables(cg_def):
        return map_groups(cg_def)
    return ("",)


def every_group(campaign_games: Mapping[str, Any]) -> tuple[str, ...]:
    """The map group names of all of a module's campaign games (campaign_games.json)."""
    names: dict[str, None] = {}
    for cg_def in (campaign_games.get("campaign_games") or {}).values():
        names.update(dict.fromkeys(map_groups(cg_def)))
    return tuple(names)


def result_for(result: Any, groups: Sequence[str], every: Sequence[str]) -> Any:
    """A table result printed per map group (RF's Leader Tables, 11.6207: an "RB" and an "RO"
    column) narrowed to ``groups``, the map groups the roll is for (the campaign game's, or the
    RG's in RF CG I); ``every``: all the module's map group names. Any other result, or a roll
    for no group or for every printed one, is kept as it is."""
    if not isinstance(result, Mapping) or not result or not groups:
        return result
    if not all(key in every for key in result):
        return result
    kept = {key: value for key, value in result.items() if key in groups}
    return kept or result


def missing_groups(groups: Sequence[str], rolled: Sequence[str]) -> tuple[str, ...]:
    """The map groups of ``groups`` without a roll among ``rolled`` (each a roll's map group)."""
    return tuple(group for group in groups if group not in rolled)


def hist_drm(
    cg_def: Mapping[str, Any],
    *,
    single: int | None,
    by_group: Mapping[str, int],
    map_group: str = "",
) -> int | None:
    """The Historical DRM a roll takes: the side's one value, or in a campaign game on two map
    groups the value of the roll's map group (None: not known, or no map group named)."""
    if not is_split(cg_def):
        return single
    if map_group not in map_groups(cg_def):
        return None
    value = by_group.get(map_group)
    return None if value is None else int(value)


def hist_drm_choices(
    cg_def: Mapping[str, Any], by_group: Mapping[str, int]
) -> tuple[int, ...] | None:
    """For a roll made once per side that reads the Historical DRM (11.617's ELR change) in a
    campaign game on two map groups: the values it may take, one per map group, each once
    (None while one is unknown). One value: it applies; two: the side says which (the rules do
    not, spec Q20)."""
    groups = map_groups(cg_def)
    if any(by_group.get(group) is None for group in groups):
        return None
    values: list[int] = []
    for group in groups:
        value = int(by_group[group])
        if value not in values:
            values.append(value)
    return tuple(values)


# --- victory per map group -------------------------------------------------------------------

DRAW = "draw"


@dataclass(frozen=True)
class GroupVerdict:
    """One map group's result: the winning side ("" while unknown) and, unknown, why."""

    map_group: str
    winner: str
    why: str = ""


@dataclass(frozen=True)
class Combined:
    """The result over the map groups: a side, ``DRAW``, or "" (unknown) with why."""

    winner: str
    why: str
    groups: tuple[GroupVerdict, ...]


def combine(groups: Sequence[GroupVerdict]) -> Combined:
    """11.58 (L941): each map group judged alone; one side on one group and the other side on
    the other is a draw. The same side on every group wins (not stated; spec Q20 default). Any
    group unknown leaves the whole unknown."""
    unknown = [g for g in groups if not g.winner]
    if unknown:
        return Combined("", "group_unknown", tuple(groups))
    winners = {g.winner for g in groups}
    if len(winners) == 1:
        return Combined(winners.pop(), "same_side", tuple(groups))
    return Combined(DRAW, "split", tuple(groups))


# --- what the players follow when they set up (CG6, CG8, CG9, CG17) ---------------------------

SETUP_EFFECTS = (
    "oba_modules_max_per_scenario",
    "sniper_counters_per_side",
    "self_rally_attempts_max",
)


@dataclass(frozen=True)
class SetupLimit:
    """One of the campaign game's limits at set-up, as data: ``kind`` (an effect kind or a rule
    id), its ``value``, per map group where the rules split it, and its rule."""

    kind: str
    rule: str
    value: int | None = None
    per_map_group: int | None = None
    lines: tuple[int, ...] = ()


def setup_limits(cg_def: Mapping[str, Any]) -> tuple[SetupLimit, ...]:
    """The limits of ``cg_rule_changes`` the players follow at set-up, in rule order: the OBA
    modules (CG6), the sniper counters (CG8, per map group), the self-rally attempts (CG17), and
    the Soviet AFV RGs bought for RB that may not enter from a south-edge ground hex (CG9)."""
    limits = []
    for change in cg_def.get("cg_rule_changes") or ():
        rule = f"{change.get('rule', '')} {change.get('id', '')}".strip()
        lines = tuple(change.get("lines") or ())
        for effect in change.get("effects") or ():
            if effect.get("kind") in SETUP_EFFECTS:
                limits.append(
                    SetupLimit(
                        kind=effect["kind"],
                        rule=rule,
                        value=effect.get("value"),
                        per_map_group=effect.get("per_map_group"),
                        lines=lines,
                    )
                )
        if change.get("id") == "CG9":
            limits.append(SetupLimit(kind="rb_afv_no_south_edge", rule=rule, lines=lines))
    return tuple(limits)
