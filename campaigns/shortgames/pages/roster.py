"""The unit roster's page: every side's units with their states, the hexes over the stacking
limits, the reinforcements to come and Cherkassy's Eligible for Reconstitution box."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.text import slugify
from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import Campaign, GameUnit, UnitState
from campaigns.models.short_game import GAME_STATES
from campaigns.shortgames import arrivals, reconstitution
from campaigns.shortgames import services as short_games
from campaigns.shortgames.pages.turn import side_names
from campaigns.shortgames.rules import stacking
from campaigns.shortgames.rules.cherkassy.attack import ARTILLERY_TYPES
from campaigns.shortgames.units import type_label

WarningLine = tuple[str, str]  # hex, the warning naming its rule


@dataclass
class SideRoster:
    side: str
    name: str
    units: list[GameUnit]
    can_edit: bool
    warnings: list[WarningLine]


@dataclass
class ReconstitutionRow:
    division: str
    stemmermann: bool
    battalions: int
    may_return: bool
    reason: str
    units: list[GameUnit]
    can_act: bool


@dataclass
class QueueLine:
    row: arrivals.QueueRow
    name: str
    reason: str
    can_arrive: bool


@dataclass
class RosterPage:
    sides: list[SideRoster]
    warnings: list[WarningLine]
    queue: list[QueueLine]
    turn_number: int
    side_names: dict[str, str]
    is_dr: bool
    turn_numbers: list[int]
    reconstitution: list[ReconstitutionRow]


def state_choices(campaign: Campaign) -> list[tuple[str, str]]:
    """The unit states this game knows, for the unit form."""
    return [(state.value, state.label) for state in GAME_STATES[campaign.module]]


def counter(unit: GameUnit) -> stacking.Counter:
    """A roster unit as stacking sees it (no hex when it is not on the map)."""
    return stacking.Counter(
        hex=unit.hex if unit.on_map else "",
        side=unit.side,
        unit_type=unit.unit_type,
        nationality=unit.nationality,
        key=slugify(unit.name),
        unit_id=str(unit.pk),
    )


def stacking_warnings(campaign: Campaign, units: Iterable[GameUnit]) -> list[WarningLine]:
    """Every hex over the game's stacking limits, with the rule, in the reader's language."""
    found = stacking.stacking_warnings(
        campaign.module, [counter(unit) for unit in units], short_games.game_data(campaign)
    )
    return [(w.hex, w.reason.in_language(get_language())) for w in found]


def _reconstitution_rows(viewer: Viewer, units: list[GameUnit]) -> list[ReconstitutionRow]:
    """Cherkassy's Eligible for Reconstitution box per division and group (12.1)."""
    if viewer.campaign.module != "cherkassy_pocket":
        return []
    return [
        ReconstitutionRow(
            option.division,
            option.stemmermann,
            option.battalions,
            bool(option.returns),
            localized(option.reason, get_language()),
            [
                u
                for u in units
                if u.state == UnitState.RECONSTITUTION
                and u.formation == option.division
                and u.in_pocket == option.stemmermann
                and u.size == "battalion"
            ],
            viewer.can_act_for_side("german"),
        )
        for option in reconstitution.reconstitution_options(units)
    ]


def _queue_lines(viewer: Viewer, units: list[GameUnit]) -> list[QueueLine]:
    campaign = viewer.campaign
    game = short_games.setup_of(campaign)
    return [
        QueueLine(
            row,
            localized(row.name, get_language()),
            localized(row.reason, get_language()),
            row.unit is not None
            and row.status == "due"
            and row.may_enter
            and viewer.can_act_for_side(row.side),
        )
        for row in arrivals.reinforcement_queue(campaign, game, units)
    ]


def roster_page(viewer: Viewer) -> RosterPage:
    campaign = viewer.campaign
    units = list(GameUnit.objects.filter(campaign=campaign))
    warnings = stacking_warnings(campaign, units)
    labels = dict(state_choices(campaign))
    for unit in units:
        unit.state_label = labels.get(unit.state, unit.state)
        unit.type_label = type_label(unit.unit_type)
        unit.size_label = type_label(unit.size)
        unit.nationality_label = type_label(unit.nationality)
        unit.is_artillery = unit.unit_type in ARTILLERY_TYPES  # its range shown (CP 11.22)
    sides = [
        SideRoster(
            side.key,
            side.name.in_language(get_language()),
            [u for u in units if u.side == side.key],
            viewer.can_act_for_side(side.key),
            [w for w in warnings if any(u.side == side.key and u.hex == w[0] for u in units)],
        )
        for side in campaign.sides
    ]
    return RosterPage(
        sides=sides,
        warnings=warnings,
        queue=_queue_lines(viewer, units),
        turn_number=short_games.turn_number(campaign),
        side_names=side_names(campaign),
        is_dr=campaign.module == "defiant_russia",
        turn_numbers=short_games.all_turns(campaign),
        reconstitution=_reconstitution_rows(viewer, units),
    )
