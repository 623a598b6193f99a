"""How a campaign game's CG victory conditions stand, from the scenario ends recorded (RF
11.51–11.58). Pure: plain data in, a standing out; the words are the page's
(campaigns.records.cg_victory_page).

The CG VC the rules state as counts (``victory.structured.campaign`` of campaign_games.json):

- ``stone_locations_all_except`` (RB CG I/II/III, RO CG II, RF CG I per map group): the side
  wins if at the end of any CG scenario (spec Q44: checked at each scenario end, the initial
  scenario included) it controls every Stone Location of the area except N. The area's total
  is not a count of the rules for a region (RB CG I: on/west of hexrow U and north of the
  gully) and changes as rubble is created (L496): it is data the players enter
  (``StoneLocationTotal``), pre-filled from L496 for a whole map (RB 570, RO 491).
- Conditions on factories, buildings or factory Locations (RB CG IV, RO CG I, RO CG III) need
  map data the app does not have: the players judge them (``needs_map``).

The side named by the VC wins as soon as one of its conditions is met; once the CG is over
(the last CG day's scenario has its winner) with no condition met and none undecided, the other
side wins. RF CG I (11.58, L941): each map group judged alone, then combined
(``campaigns.games.map_groups.combine``: one side on each group is a draw).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.map_groups import DRAW, GroupVerdict, combine

ALL_EXCEPT = "stone_locations_all_except"
# The area of a CG VC limited to part of its map (RB CG I); a whole map's area is its group.
REGION = "region"
# Stone Locations per map at the start of a CG (seed 003 L496); rubble changes them.
MAP_TOTALS = {"RB": 570, "RO": 491}

MET = "met"
NOT_MET = "not_met"
UNKNOWN_TOTAL = "unknown_total"
NEEDS_MAP = "needs_map"


@dataclass(frozen=True)
class ScenarioEnd:
    """One scenario's recorded end: ``label`` its day; ``controlled`` the Stone Locations each
    side controlled at the end, per area ({area: {side: count or None}})."""

    label: str
    controlled: Mapping[str, Mapping[str, int | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class ConditionStanding:
    """One condition: ``state`` MET / NOT_MET / UNKNOWN_TOTAL / NEEDS_MAP, with its numbers."""

    kind: str
    area: str
    state: str
    total: int | None = None
    excepted: int | None = None
    needed: int | None = None
    best: int | None = None
    met_at: str = ""
    unrecorded: tuple[str, ...] = ()
    text: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AreaStanding:
    """One map group's (or the CG's only) VC: the side they name, the conditions' standings
    and the result: a side, or "" with ``why`` ("in_progress", "undecided")."""

    group: str
    side: str
    otherwise: str
    conditions: tuple[ConditionStanding, ...]
    winner: str
    why: str


@dataclass(frozen=True)
class CgStanding:
    """The CG's result: ``winner`` a side, ``DRAW`` or "" (not decided yet), with ``why``."""

    winner: str
    why: str
    areas: tuple[AreaStanding, ...]


def area_of(condition: Mapping[str, Any], group: str) -> str:
    """The area whose Stone Locations a condition counts: a region of the map, or the map."""
    return REGION if condition.get("region") else group


def areas(campaign_vc: Mapping[str, Any], groups: Sequence[str]) -> tuple[str, ...]:
    """The areas whose totals the CG VC need, in order (each once)."""
    found: list[str] = []
    for group, vc in _per_group(campaign_vc, groups):
        for condition in vc.get("any_of") or ():
            if condition.get("kind") == ALL_EXCEPT:
                area = area_of(condition, group)
                if area not in found:
                    found.append(area)
    return tuple(found)


def known_total(area: str) -> int | None:
    """The total the rules give for an area at the CG's start (L496), else None (unknown)."""
    return MAP_TOTALS.get(area)


def _per_group(
    campaign_vc: Mapping[str, Any], groups: Sequence[str]
) -> list[tuple[str, Mapping[str, Any]]]:
    if "per_map_group" in campaign_vc:
        return list(campaign_vc["per_map_group"].items())
    return [(groups[0] if groups else "", campaign_vc)]


def all_except(
    condition: Mapping[str, Any],
    side: str,
    group: str,
    totals: Mapping[str, int | None],
    ends: Sequence[ScenarioEnd],
) -> ConditionStanding:
    """Every Stone Location of the area except N, controlled at the end of any CG scenario."""
    area = area_of(condition, group)
    excepted = int(condition.get("except") or 0)
    total = totals.get(area)
    region = condition.get("region") or {}
    if total is None:
        return ConditionStanding(
            ALL_EXCEPT, area, UNKNOWN_TOTAL, excepted=excepted, text=dict(region)
        )
    needed = max(total - excepted, 0)
    best: int | None = None
    unrecorded = []
    for end in ends:
        count = (end.controlled.get(area) or {}).get(side)
        if count is None:
            unrecorded.append(end.label)
            continue
        if count >= needed:
            return ConditionStanding(
                ALL_EXCEPT, area, MET, total, excepted, needed, count, end.label, text=region
            )
        best = count if best is None else max(best, count)
    return ConditionStanding(
        ALL_EXCEPT,
        area,
        NOT_MET,
        total,
        excepted,
        needed,
        best,
        unrecorded=tuple(unrecorded),
        text=dict(region),
    )


def judge_area(
    vc: Mapping[str, Any],
    group: str,
    totals: Mapping[str, int | None],
    ends: Sequence[ScenarioEnd],
    cg_over: bool,
) -> AreaStanding:
    side, otherwise = vc.get("side", ""), vc.get("otherwise", "")
    standings = []
    for condition in vc.get("any_of") or ():
        if condition.get("kind") == ALL_EXCEPT:
            standings.append(all_except(condition, side, group, totals, ends))
        else:
            standings.append(ConditionStanding(str(condition.get("kind", "")), group, NEEDS_MAP))
    if any(s.state == MET for s in standings):
        return AreaStanding(group, side, otherwise, tuple(standings), side, "met")
    decided = all(s.state == NOT_MET and not s.unrecorded for s in standings)
    if cg_over and decided and standings:
        return AreaStanding(group, side, otherwise, tuple(standings), otherwise, "not_met")
    why = "undecided" if cg_over else "in_progress"
    return AreaStanding(group, side, otherwise, tuple(standings), "", why)


def standing(
    campaign_vc: Mapping[str, Any] | None,
    groups: Sequence[str],
    totals: Mapping[str, int | None],
    ends: Sequence[ScenarioEnd],
    *,
    cg_over: bool,
) -> CgStanding:
    """How the CG VC stand over the scenario ends recorded (``ends``, in play order)."""
    if not campaign_vc:
        return CgStanding("", "no_vc", ())
    judged = tuple(
        judge_area(vc, group, totals, ends, cg_over)
        for group, vc in _per_group(campaign_vc, groups)
    )
    if "per_map_group" not in campaign_vc:
        (only,) = judged
        return CgStanding(only.winner, only.why, judged)
    combined = combine([GroupVerdict(a.group, a.winner, a.why) for a in judged])
    if combined.why == "split":
        kind = (campaign_vc.get("combination") or {}).get("kind")
        if kind == "split_is_draw":
            return CgStanding(DRAW, "split", judged)
        return CgStanding("", "split_unknown", judged)
    if combined.why == "same_side":
        return CgStanding(combined.winner, "same_side", judged)
    return CgStanding("", "in_progress" if not cg_over else "undecided", judged)
