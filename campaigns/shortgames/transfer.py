"""The short games' section of an export file (registered with campaigns.transfer.sections when
the app is ready): the game as started, its unit roster, the turn marks, the points, who holds
which place and the referee's tables.

Nothing of a short game is secret, so every scope carries all of it. The import checks each row
against its model field (the transfer checker's ``values``) and against the game (known states,
steps, places, optional rules, referee slots); any failure refuses the whole file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.models import (
    ControlPoint,
    GameUnit,
    PointEntry,
    PointKind,
    RefereeTable,
    ShortGame,
    TurnMark,
)
from campaigns.models.short_game import GAME_STATES
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy import grids
from campaigns.shortgames.rules.cherkassy import turn_sequence as cp_sequence
from campaigns.state import StateError
from campaigns.transfer.format import ImportRefused
from campaigns.transfer.sections import register_section

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

SECTION = "short_game"
SETUP_FIELDS = ("options", "pocket_formed_index", "victory", "notes")
UNIT_FIELDS = (
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
    "state",
    "hex",
    "out_of_supply",
    "msl",
    "artillery_used",
    "in_pocket",
    "marked_n",
    "with_5gtc",
    "artillery_range",
    "reconstituted",
    "notes",
)
MARK_FIELDS = ("index", "side", "step", "status", "reason", "note", "order")
POINT_FIELDS = ("side", "index", "kind", "action", "amount", "note", "front", "segment")
CONTROL_FIELDS = ("key", "controller", "cut_off", "index")


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def export_section(context: ExportContext) -> dict[str, Any] | None:
    """The short game's rows as JSON-ready data (None for the campaign games). Fixed queries."""
    campaign = context.campaign
    if not short_games.is_short_game(campaign):
        return None
    game = ShortGame.objects.filter(campaign=campaign).values(*SETUP_FIELDS).first()
    units = list(
        GameUnit.objects.filter(campaign=campaign).order_by("id").values("id", *UNIT_FIELDS)
    )
    refs = {row["id"]: ref for ref, row in enumerate(units, start=1)}
    return {
        "setup": game,
        "units": [{**{k: row[k] for k in UNIT_FIELDS}, "id": refs[row["id"]]} for row in units],
        "turn_marks": list(
            TurnMark.objects.filter(campaign=campaign).order_by("index", "id").values(*MARK_FIELDS)
        ),
        "points": [
            {
                **{k: row[k] for k in POINT_FIELDS},
                "unit": refs.get(row["unit_id"]),
                "created_at": _iso(row["created_at"]),
            }
            for row in PointEntry.objects.filter(campaign=campaign)
            .order_by("index", "side", "id")
            .values("unit_id", "created_at", *POINT_FIELDS)
        ],
        "control": list(
            ControlPoint.objects.filter(campaign=campaign).order_by("key").values(*CONTROL_FIELDS)
        ),
        "referee_tables": list(
            RefereeTable.objects.filter(campaign=campaign).order_by("slot").values("slot", "data")
        ),
    }


