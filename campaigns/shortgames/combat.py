"""The combat helpers' answers: how many dice a Defiant Russia side rolls and which faces hit
(7.11, 9.0), the odds column of a Cherkassy combat after its shifts (11.6–11.9). What the player
typed comes read by campaigns.shortgames.combat_forms; what the campaign knows (the weather, the
first snow, the counters' printed strengths, the referee's tables) is read here; the rules
decide (campaigns.shortgames.rules). The rolls go through campaigns.shortgames.combat_rolls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import get_language

from campaigns.games.registry import LocalizedText, localized
from campaigns.games.rules import Reason
from campaigns.models import Campaign, CampaignDay, GameUnit, PointKind, UnitState
from campaigns.shortgames import combat_rolls, cp_segments, turn_points, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules import combat_input
from campaigns.shortgames.rules.cherkassy import attack as cp_attack
from campaigns.shortgames.rules.cherkassy import combat as cp_combat_rules
from campaigns.shortgames.rules.cherkassy import hexsides as cp_hexsides
from campaigns.shortgames.rules.defiant_russia import attack as dr_attack
from campaigns.shortgames.rules.defiant_russia import combat as dr_combat
from campaigns.shortgames.rules.defiant_russia import weather as dr_weather

# --- Defiant Russia ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DrConditions:
    """What the turn brings to every combat: its weather, and whether it is the first snow turn
    (8.3)."""

    weather: str
    first_snow: bool


def dr_conditions(campaign: Campaign) -> DrConditions:
    game = short_games.setup_of(campaign)
    weather = turn_steps.weather_now(campaign, turn_steps.current_day(campaign), game) or "clear"
    days = CampaignDay.objects.filter(campaign=campaign, index__lte=campaign.period_index)
    recorded = {day.index: turn_steps.recorded_weather(campaign, day) for day in days}
    snow_turns = {
        short_games.turn_number(campaign, index): weather
        for index, weather in recorded.items()
        if weather
    }
    first_snow = dr_weather.first_snow_turn(snow_turns) == short_games.turn_number(campaign)
    return DrConditions(weather, first_snow)


def dr_refusals(
    campaign: Campaign, conditions: DrConditions, entry: Mapping[str, Any]
) -> list[Reason]:
    """Why the attack ``DrCombatForm`` read is not legal (empty: the helper may count and roll
    it): the units' side (2.0), the air points (11.7, against what the side has left this turn)
    and, for a breakthrough attack, the phase and the units that may make it (6.6)."""
    side, role = entry["side"], entry["role"]
    nationality = entry.get("nationality", "")
    data = short_games.game_data(campaign)
    refusals = dr_attack.side_refusals(side, nationality)
    air_points = entry["air_points"]
    left = (
        turn_points.balance(campaign, side, campaign.period_index, PointKind.AIR)
        if air_points
        else None
    )
    refusals += dr_attack.air_point_refusals(
        air_points,
        role=role,
        side=side,
        nationality=nationality,
        breakthrough=entry["breakthrough"],
        points_left=left,
        game=data,
    )
    if entry["breakthrough"] and role == "attacker":
        game = short_games.setup_of(campaign)
        # Not the count's "clear" for a weather not known yet: no breakthrough phase is judged
        # before the turn's weather is (8.0).
        weather = turn_steps.weather_now(campaign, turn_steps.current_day(campaign), game)
        refusals += dr_attack.breakthrough_refusals(
            entry["units"],
            side=side,
            leaders=entry["leaders"],
            turn=short_games.turn_number(campaign),
            weather=weather,
            options=game.options if game is not None else (),
            game=data,
            tables=campaign.game.files["tables"],
        )
    return refusals


def dr_dice(
    campaign: Campaign, conditions: DrConditions, entry: Mapping[str, Any]
) -> dr_combat.CombatDice:
    """The dice of one side of a combat as ``DrCombatForm`` read it. ValueError when the rules
    cannot count them."""
    return dr_combat.combat_dice(
        entry["units"],
        role=entry["role"],
        side=entry["side"],
        weather=conditions.weather,
        tables=campaign.game.files["tables"],
        terrain=entry["terrain"],
        leaders=entry["leaders"],
        air_points=entry["air_points"],
        breakthrough=entry["breakthrough"],
        first_snow_turn=conditions.first_snow,
    )


# --- Cherkassy Pocket -------------------------------------------------------------------------

Strength = tuple[int, int] | None


def cp_units(campaign: Campaign) -> list[tuple[GameUnit, Strength]]:
    """The units on the map by side and name, each with the attack and defence its counter
    shows now (None when its line has none)."""
    units = GameUnit.objects.filter(
        campaign=campaign, state__in=(UnitState.FULL, UnitState.REDUCED)
    ).order_by("side", "name")
    return [
        (
            unit,
            combat_input.cp_attack_defense(
                unit.full, unit.reduced, reduced_now=unit.state == UnitState.REDUCED
            ),
        )
        for unit in units
    ]


def cp_shift_rows(campaign: Campaign) -> list[tuple[str, str, str]]:
    """The column shifts a player may tick (the column-shift chart): id, rule, when it applies."""
    chart = next(
        c for c in campaign.game.files["tables"]["charts"] if c["id"] == "cp.column-shifts"
    )
    return [
        (row["id"], row["rule"], localized(row["when"], get_language())) for row in chart["rows"]
    ]


def cp_terrains(campaign: Campaign) -> list[str]:
    """The terrains of the referee's terrain chart, for a terrain shift (none until entered)."""
    referee = short_games.referee_tables(campaign)
    return list(cp_combat_rules.terrain_shifts(referee, short_games.game_data(campaign)))


