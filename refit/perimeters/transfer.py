"""The perimeter maps in an export file (docs/export-format.md: ``perimeters``,
``perimeter_units``, ``map_terrain``), registered with campaigns.transfer.sections when the app
is ready.

Secrecy as on the perimeter page (refit.perimeters.state): control, fires, markers, pockets,
escapes, the recorded result and the water hexes are public; a side's unit positions are secret
to that side until it declares them. The import checks every value's shape as the services and
the page read it, so that no imported perimeter can break the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.compiled import Tables
from campaigns.games.registry import GameModule
from campaigns.models import DiceRoll, RefitPhase, Scenario
from campaigns.transfer.format import ImportRefused, iso, scope_sides
from campaigns.transfer.sections import EACH, register_reference, register_section
from campaigns.transfer.values import is_int, is_ref
from refit.models import MapTerrain, PerimeterState, PerimeterUnits, ScenarioControl
from refit.rules.perimeter.board import MAIN, POCKET, UNIT_KINDS

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

STATES = "perimeters"
UNITS = "perimeter_units"
TERRAIN = "map_terrain"
SCENARIO_CONTROL = "scenario_control"
STATE_FIELDS = ("index", "control", "fires", "markers", "non_ground", "escapes", "recorded")
UNIT_FIELDS = ("side", "units", "declared")
ESCAPE_OUTCOMES = (
    "escaped",
    "eliminated",
    "abandoned",
    "replaced",
    "casualty_reduced",
    "heat_of_battle",
)


def has_map(module: GameModule, cg_key: str) -> bool:
    """Does the campaign game have a perimeter map (refit.perimeters.state.has_perimeters)?"""
    maps = module.files.get("maps", {})
    return bool(maps.get("campaign_maps", {}).get(cg_key))


def _not_this_game(section: str) -> ImportRefused:
    return ImportRefused(
        _("The file's “%(section)s” belongs to another game.") % {"section": section}
    )


# --- shapes of the JSON columns ------------------------------------------------------------------

Fits = Callable[[Any], bool]


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _roll(value: Any) -> bool:
    return value is None or is_ref(value)


def _objects(value: Any, fields: Mapping[str, Fits], required: tuple[str, ...]) -> bool:
    """A list of objects having ``required`` keys, each key it has of the right kind (keys not
    named are kept as they are)."""
    return isinstance(value, list) and all(
        isinstance(item, dict)
        and all(key in item for key in required)
        and all(fits(item[key]) for key, fits in fields.items() if key in item)
        for item in value
    )


def _control(sides: tuple[str, ...]) -> Fits:
    return lambda value: (
        isinstance(value, dict)
        and all(isinstance(side, str) and side in sides for side in value.values())
    )


def _one_of(choices: tuple[str, ...]) -> Fits:
    return lambda value: value in choices


def _state_rules(sides: tuple[str, ...]) -> dict[str, tuple[Fits, str]]:
    """Each JSON column of a perimeter: how it must look, and the message when it does not."""
    side = _one_of(sides)
    marker = {"side": side, "hex": _text, "target": _text, "via": _text}
    marker["kind"] = _one_of((MAIN, POCKET))
    pocket = {"side": side, "hexes": _texts, "label": _text}
    escape: dict[str, Fits] = {"side": side, "units": _texts, "left": _texts, "roll": _roll}
    escape.update({"original": is_int, "final": is_int})
    escape.update(dict.fromkeys(ESCAPE_OUTCOMES, _flag))
    return {
        "control": (_control(sides), _("must map hex names to sides of this game.")),
        "fires": (_texts, _("must be a list of texts.")),
        "markers": (
            lambda value: _objects(value, marker, ("side", "hex", "target")),
            _(
                "must be a list of markers, each with a “side”, a “hex” and a “target” (and "
                "maybe a “via” hex and a “kind”: main or pocket)."
            ),
        ),
        "non_ground": (
            lambda value: _objects(value, pocket, ("side", "hexes")),
            _("must be a list of pockets, each with a “side”, its “hexes” and a “label”."),
        ),
        "escapes": (
            lambda value: _objects(value, escape, ("side", "units")),
            _(
                "must be a list of escapes, each with a “side” and its “units” (texts), the "
                "roll's id in the file, the dice (whole numbers) and the outcomes (true or "
                "false)."
            ),
        ),
        "recorded": (
            lambda value: _control(sides)(value.get("control", {})),
            _("must be an object whose “control” maps hex names to sides of this game."),
        ),
    }


def _unit_entries(value: Any) -> bool:
    unit = {"id": _text, "hex": _text, "kind": _one_of(UNIT_KINDS), "level": is_int}
    return _objects(value, unit, ("id", "hex", "kind"))


# --- perimeters --------------------------------------------------------------------------------


# The four sections' rows from one query, once per export (campaigns.compiled.Tables): the map's
# water, the perimeters (one per RePh, in the order they were started), their units, each
# scenario's control record.
_READ = Tables(
    PerimeterState,
    lambda campaign: [
        (MapTerrain.objects.filter(campaign=campaign).order_by("id"), ("water",)),
        (
            PerimeterState.objects.filter(campaign=campaign).order_by("id"),
            ("id", "reph_id", "created_at", *STATE_FIELDS),
        ),
        (
            PerimeterUnits.objects.filter(campaign=campaign).order_by("state_id", "side"),
            ("state_id", *UNIT_FIELDS),
        ),
        (
            ScenarioControl.objects.filter(campaign=campaign).order_by(
                "scenario__index", "scenario__sequence"
            ),
            ("scenario_id", "changes"),
        ),
    ],
)
_TERRAIN, _STATES, _UNITS, _CONTROL = range(4)


def _rows(context: ExportContext, table: int) -> list[tuple]:
    tables = context.once(STATES, lambda: _READ.by_table(context.campaign.pk))
    return tables.get(table, [])


def export_states(context: ExportContext) -> list[dict[str, Any]] | None:
    """One perimeter per RePh, in the order they were started (the next starts from the last)."""
    campaign = context.campaign
    if not has_map(campaign.game, campaign.campaign_game):
        return None
    rows = _rows(context, _STATES)
    refs = context.ids.number(PerimeterState, (row[0] for row in rows))
    return [
        {
            "id": refs[pk],
            "reph": context.ids.of(RefitPhase, reph),
            **(state := dict(zip(STATE_FIELDS, values, strict=True))),
            "escapes": context.references(PerimeterState, "escapes", state["escapes"]),
            "created_at": iso(created_at),
        }
        for pk, reph, created_at, *values in rows
    ]


def check_states(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not has_map(checker.module, checker.cg_key):
        raise _not_this_game(STATES)
    rules = _state_rules(checker.module.side_keys)
    rows: list[dict[str, Any]] = []
    refs: set = set()
    for n, row in checker.entries(STATES, value):
        ref = checker.ref(STATES, n, row, refs)
        values = checker.values(STATES, n, row, PerimeterState, STATE_FIELDS)
        for name, (fits, message) in rules.items():
            if not fits(values[name]):
                raise checker.error(STATES, n, name, message)
        reph = checker.reference(
            STATES,
            n,
            row,
            "reph",
            checker.known(RefitPhase),
            _("names no Refit Phase of the file."),
        )
        if reph is not None and any(other["reph"] == reph for other in rows):
            raise checker.error(STATES, n, "reph", _("has another perimeter in the file."))
        rows.append(
            {
                "ref": ref,
                "reph": reph,
                "values": values,
                "created_at": checker.timestamp(STATES, n, row, "created_at"),
            }
        )
    checker.define(PerimeterState, refs)
    return rows


def load_states(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    states = context.create(
        PerimeterState,
        [
            PerimeterState(
                campaign=context.campaign,
                reph=context.row(RefitPhase, row["reph"]),
                **{
                    **row["values"],
                    "escapes": context.references(
                        PerimeterState, "escapes", row["values"]["escapes"]
                    ),
                },
            )
            for row in rows
        ],
    )
    context.keep(PerimeterState, (row["ref"] for row in rows), states)
    context.restore_times(PerimeterState, states, rows)


# --- perimeter_units ---------------------------------------------------------------------------


def export_units(context: ExportContext) -> list[dict[str, Any]] | None:
    """A side's units once declared, else only in a file holding that side's secrets."""
    campaign = context.campaign
    if not has_map(campaign.game, campaign.campaign_game):
        return None
    sides = context.sides
    found = []
    for state, *values in _rows(context, _UNITS):
        row = dict(zip(UNIT_FIELDS, values, strict=True))
        if row["declared"] or row["side"] in sides:
            found.append({"perimeter": context.ids.of(PerimeterState, state), **row})
    return found


def check_units(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not has_map(checker.module, checker.cg_key):
        raise _not_this_game(UNITS)
    secrets_of = scope_sides(checker.scope, checker.module)
    rows = []
    for n, row in checker.entries(UNITS, value):
        values = checker.values(UNITS, n, row, PerimeterUnits, UNIT_FIELDS)
        if not values["declared"] and values["side"] not in secrets_of:
            raise checker.error(
                UNITS,
                n,
                "side",
                _("is secret in a file of scope “%(scope)s”.") % {"scope": checker.scope},
            )
        if not _unit_entries(values["units"]):
            raise checker.error(
                UNITS,
                n,
                "units",
                _(
                    "must be a list of units, each with an “id”, a “hex” and a “kind” (%(kinds)s), "
                    "and maybe a “level” (a whole number)."
                )
                % {"kinds": ", ".join(UNIT_KINDS)},
            )
        perimeter = checker.reference(
            UNITS,
            n,
            row,
            "perimeter",
            checker.known(PerimeterState),
            _("names no perimeter of the file."),
        )
        if perimeter is None:
            raise checker.error(UNITS, n, "perimeter", _("is missing."))
        rows.append({"perimeter": perimeter, "values": values})
    keys = [{"perimeter": row["perimeter"], "side": row["values"]["side"]} for row in rows]
    checker.unique(UNITS, keys, ("perimeter", "side"))
    return rows


def load_units(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    context.create(
        PerimeterUnits,
        [
            PerimeterUnits(
                campaign=context.campaign,
                state=context.row(PerimeterState, row["perimeter"]),
                **row["values"],
            )
            for row in rows
        ],
    )


# --- map_terrain -------------------------------------------------------------------------------


def export_terrain(context: ExportContext) -> dict[str, Any] | None:
    """The water hexes marked on the campaign's map (no key until some are)."""
    campaign = context.campaign
    if not has_map(campaign.game, campaign.campaign_game):
        return None
    rows = _rows(context, _TERRAIN)
    return {"water": rows[0][0]} if rows else None


