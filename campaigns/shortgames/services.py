"""Changes to what a short game remembers: the options it was started with, its unit roster,
who holds which place, the tables a referee supplies, Cherkassy Pocket's ring and VP.

Each change runs in one transaction and records a history event with the rows it touched, so it
can be shown and undone (campaigns.history.services). Editable rows are versioned (state.StaleEdit).
The turn itself (steps and marks, weather, rolls, points) is campaigns.shortgames.turn_steps and
the modules it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, REFEREE
from campaigns.games.dice_tables import parse_table
from campaigns.games.registry import GameDataError
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    ControlPoint,
    GameUnit,
    RefereeTable,
    ShortGame,
    TurnMark,
)
from campaigns.models.short_game import GAME_STATES
from campaigns.shortgames import per_turn
from campaigns.shortgames.rules.cherkassy import data as cp_data
from campaigns.shortgames.rules.cherkassy import grids
from campaigns.shortgames.rules.defiant_russia import data as dr_data
from campaigns.shortgames.units import UnitData, UnitDataError, check
from campaigns.state import StaleEdit, StateError, save_versioned

SHORT_MODULES = ("defiant_russia", "cherkassy_pocket")


def is_short_game(campaign: Campaign) -> bool:
    return campaign.module in SHORT_MODULES and "turn_sequence" in campaign.game.files


def game_data(campaign: Campaign) -> dict[str, Any]:
    return campaign.game.files["game"]


def turn_number(campaign: Campaign, index: int | None = None) -> int:
    """The game turn printed on the track for a calendar position ("turn-7" → 7)."""
    periods = campaign.cg.periods
    index = campaign.period_index if index is None else index
    key = periods[min(index, len(periods) - 1)].key
    return int(key.rsplit("-", 1)[1])


def turn_numbers(campaign: Campaign) -> list[int]:
    return [int(period.key.rsplit("-", 1)[1]) for period in campaign.cg.periods]


def all_turns(campaign: Campaign) -> list[int]:
    """Every turn of the game (a reinforcement may be due after the scenario's last turn)."""
    if campaign.module == "cherkassy_pocket":
        return [row["turn"] for row in game_data(campaign).get("turn_track", [])]
    return [row["turn"] for row in game_data(campaign).get("turns", [])]


def option_choices(campaign: Campaign) -> list[dict[str, Any]]:
    """The optional rules a game may be started with (Defiant Russia 8.2, 12.1, 12.2)."""
    return list(game_data(campaign).get("optional_rules") or [])


def setup_of(campaign: Campaign) -> ShortGame | None:
    return ShortGame.objects.filter(campaign=campaign).first()


# --- starting the game ----------------------------------------------------------------------


@transaction.atomic
def start(campaign: Campaign, *, by: AbstractBaseUser, options: Sequence[str]) -> ShortGame:
    """Start the game with the optional rules chosen; they stay fixed once a step is marked."""
    if not is_short_game(campaign):
        raise StateError(_("This is not one of the short games."))
    known = {option["id"] for option in option_choices(campaign)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise StateError(
            _("%(option)s is not an optional rule of this game.") % {"option": unknown[0]}
        )
    chosen = [option["id"] for option in option_choices(campaign) if option["id"] in options]
    game = ShortGame.objects.select_for_update(of=("self",)).filter(campaign=campaign).first()
    if game is not None:
        if game.options == chosen:
            return game  # the same form sent twice
        if TurnMark.objects.filter(campaign=campaign).exists() or campaign.period_index:
            raise StateError(_("The optional rules cannot change once the first turn has begun."))
        before = history.snapshot(game)
        save_versioned(game, game.version, {"options": chosen})
        changes = [(game, before, history.snapshot(game))]
    else:
        game = ShortGame.objects.create(campaign=campaign, options=chosen)
        changes = [(game, None, history.snapshot(game))]
        changes += [(point, None, history.snapshot(point)) for point in _start_control(campaign)]
        # The first turn's seeds, committed to before its rolls (verifiable dice).
        from campaigns.dice.services import commit

        commit(campaign, index=campaign.period_index)
    history.record_change(
        campaign, by, "shortgame.started", visibility=PUBLIC, changes=changes, options=chosen
    )
    return game


def _start_control(campaign: Campaign) -> list[ControlPoint]:
    """Defiant Russia's places held as the set-up fixes them (6.4), from turn 1 on; a place
    already recorded keeps its row. Cherkassy's victory hexes have no holder by the rules."""
    if campaign.module != "defiant_russia":
        return []
    known = set(ControlPoint.objects.filter(campaign=campaign).values_list("key", flat=True))
    return [
        ControlPoint.objects.create(
            campaign=campaign, key=place["id"], controller=dr_data.start_controller(place)
        )
        for place in places(campaign)
        if place["id"] not in known
    ]


# --- the unit roster -----------------------------------------------------------------------


def _check_units(campaign: Campaign, units: Sequence[UnitData]) -> None:
    sides = campaign.game.side_keys
    turns = all_turns(campaign)
    states = GAME_STATES[campaign.module]
    problems = []
    for number, unit in enumerate(units, start=1):
        errors = check(campaign.module, unit, sides, turns)
        if unit.state not in states:
            errors.append(
                _("State: “%(state)s” is not a state of this game.") % {"state": unit.state}
            )
        if errors:
            prefix = unit.name or str(number)
            problems += [f"{prefix}: {error}" for error in errors]
    if problems:
        raise UnitDataError(" ".join(problems[:6]))


_UNIT_FIELDS = (
    "side",
    "name",
    "unit_type",
    "nationality",
    "formation",
    "size",
    "full",
    "reduced",
    "steps",
    "setup",
    "arrival_turn",
    "arrival_edge",
    "marked_n",
    "with_5gtc",
    "artillery_range",
    "state",
    "hex",
    "out_of_supply",
    "msl",
    "artillery_used",
    "in_pocket",
    "reconstituted",
    "notes",
)


def unit_data(unit: GameUnit) -> UnitData:
    return UnitData(**{name: getattr(unit, name) for name in _UNIT_FIELDS})


@transaction.atomic
def add_units(
    campaign: Campaign, *, by: AbstractBaseUser, units: Sequence[UnitData], source: str = "form"
) -> list[GameUnit]:
    """Add units to the roster, all or none (UnitDataError names every problem)."""
    _check_units(campaign, units)
    created = GameUnit.objects.bulk_create(
        GameUnit(campaign=campaign, **{name: getattr(unit, name) for name in _UNIT_FIELDS})
        for unit in units
    )
    if not created or created[0].pk is None:
        # Backends that do not return ids from bulk inserts: read them back.
        created = list(GameUnit.objects.filter(campaign=campaign).order_by("-id")[: len(units)])[
            ::-1
        ]
    sides = sorted({unit.side for unit in created})
    history.record_change(
        campaign,
        by,
        "units.added",
        visibility=PUBLIC,
        changes=[(unit, None, history.snapshot(unit)) for unit in created],
        count=len(created),
        side=sides[0] if len(sides) == 1 else "",
        units=[unit.name for unit in created[:10]],
        source=source,
    )
    return created


@transaction.atomic
def change_unit(
    campaign: Campaign, unit: GameUnit, *, by: AbstractBaseUser, version: int, **fields: Any
) -> GameUnit:
    """Change a unit's printed values or its state; refused when someone saved it first."""
    current = unit_data(unit)
    for name, value in fields.items():
        if name not in _UNIT_FIELDS or name == "side":
            raise StateError(f"unknown unit field {name!r}")
        setattr(current, name, value)
    _check_units(campaign, [current])
    before = history.snapshot(unit)
    changed = {name: value for name, value in fields.items() if getattr(unit, name) != value}
    if not changed:
        if unit.version != version:
            raise StaleEdit
        return unit
    save_versioned(unit, version, changed)
    changes: list[history.Change] = [(unit, before, history.snapshot(unit))]
    # The steps it lost, if it lost any, booked for the turn (the after-action report).
    loss = per_turn.book_loss(campaign, unit, before["state"], campaign.period_index)
    if loss is not None:
        changes.append(loss)
    history.record_change(
        campaign,
        by,
        "unit.changed",
        visibility=PUBLIC,
        changes=changes,
        side=unit.side,
        unit=unit.name,
        fields=sorted(changed),
        index=campaign.period_index,
    )
    return unit


@transaction.atomic
def remove_unit(campaign: Campaign, unit: GameUnit, *, by: AbstractBaseUser, version: int) -> None:
    if unit.version != version:
        raise StaleEdit
    before = history.snapshot(unit)
    unit.delete()
    history.record_change(
        campaign,
        by,
        "unit.removed",
        visibility=PUBLIC,
        changes=[(unit, before, None)],
        side=unit.side,
        unit=unit.name,
    )


# --- places ----------------------------------------------------------------------------------


def places(campaign: Campaign) -> list[dict[str, Any]]:
    return places_of(campaign.module, game_data(campaign))


def places_of(module: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    """The places whose control the game counts: DR's VP and replacement cities, Warsaw,
    Helsinki and Bucharest (automatic victory, conquest), Odessa (reinforcements); CP's
    victory hexes."""
    if module == "defiant_russia":
        wanted = {city["id"] for city in game["victory"]["cities"]}
        wanted |= {"stalingrad", "warsaw", "helsinki", "bucharest", "odessa"}
        return [place for place in game.get("key_locations", []) if place["id"] in wanted]
    hexes: dict[str, dict[str, Any]] = {}
    for scenario in game.get("scenarios", []):
        for condition in scenario.get("victory", {}).get("conditions", []):
            tests = [condition.get("test") or {}]
            tests += list((condition.get("test") or {}).get("any_of") or [])
            for test in tests:
                if isinstance(test, dict) and test.get("hex"):
                    hexes.setdefault(
                        str(test["hex"]),
                        {
                            "id": f"hex-{test['hex']}",
                            "hex": str(test["hex"]),
                            "name": cp_data.PLACE_NAMES.get(str(test["hex"])),
                        },
                    )
    return list(hexes.values())


@transaction.atomic
def set_control(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    key: str,
    controller: str,
    cut_off: bool,
    version: int | None,
) -> ControlPoint:
    if key not in {place["id"] for place in places(campaign)}:
        raise StateError(_("That place is not tracked in this game."))
    if controller and controller not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    point = (
        ControlPoint.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, key=key)
        .first()
    )
    fields = {"controller": controller, "cut_off": cut_off, "index": campaign.period_index}
    if point is None:
        if version not in (None, 0):
            raise StaleEdit
        point = ControlPoint.objects.create(campaign=campaign, key=key, **fields)
        changes = [(point, None, history.snapshot(point))]
    else:
        if version is None:
            raise StaleEdit
        before = history.snapshot(point)
        save_versioned(point, version, fields)
        changes = [(point, before, history.snapshot(point))]
    history.record_change(
        campaign,
        by,
        "control.changed",
        visibility=PUBLIC,
        changes=changes,
        place=key,
        side=controller,
        cut_off=cut_off,
        index=campaign.period_index,
    )
    return point


# --- referee-supplied tables (Cherkassy Pocket) ---------------------------------------------


def referee_slots(campaign: Campaign) -> list[dict[str, Any]]:
    return list(game_data(campaign).get("referee_slots") or [])


def referee_tables(campaign: Campaign) -> dict[str, Any]:
    """Slot id → the data the rules read: a grid the referee entered, read into the rules' data
    (None while it cannot be used: a roll is never made on half a table), another slot's data as
    entered, or the module's own data, or None."""
    entered = dict(RefereeTable.objects.filter(campaign=campaign).values_list("slot", "data"))
    data = game_data(campaign)
    tables = {}
    for slot in referee_slots(campaign):
        value = entered.get(slot["id"], slot.get("data"))
        if slot["id"] in grids.GRID_SLOTS and value is not None:
            grid = grids.from_legacy(slot["id"], value)
            value = grids.usable(slot["id"], grid, data) if grid is not None else None
        tables[slot["id"]] = value
    return tables


def check_slot_data(slot: dict[str, Any], data: Any, game: dict[str, Any] | None = None) -> Any:
    """The data to store for a slot, or StateError naming why the app could not use it. A grid
    slot takes a grid (an earlier JSON table is read into one) and refuses it with its first
    problems, each naming its cell; a dice-table slot a table in the contract's format covering
    every roll."""
    if slot["id"] in grids.GRID_SLOTS and game is not None:
        grid = grids.from_legacy(slot["id"], data)
        if grid is None:
            raise StateError(_("This is not a table of rows and columns."))
        found = grids.problems(slot["id"], grid, game)
        if found:
            language = get_language() or "en"
            shown = " ".join(p.text.in_language(language) for p in found[:5])
            more = len(found) - 5
            if more > 0:
                shown += " " + _("(and %(count)s more)") % {"count": more}
            raise StateError(shown)
        return grid.data()
    if slot.get("kind") == "dice_table":
        try:
            table = parse_table(data, slot["id"])
        except GameDataError as error:
            raise StateError(str(error)) from None
        expected = (slot.get("shape") or {}).get("roll")
        if expected and table.roll != expected:
            raise StateError(
                _("%(slot)s is rolled with %(roll)s.") % {"slot": slot["id"], "roll": expected}
            )
    elif not isinstance(data, dict | list) or not data:
        raise StateError(_("Enter the table as a JSON object or list."))
    return data


@transaction.atomic
def save_referee_table(
    campaign: Campaign, *, by: AbstractBaseUser, slot_id: str, data: Any, version: int | None
) -> RefereeTable:
    slot = next((s for s in referee_slots(campaign) if s["id"] == slot_id), None)
    if slot is None:
        raise StateError(_("This game has no such table to fill in."))
    data = check_slot_data(slot, data, game_data(campaign))
    row = (
        RefereeTable.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, slot=slot_id)
        .first()
    )
    if row is None:
        if version not in (None, 0):
            raise StaleEdit
        row = RefereeTable.objects.create(campaign=campaign, slot=slot_id, data=data, updated_by=by)
        changes = [(row, None, history.snapshot(row))]
    else:
        if version is None:
            raise StaleEdit
        before = history.snapshot(row)
        save_versioned(row, version, {"data": data, "updated_by": by})
        changes = [(row, before, history.snapshot(row))]
    history.record_change(
        campaign,
        by,
        "referee_table.saved",
        visibility=PUBLIC,
        changes=changes,
        slot=slot_id,
        referee_only=True,
    )
    return row


@transaction.atomic
def import_referee_tables(
    campaign: Campaign, *, by: AbstractBaseUser, tables: Sequence[tuple[str, grids.Grid]]
) -> int:
    """Every table of a tables file saved over this game's, all or none: the first table the
    app could not use refuses the file, naming the table and its cells."""
    names = {slot["id"]: slot.get("name") or {} for slot in referee_slots(campaign)}
    versions = dict(RefereeTable.objects.filter(campaign=campaign).values_list("slot", "version"))
    for slot_id, grid in tables:
        try:
            save_referee_table(
                campaign,
                by=by,
                slot_id=slot_id,
                data=grid.data(),
                version=versions.get(slot_id, 0),
            )
        except StateError as error:
            name = names.get(slot_id, {})
            label = (name.get("ja") if (get_language() or "en").startswith("ja") else None) or (
                name.get("en") or slot_id
            )
            raise StateError(f"{label}: {error}") from None
    return len(tables)


# --- Cherkassy Pocket: the ring and the VP ------------------------------------------------------


@transaction.atomic
def set_pocket(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    formed: bool,
    members: Sequence[int] = (),
    version: int,
) -> ShortGame:
    """Record that the ring closed this turn (3.4) and which German units are in it (3.5); or
    take it back. The Group is fixed when the pocket forms and only shrinks afterwards."""
    game = setup_of(campaign)
    if game is None:
        raise StateError(_("Start the game first."))
    before_game = history.snapshot(game)
    save_versioned(
        game, version, {"pocket_formed_index": campaign.period_index if formed else None}
    )
    changes: list[history.Change] = [(game, before_game, history.snapshot(game))]
    german = list(GameUnit.objects.filter(campaign=campaign, side="german"))
    wanted = set(members) if formed else set()
    for unit in german:
        if unit.in_pocket != (unit.pk in wanted):
            before = history.snapshot(unit)
            save_versioned(unit, unit.version, {"in_pocket": unit.pk in wanted})
            changes.append((unit, before, history.snapshot(unit)))
    history.record_change(
        campaign,
        by,
        "pocket.changed",
        visibility=PUBLIC,
        changes=changes,
        formed=formed,
        count=len(wanted),
        index=campaign.period_index,
        at_formation=formation_counts(german) if formed else None,
    )
    return game


OUT_OF_PLAY_STATES = ("eliminated", "reconstitution", "recovery_1", "recovery_2", "removed")


def formation_counts(german_units: Sequence[GameUnit]) -> dict[str, int]:
    """German units eliminated or encircled when the pocket forms, marked N or not (scenario 1's
    VP, judged at that moment: kept with the event, as later losses do not count)."""
    counted = [u for u in german_units if u.in_pocket or u.state in OUT_OF_PLAY_STATES]
    return {
        "n": sum(1 for u in counted if u.marked_n),
        "non_n": sum(1 for u in counted if not u.marked_n),
    }


# The one fact the app cannot compute: whether the Group was wiped out before a relief.
MANUAL_FACT = "stemmermann_all_eliminated_before_relief"


def is_manual_condition(condition: dict[str, Any]) -> bool:
    test = condition.get("test") or {}
    parts = [test, *(test.get("any_of") or [])]
    return any(MANUAL_FACT in part for part in parts if isinstance(part, dict))


@transaction.atomic
def set_victory_condition(
    campaign: Campaign, *, by: AbstractBaseUser, condition: str, met: bool, version: int
) -> ShortGame:
    """Tick a scenario's victory condition as met this turn (or not any more)."""
    game = setup_of(campaign)
    if game is None:
        raise StateError(_("Start the game first."))
    known = {c["id"]: c for c in victory_conditions(campaign)}
    if condition not in known:
        raise StateError(_("That is not a victory condition of this scenario."))
    if met and not is_manual_condition(known[condition]):
        raise StateError(
            _("The app counts this condition from the units, the pocket and the places.")
        )
    victory = dict(game.victory)
    if met:
        victory[condition] = campaign.period_index
    else:
        victory.pop(condition, None)
    before = history.snapshot(game)
    save_versioned(game, version, {"victory": victory})
    history.record_change(
        campaign,
        by,
        "victory.changed",
        visibility=PUBLIC,
        changes=[(game, before, history.snapshot(game))],
        condition=condition,
        met=met,
        index=campaign.period_index,
    )
    return game


def scenario_data(campaign: Campaign) -> dict[str, Any]:
    for scenario in game_data(campaign).get("scenarios", []):
        if scenario.get("campaign_game") == campaign.campaign_game or scenario.get("id") == (
            campaign.campaign_game
        ):
            return scenario
    return {}


def victory_conditions(campaign: Campaign) -> list[dict[str, Any]]:
    if campaign.module != "cherkassy_pocket":
        return []
    return list(scenario_data(campaign).get("victory", {}).get("conditions", []))


# Scopes used by this module's events (all public: the map is open in both games).
SCOPES = (PUBLIC, REFEREE)