def check_section(checker: Checker, section: Any) -> dict | None:
    """The section checked against the game; ImportRefused names the bad entry."""
    module = checker.module
    refused = ImportRefused
    is_short = module.key in short_games.SHORT_MODULES and "turn_sequence" in module.files
    if section is None:
        return None
    if not is_short:
        raise refused(_("The file's “short_game” belongs to another game."))
    if not isinstance(section, dict):
        raise refused(_("The file's “short_game” must be an object."))
    game = module.files["game"]
    parsed: dict[str, Any] = {"setup": None}
    setup = section.get("setup")
    if setup is not None:
        if not isinstance(setup, dict):
            raise refused(_("The file's “short_game.setup” must be an object."))
        values = checker.values("short_game.setup", 1, setup, ShortGame, SETUP_FIELDS)
        known = {option["id"] for option in game.get("optional_rules") or []}
        if (
            not isinstance(values["options"], list)
            or not set(values["options"]) <= known
            or not all(isinstance(o, str) for o in values["options"])
        ):
            raise checker.error("short_game.setup", 1, "options", _("names an unknown rule."))
        if not isinstance(values["victory"], dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values["victory"].values()
        ):
            raise checker.error("short_game.setup", 1, "victory", _("must map ids to turns."))
        parsed["setup"] = values
    unit_refs: set = set()
    units = []
    states = GAME_STATES[module.key]
    for n, row in checker.rows(section, "units"):
        ref = checker.ref("units", n, row, unit_refs)
        values = checker.values("units", n, row, GameUnit, UNIT_FIELDS)
        if values["state"] not in states:
            raise checker.error("units", n, "state", _("is not a state of this game."))
        if values["steps"] not in (1, 2):
            raise checker.error("units", n, "steps", _("must be 1 or 2."))
        units.append({"ref": ref, "values": values})
    sequence_steps = {raw["id"] for raw in module.files["turn_sequence"]["steps"]}
    marks = []
    seen: set = set()
    for n, row in checker.rows(section, "turn_marks"):
        values = checker.values("turn_marks", n, row, TurnMark, MARK_FIELDS)
        if values["step"] not in sequence_steps:
            raise checker.error("turn_marks", n, "step", _("is not a step of this game."))
        if values["status"] not in TurnMark.Status.values:
            raise checker.error("turn_marks", n, "status", _("must be done or skipped."))
        if values["order"] not in ("", *cp_sequence.ORDERS):
            raise checker.error(
                "turn_marks", n, "order", _("must be move_first, combat_first or empty.")
            )
        key = (values["index"], values["side"], values["step"])
        if key in seen:
            raise checker.error("turn_marks", n, "step", _("is marked twice."))
        seen.add(key)
        marks.append(values)
    points = []
    for n, row in checker.rows(section, "points"):
        values = checker.values("points", n, row, PointEntry, POINT_FIELDS)
        if values["kind"] not in PointKind.values:
            raise checker.error("points", n, "kind", _("is not a kind of points."))
        if values["action"] not in PointEntry.Action.values:
            raise checker.error("points", n, "action", _("is not a kind of entry."))
        if values["front"] and (
            values["front"] not in cp_air.FRONTS
            or values["side"] != "soviet"
            or values["kind"] != PointKind.AIR
        ):
            raise checker.error(
                "points", n, "front", _("must be 1uf, 2uf or empty (Soviet air points only).")
            )
        if values["segment"] is not None and (
            values["segment"] not in (1, 2)
            or values["kind"] != PointKind.AIR
            or module.key != "cherkassy_pocket"
        ):
            raise checker.error(
                "points",
                n,
                "segment",
                _("must be 1, 2 or null (Cherkassy Pocket's air points only)."),
            )
        unit = row.get("unit")
        if unit is not None and unit not in unit_refs:
            raise checker.error("points", n, "unit", _("names no unit of the file."))
        points.append(
            {
                "values": values,
                "unit": unit,
                "created_at": checker.timestamp("points", n, row, "created_at"),
            }
        )
    places = {place["id"] for place in short_games.places_of(module.key, game)}
    control = []
    keys: set = set()
    for n, row in checker.rows(section, "control"):
        values = checker.values("control", n, row, ControlPoint, CONTROL_FIELDS)
        if values["key"] not in places or values["key"] in keys:
            raise checker.error("control", n, "key", _("is not a place of this game."))
        if values["controller"] and values["controller"] not in module.side_keys:
            raise checker.error("control", n, "controller", _("is not a side of this game."))
        keys.add(values["key"])
        control.append(values)
    slots = {slot["id"]: slot for slot in game.get("referee_slots") or []}
    tables = []
    for n, row in checker.rows(section, "referee_tables"):
        slot = slots.get(row.get("slot"))
        if slot is None or any(t["slot"] == slot["id"] for t in tables):
            raise checker.error("referee_tables", n, "slot", _("is not a table of this game."))
        grid = grids.from_legacy(slot["id"], row.get("data"))
        if grid is None:
            try:
                short_games.check_slot_data(slot, row.get("data"))
            except StateError as error:
                raise checker.error("referee_tables", n, "data", str(error)) from None
        # A table saved before the grids is kept as a grid when it reads as one (its problems
        # are shown on the Referee tables page), else as it was.
        tables.append({"slot": slot["id"], "data": grid.data() if grid else row["data"]})
    parsed.update(
        {
            "units": units,
            "turn_marks": marks,
            "points": points,
            "control": control,
            "tables": tables,
        }
    )
    return parsed


def load_section(context: LoadContext, parsed: dict[str, Any]) -> None:
    """Write the section's rows for the new campaign, the points with their times."""
    campaign, create_all = context.campaign, context.create
    if parsed["setup"] is not None:
        ShortGame.objects.create(campaign=campaign, **parsed["setup"])
    units = create_all(
        GameUnit, [GameUnit(campaign=campaign, **row["values"]) for row in parsed["units"]]
    )
    by_ref = {row["ref"]: unit for row, unit in zip(parsed["units"], units, strict=True)}
    create_all(TurnMark, [TurnMark(campaign=campaign, **values) for values in parsed["turn_marks"]])
    points = create_all(
        PointEntry,
        [
            PointEntry(campaign=campaign, unit=by_ref.get(row["unit"]), **row["values"])
            for row in parsed["points"]
        ],
    )
    create_all(ControlPoint, [ControlPoint(campaign=campaign, **v) for v in parsed["control"]])
    create_all(RefereeTable, [RefereeTable(campaign=campaign, **t) for t in parsed["tables"]])
    context.restore_times(PointEntry, points, parsed["points"])


def register() -> None:
    register_section(
        SECTION,
        models=(ShortGame, GameUnit, TurnMark, PointEntry, ControlPoint, RefereeTable),
        export=export_section,
        check=check_section,
        load=load_section,
    )