def check_terrain(checker: Checker, value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not has_map(checker.module, checker.cg_key):
        raise _not_this_game(TERRAIN)
    if not isinstance(value, dict):
        raise ImportRefused(_("The file's “map_terrain” must be an object."))
    values = checker.values(TERRAIN, 1, value, MapTerrain, ("water",))
    if not _texts(values["water"]):
        raise checker.error(TERRAIN, 1, "water", _("must be a list of texts."))
    return values


def load_terrain(context: LoadContext, values: dict[str, Any]) -> None:
    MapTerrain.objects.create(campaign=context.campaign, **values)


# --- scenario_control ----------------------------------------------------------------------------


def export_scenario_control(context: ExportContext) -> list[dict[str, Any]] | None:
    """Each scenario's control record (public, like the perimeters)."""
    campaign = context.campaign
    if not has_map(campaign.game, campaign.campaign_game):
        return None
    return [
        {"scenario": context.ids.of(Scenario, scenario), "changes": changes}
        for scenario, changes in _rows(context, _CONTROL)
    ]


def _changes(sides: tuple[str, ...]) -> Fits:
    side = _one_of(("", *sides))
    change = {"hex": _text, "from": side, "to": side}
    return lambda value: _objects(value, change, ("hex", "from", "to"))


def check_scenario_control(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not has_map(checker.module, checker.cg_key):
        raise _not_this_game(SCENARIO_CONTROL)
    fits = _changes(checker.module.side_keys)
    rows: list[dict[str, Any]] = []
    for n, row in checker.entries(SCENARIO_CONTROL, value):
        values = checker.values(SCENARIO_CONTROL, n, row, ScenarioControl, ("changes",))
        if not fits(values["changes"]):
            raise checker.error(
                SCENARIO_CONTROL,
                n,
                "changes",
                _(
                    "must be a list of changes, each with a “hex”, the side controlling it "
                    "“from” before the scenario and “to” after it (“” for none)."
                ),
            )
        scenario = checker.reference(
            SCENARIO_CONTROL,
            n,
            row,
            "scenario",
            checker.known(Scenario),
            _("names no scenario of the file."),
        )
        if scenario is None:
            raise checker.error(SCENARIO_CONTROL, n, "scenario", _("is missing."))
        if any(other["scenario"] == scenario for other in rows):
            raise checker.error(
                SCENARIO_CONTROL, n, "scenario", _("has another control record in the file.")
            )
        rows.append({"scenario": scenario, "values": values})
    return rows


def load_scenario_control(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    context.create(
        ScenarioControl,
        [
            ScenarioControl(
                campaign=context.campaign,
                scenario=context.row(Scenario, row["scenario"]),
                **row["values"],
            )
            for row in rows
        ],
    )


def register() -> None:
    register_section(
        TERRAIN, models=(MapTerrain,), export=export_terrain, check=check_terrain, load=load_terrain
    )
    register_section(
        STATES,
        models=(PerimeterState,),
        export=export_states,
        check=check_states,
        load=load_states,
    )
    register_section(
        UNITS, models=(PerimeterUnits,), export=export_units, check=check_units, load=load_units
    )
    register_section(
        SCENARIO_CONTROL,
        models=(ScenarioControl,),
        export=export_scenario_control,
        check=check_scenario_control,
        load=load_scenario_control,
    )
    # An escape names its roll (refit.perimeters.escapes.roll_escape).
    register_reference(PerimeterState, "escapes", (EACH, "roll"), DiceRoll)
