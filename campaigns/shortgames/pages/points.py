"""The points page: each side's replacement and air points this turn, what it is due, and the
units it may restore or rebuild (Defiant Russia) with why not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.models import Campaign, GameUnit, PointEntry, PointKind, UnitState
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_points
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.defiant_russia import air as dr_air

Candidate = tuple[GameUnit, str, list[str]]  # unit, action, refusals


@dataclass
class SidePoints:
    side: str
    name: str
    can_edit: bool
    entries: list[PointEntry]
    replacement_left: int
    air_left: int
    replacements: Any  # the rules' Replacements (DR)
    air_due: int | None
    replacement_received: bool
    air_received: bool
    candidates: list[Candidate]
    fronts: list[Any]  # CP 11.16: the Soviet Fronts' air points (empty: not split this turn)
    front_choices: list[tuple[str, str]]  # CP Soviet: the Fronts a booking may name
    air_now: str = ""  # CP 11.16: the air points spendable now, and why


@dataclass
class PointsPage:
    sides: list[SidePoints]
    is_dr: bool


def _candidates(
    campaign: Campaign,
    side: str,
    units: list[GameUnit],
    mine: list[PointEntry],
    replacement_left: int,
) -> list[Candidate]:
    """The side's reduced and eliminated units, each with what replacing it would be and what
    the rules refuse."""
    armor_units = sum(
        1
        for e in mine
        if e.action in ("restore", "rebuild")
        and e.unit is not None
        and e.unit.unit_type in turn_points.ARMOR_TYPES
    )
    candidates = []
    for unit in units:
        if unit.side != side:
            continue
        action = "restore" if unit.state == UnitState.REDUCED else "rebuild"
        refusals = [
            reason.in_language(get_language())
            for reason in turn_points.replacement_refusals(
                campaign,
                unit,
                action,
                campaign.period_index,
                points_left=replacement_left,
                armor_units=armor_units,
            )
        ]
        candidates.append((unit, action, refusals))
    return candidates


def points_page(viewer: Viewer) -> PointsPage:
    campaign = viewer.campaign
    index = campaign.period_index
    is_dr = campaign.module == "defiant_russia"
    entries = list(PointEntry.objects.filter(campaign=campaign, index=index).select_related("unit"))
    units = list(GameUnit.objects.filter(campaign=campaign, state__in=("reduced", "eliminated")))
    data = short_games.game_data(campaign)
    fronts = turn_points.front_points(campaign, index) if not is_dr else []
    segment = turn_points.air_segment_now(campaign) if not is_dr else None
    sides = []
    for side in campaign.sides:
        mine = [e for e in entries if e.side == side.key]
        replacement_left = sum(e.amount for e in mine if e.kind == PointKind.REPLACEMENT)
        air = [e for e in mine if e.kind == PointKind.AIR]
        if not is_dr:  # CP 11.16: only the activation segment's air points can be spent
            air = [e for e in air if e.segment == segment]
        sides.append(
            SidePoints(
                side=side.key,
                name=side.name.in_language(get_language()),
                can_edit=viewer.can_act_for_side(side.key),
                entries=mine,
                replacement_left=replacement_left,
                air_left=sum(e.amount for e in air),
                replacements=turn_points.replacements_now(campaign, side.key) if is_dr else None,
                air_due=dr_air.air_points(short_games.turn_number(campaign), side.key, data)
                if is_dr
                else None,
                replacement_received=any(
                    e.kind == PointKind.REPLACEMENT and e.action == "received" for e in mine
                ),
                air_received=any(e.kind == PointKind.AIR and e.action == "received" for e in mine),
                candidates=_candidates(campaign, side.key, units, mine, replacement_left)
                if is_dr
                else [],
                fronts=fronts if side.key == "soviet" else [],
                front_choices=[
                    (key, name.in_language(get_language())) for key, name in cp_air.FRONTS.items()
                ]
                if side.key == "soviet" and not is_dr
                else [],
                air_now=""
                if is_dr
                else turn_points.AirNow(segment, sum(e.amount for e in air)).words(),
            )
        )
    return PointsPage(sides=sides, is_dr=is_dr)
