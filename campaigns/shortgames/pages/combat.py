"""The combat helpers' pages: Defiant Russia's dice count (7.11, 9.0) and Cherkassy's odds column
(11.6–11.9), from the form the page sent (campaigns.shortgames.combat_forms) and what the
campaign knows (campaigns.shortgames.combat). The roll itself is the view's, once the page is
counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext_lazy

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import GameUnit
from campaigns.shortgames import combat, turn_points
from campaigns.shortgames import services as short_games
from campaigns.shortgames.combat_forms import CpCombatForm, DrCombatForm
from campaigns.shortgames.combat_rolls import CpCombat
from campaigns.shortgames.rules import combat_input
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy.attack import ARTILLERY_TYPES
from campaigns.shortgames.rules.defiant_russia import attack as dr_attack
from campaigns.shortgames.rules.defiant_russia import data as dr_data
from campaigns.shortgames.units import type_label

# The helper's terrain and leader keys in the reader's language.
DR_WORDS = {
    "clear": pgettext_lazy("terrain", "Clear"),
    "rough": gettext_lazy("Rough"),
    "forest": gettext_lazy("Forest"),
    "swamp": gettext_lazy("Swamp"),
    "city": gettext_lazy("City"),
    "major_city": gettext_lazy("Major city"),
    "fortress": gettext_lazy("Fortress"),
    "guderian": gettext_lazy("Guderian"),
    "stalin": gettext_lazy("Stalin"),
    "zhukov": gettext_lazy("Zhukov"),
}


@dataclass
class DrCombatPage:
    weather: str
    weather_name: str  # the weather in the reader's language
    nationalities: list[tuple[str, str]]  # key, name in the reader's language (2.0)
    first_snow: bool
    terrain: tuple[str, ...]
    leaders: tuple[str, ...]
    chosen_terrain: list[str]
    chosen_leaders: list[str]
    names: dict[str, str]  # the terrain and leader keys in the reader's language
    # The dice counted ({"answer", "lines"}), {} until units are given; a roll adds its faces.
    result: dict[str, Any]
    error: str
    can_roll: bool
    refusals: list[str]  # why the rules refuse this attack, each naming its rule (no count)


def dr_combat_page(viewer: Viewer, form: DrCombatForm) -> DrCombatPage:
    """The page for ``form`` (bound to what the page sent, not crafted): the dice counted once
    units are given, or the sentence saying how to write them."""
    campaign = viewer.campaign
    conditions = combat.dr_conditions(campaign)
    asked = bool(form.data.get("units"))
    valid = form.is_valid()  # the terrain and leaders ticked are read even before any units
    error = form.hint() if asked and not valid else ""
    result: dict[str, Any] = {}
    refusals: list[str] = []
    if asked and not error:
        refusals = [
            reason.in_language(get_language())
            for reason in combat.dr_refusals(campaign, conditions, form.cleaned_data)
        ]
    if asked and not error and not refusals:
        try:
            answer = combat.dr_dice(campaign, conditions, form.cleaned_data)
        except ValueError:
            error = form.hint()
        else:
            lines = [
                (line.rule, localized(line.text, get_language()), line.dice_after)
                for line in answer.lines
            ]
            result = {"answer": answer, "lines": lines}
    return DrCombatPage(
        weather=conditions.weather,
        nationalities=[
            (key, type_label(key))
            for side in campaign.game.side_keys
            for key in dr_attack.NATIONALITIES.get(side, ())
        ],
        weather_name=localized(
            dr_data.weather_name(short_games.game_data(campaign), conditions.weather),
            get_language(),
        ),
        first_snow=conditions.first_snow,
        terrain=combat_input.DR_TERRAIN,
        leaders=combat_input.DR_LEADERS,
        names={key: str(DR_WORDS[key]) for key in DR_WORDS},
        chosen_terrain=form.cleaned_data.get("terrain", []),
        chosen_leaders=form.cleaned_data.get("leaders", []),
        result=result,
        error=error,
        can_roll=any(viewer.can_act_for_side(s) for s in campaign.game.side_keys),
        refusals=refusals,
    )


@dataclass
class CpCombatPage:
    side: str
    units: list[tuple[GameUnit, combat.Strength]]
    chosen: dict[str, list[Any]]  # attackers, defenders (unit ids), shifts
    shift_rows: list[tuple[str, str, str]]
    terrains: list[str]
    combat: CpCombat | None
    blocked: list[str]  # why the roll cannot be made yet
    error: str
    can_roll: bool
    # The Soviet Fronts (11.16): key, name in the reader's language, air points left this turn.
    fronts: list[tuple[str, str, int]]
    front: str  # the Front chosen
    unowned_left: int  # the Soviet air points left this turn that no Front owns
    artillery: set[int]  # the artillery units' ids: offered with a distance to declare (11.22)
    distances: dict[int, int]  # the distances declared, by artillery unit id


def cp_combat_page(viewer: Viewer, form: CpCombatForm, *, asked: bool) -> CpCombatPage:
    """The page for ``form`` (bound to what the page sent, not crafted): the odds and column
    once ``asked`` (the page's "find the column", or a roll), or the sentence saying how to
    write the strengths."""
    campaign = viewer.campaign
    units = combat.cp_units(campaign)
    valid = form.is_valid()  # the units and shifts ticked are shown even before a count
    data = form.cleaned_data
    answer, error = None, form.hint() if asked and not valid else ""
    if asked and not error:
        try:
            answer = combat.cp_combat(
                campaign,
                data,
                {unit.pk: s for unit, s in units},
                {unit.pk: unit for unit, _strength in units},
            )
        except ValueError:
            error = form.hint()
    side = data["side"]
    left = turn_points.left_by_front(campaign, "soviet", campaign.period_index)
    chosen = {key: data.get(key, []) for key in ("attackers", "defenders", "shifts", "river")}
    chosen["lake"] = data.get("lake", False)
    if answer is not None:
        chosen["shifts"] = list(answer.shifts)  # 11.27's shift as the declared order sets it
    return CpCombatPage(
        side=side,
        units=units,
        chosen=chosen,
        shift_rows=combat.cp_shift_rows(campaign),
        terrains=combat.cp_terrains(campaign),
        combat=answer,
        blocked=[localized(reason, get_language()) for reason in answer.blocked] if answer else [],
        error=error,
        can_roll=viewer.can_act_for_side(side),
        fronts=[
            (key, name.in_language(get_language()), left.get(key, 0))
            for key, name in cp_air.FRONTS.items()
        ],
        front=data.get("front", ""),
        unowned_left=left.get("", 0),
        artillery={unit.pk for unit, _s in units if unit.unit_type in ARTILLERY_TYPES},
        distances=data.get("distances") or form.distances(),
    )