def cp_fighter(unit: GameUnit) -> cp_attack.Fighter:
    return cp_attack.Fighter(
        name=unit.name,
        side=unit.side,
        unit_type=unit.unit_type,
        formation=unit.formation,
        size=unit.size,
        hex=unit.hex,
        out_of_supply=unit.out_of_supply,
        artillery_used=unit.artillery_used,
        with_5gtc=unit.with_5gtc,
    )


def cp_refusals(
    campaign: Campaign, entry: Mapping[str, Any], units: Mapping[int, GameUnit]
) -> list[Reason]:
    """Why the rules refuse the attack ``CpCombatForm`` read, from the units chosen (11.1,
    11.3, 11.18–11.24, 11.28) and what the attacker declared of the map (11.14, 11.22).
    Strengths typed by hand are the players' own count."""
    attackers = [cp_fighter(units[pk]) for pk in entry["attackers"] if pk in units]
    defenders = [cp_fighter(units[pk]) for pk in entry["defenders"] if pk in units]
    return [
        *cp_attack.attack_refusals(
            entry["side"], attackers, defenders, entry["shifts"], short_games.game_data(campaign)
        ),
        *cp_hexsides.lake_refusals(entry.get("lake", False)),
        *cp_hexsides.river_refusals(cp_river_attackers(entry, units)),
        *cp_hexsides.artillery_range_refusals(cp_supports(entry, units)),
    ]


def cp_river_attackers(
    entry: Mapping[str, Any], units: Mapping[int, GameUnit]
) -> list[cp_hexsides.RiverAttacker]:
    """The chosen non-artillery attackers, each with whether it attacks across a river."""
    river = set(entry.get("river") or ())
    return [
        cp_hexsides.RiverAttacker(units[pk].name, units[pk].unit_type, pk in river)
        for pk in entry["attackers"]
        if pk in units and units[pk].unit_type not in cp_attack.ARTILLERY_TYPES
    ]


def cp_supports(
    entry: Mapping[str, Any], units: Mapping[int, GameUnit]
) -> list[cp_hexsides.Support]:
    """The chosen artillery, attacking then supporting the defence, each with its range
    (roster) and declared distance (11.22)."""
    distances = entry.get("distances") or {}
    return [
        cp_hexsides.Support(
            units[pk].name, units[pk].artillery_range, distances.get(pk), defending=defending
        )
        for role, defending in (("attackers", False), ("defenders", True))
        for pk in entry[role]
        if pk in units and units[pk].unit_type in cp_attack.ARTILLERY_TYPES
    ]


def cp_declared(entry: Mapping[str, Any], units: Mapping[int, GameUnit]) -> dict[str, Any]:
    """What the attacker declared of the map, as data kept with the combat's roll: the units
    across a river, an attack across a lake, each artillery unit's range (None: unknown) and
    distance (11.14, 11.22). Empty when the attack crosses no river or lake and has no
    artillery (nothing is then kept)."""
    declared = {
        "river": [a.name for a in cp_river_attackers(entry, units) if a.across_river],
        "lake": bool(entry.get("lake")),
        "artillery": [
            {
                "unit": s.name,
                "range": s.range,
                "distance": s.distance,
                **({"defending": True} if s.defending else {}),
            }
            for s in cp_supports(entry, units)
        ],
    }
    return declared if any(declared.values()) else {}


def cp_combat(
    campaign: Campaign,
    entry: Mapping[str, Any],
    strengths: Mapping[int, Strength],
    units: Mapping[int, GameUnit] | None = None,
) -> combat_rolls.CpCombat:
    """The odds and column of a combat as ``CpCombatForm`` read it, the chosen units counted
    with ``strengths``; what the rules refuse of the chosen ``units`` blocks the roll.
    ValueError when a side's total is not more than 0."""
    river = set(entry.get("river") or ())
    attack, defense = combat_input.cp_totals(
        attack=entry["attack"],
        defense=entry["defense"],
        attackers=[pk for pk in entry["attackers"] if pk not in river],
        defenders=entry["defenders"],
        strengths=strengths,
    )
    # 11.14: the chosen attackers across a river are summed, then halved rounding up.
    across = [
        (strengths[pk][0], True) for pk in entry["attackers"] if pk in river and strengths.get(pk)
    ]
    attack, river_part = cp_hexsides.river_total([(attack, False), *across])
    side = entry["side"]
    segment, declared = cp_segments.current_declaration(campaign, side)
    ticked = cp_combat_rules.PREPARED_ATTACK in entry["shifts"]
    prepared, prepared_refusal = cp_combat_rules.prepared_attack(declared, ticked, segment)
    shifts = [s for s in entry["shifts"] if s != cp_combat_rules.PREPARED_ATTACK]
    if prepared:
        shifts.insert(0, cp_combat_rules.PREPARED_ATTACK)
    front = entry.get("front", "") if side == "soviet" else ""
    counted = combat_rolls.cp_combat(
        campaign,
        attack=attack,
        defense=defense,
        shifts=shifts,
        terrain=entry["terrain"],
        side=side,
        front=front,
        river_ticked=bool(river & set(entry["attackers"])),
    )
    counted = replace(
        counted,
        prepared_auto=prepared and declared is not None,
        river_part=river_part if across else None,
        declared=cp_declared(entry, units or {}),
        typed=(entry["attack"], entry["defense"]),
    )
    refusals = cp_refusals(campaign, entry, units or {})
    if prepared_refusal is not None:
        refusals.append(prepared_refusal)
    if not refusals:
        return counted
    return replace(
        counted,
        blocked=(
            *(LocalizedText(en=r.in_language("en"), ja=r.in_language("ja")) for r in refusals),
            *counted.blocked,
        ),
    )
