"""Cherkassy Pocket's losses: the Play Aid Card box an eliminated unit goes to (11.10, 10.3)
and German infantry reconstitution (12.1)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import BREAKDOWN_TYPES
from campaigns.shortgames.rules.common import text


def elimination_box(
    side: str,
    unit_type: str,
    *,
    divisional: bool,
    division_reconstituted: bool = False,
    has_msl: bool = False,
    by_breakdown: bool = False,
) -> str:
    """The Play Aid Card box an eliminated unit goes to (11.10, 10.3); see ``BOXES``. A
    Stemmermann Group unit goes to the Group's sub-box of the same box."""
    if side == "german" and divisional and not division_reconstituted:
        return "reconstitution"
    if side == "soviet" and unit_type in BREAKDOWN_TYPES:
        if by_breakdown:
            return "recovery_2" if has_msl else "recovery_1"
        if has_msl:
            return "recovery_1"
    return "permanent"


@dataclass(frozen=True)
class BoxUnit:
    unit_id: str
    division: str
    size: str  # "battalion", "regiment", …
    stemmermann: bool = False


@dataclass(frozen=True)
class ReconstitutionOption:
    division: str
    stemmermann: bool
    battalions: int
    returns: int
    reason: LocalizedText | None


def reconstitution(
    box_units: Iterable[BoxUnit],
    divisions_used: Iterable[str],
    divisions_on_map: Iterable[str] | None = None,
) -> list[ReconstitutionOption]:
    """12.1: per division, once per game, 3 infantry battalions in the Eligible box return one
    unit, reduced; regiments never; Stemmermann and other units are not mixed; the unit is
    placed with or next to a unit of its division on the map (none: it cannot return)."""
    used = set(divisions_used)
    on_map = set(divisions_on_map) if divisions_on_map is not None else None
    groups: dict[tuple[str, bool], int] = {}
    for unit in box_units:
        if unit.size != "battalion":
            continue
        key = (unit.division, unit.stemmermann)
        groups[key] = groups.get(key, 0) + 1
    options = []
    for (division, stemmermann), battalions in sorted(groups.items()):
        reason = None
        returns = 1 if battalions >= 3 else 0
        if division in used:
            returns, reason = (
                0,
                text(
                    "This division has reconstituted already (once per division).",
                    "この師団はすでに再編成しました（1師団につき1度）。",
                ),
            )
        elif battalions < 3:
            reason = text(
                f"{battalions} battalion(s) in the box; 3 are needed.",
                f"ボックスの大隊は{battalions}個。3個必要です。",
            )
        elif on_map is not None and division not in on_map:
            returns, reason = (
                0,
                text(
                    "No unit of this division is on the map to return next to.",
                    "マップ上にこの師団のユニットがないため復帰できません。",
                ),
            )
        options.append(ReconstitutionOption(division, stemmermann, battalions, returns, reason))
    return options
