"""The perimeter step of a Refit Phase (RF/SaP 11.605–11.6066): every change in one transaction
with a history event, escape rolls through the dice service, and the computation for a viewer.

Secrecy: control, fires, water, markers, non-ground pockets, escapes and the computed areas are
public (the rules make perimeters public). Each side's unit positions are secret to that side and
the referee until the side declares them; the public computation uses declared units only, a
side's own view adds its undeclared ones, the referee's view uses all.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.access import PUBLIC, Viewer
from campaigns.dice import services as dice
from campaigns.games.registry import LocalizedText
from campaigns.history import services as history
from campaigns.models import Campaign, RefitPhase
from campaigns.state import StaleEdit, StateError
from refit.models import MapTerrain, PerimeterState, PerimeterUnits
from refit.rules import perimeter as pm
from refit.rules.hexgrid import HexError, HexMap
from refit.walker import services as walker

RULE = "11.605"
ESCAPE_RULE = pm.ESCAPE_RULE
KINDS = pm.UNIT_KINDS


def has_perimeters(campaign: Campaign) -> bool:
    return "maps" in campaign.game.files and map_key(campaign) != ""


def map_key(campaign: Campaign) -> str:
    data = campaign.game.files.get("maps", {})
    return str(data.get("campaign_maps", {}).get(campaign.campaign_game, ""))


@lru_cache(maxsize=16)
def _base_map(module: str, key: str, data_json: str) -> HexMap:
    hexmap = HexMap.from_data(key, json.loads(data_json))
    hexmap.adjacency  # noqa: B018 — built once per process, not per request
    return hexmap


def base_map(campaign: Campaign) -> HexMap:
    key = map_key(campaign)
    data = campaign.game.files["maps"]["maps"][key]
    return _base_map(campaign.module, key, json.dumps(data, sort_keys=True))


def hex_map(campaign: Campaign, terrain: MapTerrain | None) -> HexMap:
    hexmap = base_map(campaign)
    if terrain is None or not terrain.water:
        return hexmap
    return hexmap.with_water(_hexes(hexmap, terrain.water))


def _hexes(hexmap: HexMap, names: list[str]) -> list[tuple[int, int]]:
    found = []
    for name in names:
        try:
            found.append(hexmap.hex(name))
        except HexError:
            continue  # a name the configured map no longer has
    return found


def sides(campaign: Campaign) -> tuple[str, str]:
    keys = campaign.game.side_keys
    return (keys[0], keys[1])


# --- the state of the open Refit Phase ---------------------------------------------------------


def terrain_of(campaign: Campaign) -> MapTerrain | None:
    return MapTerrain.objects.filter(campaign=campaign).first()


def current_state(campaign: Campaign) -> PerimeterState | None:
    """The perimeter of the open Refit Phase, started from the last one's resulting control."""
    reph = walker.open_reph(campaign)
    if reph is None:
        return None
    state = PerimeterState.objects.filter(campaign=campaign, reph=reph).first()
    if state is not None:
        return state
    return _start(campaign, reph)


@transaction.atomic
def _start(campaign: Campaign, reph: RefitPhase) -> PerimeterState:
    previous = (
        PerimeterState.objects.filter(campaign=campaign).exclude(reph=reph).order_by("-id").first()
    )
    control: dict[str, str] = {}
    if previous is not None:
        # Control carries over: the recorded result if there is one, else what was entered.
        control = dict(previous.recorded.get("control") or previous.control)
    state, _created = PerimeterState.objects.get_or_create(
        campaign=campaign, reph=reph, defaults={"index": reph.index, "control": control}
    )
    return state


def unit_rows(state: PerimeterState) -> dict[str, PerimeterUnits]:
    return {row.side: row for row in state.unit_rows.all()}


def visible_units(viewer: Viewer | None, rows: dict[str, PerimeterUnits]) -> dict[str, list[dict]]:
    """The unit lists this viewer may use: declared ones, plus the sides it may see."""
    return {
        side: list(row.units)
        for side, row in rows.items()
        if row.declared or (viewer is not None and viewer.can_see_side(side))
    }


def board(
    campaign: Campaign,
    state: PerimeterState,
    hexmap: HexMap,
    units: dict[str, list[dict]],
) -> pm.Board:
    control = {}
    for name, side in state.control.items():
        for h in _hexes(hexmap, [name]):
            control[h] = side
    unit_list = []
    for side, entries in units.items():
        for entry in entries:
            for h in _hexes(hexmap, [entry["hex"]]):
                unit_list.append(
                    pm.Unit(entry["id"], side, entry["kind"], h, int(entry.get("level", 0)))
                )
    pockets = tuple(
        pm.NonGroundPocket(p["side"], tuple(_hexes(hexmap, p["hexes"])), p.get("label", "1"))
        for p in state.non_ground
    )
    return pm.Board(
        map=hexmap,
        sides=sides(campaign),
        control=control,
        units=tuple(unit_list),
        non_ground_pockets=pockets,
    )


def markers(state: PerimeterState, hexmap: HexMap) -> list[pm.Marker]:
    found = []
    for entry in state.markers:
        try:
            found.append(
                pm.Marker(
                    entry["side"],
                    hexmap.hex(entry["hex"]),
                    hexmap.hex(entry["target"]),
                    hexmap.hex(entry["via"]) if entry.get("via") else None,
                    kind=entry.get("kind", pm.MAIN),
                )
            )
        except HexError:
            continue
    return found


def left_the_map(state: PerimeterState) -> set[tuple[str, str]]:
    """(side, unit id) of the units that escaped or were eliminated escaping (11.6064)."""
    return {(e["side"], unit) for e in state.escapes for unit in e.get("left", [])}


@dataclass(frozen=True)
class Computation:
    hexmap: HexMap
    board: pm.Board
    result: pm.Result
    before_escapes: pm.Result


def compute(
    viewer: Viewer | None, state: PerimeterState, terrain: MapTerrain | None, rows: dict
) -> Computation:
    """The whole computation as this viewer may see it (declared units, plus the sides it may
    see); ``viewer`` None is the public view."""
    campaign = state.campaign
    hexmap = hex_map(campaign, terrain)
    the_board = board(campaign, state, hexmap, visible_units(viewer, rows))
    placed = markers(state, hexmap)
    first = pm.evaluate(the_board, placed)
    gone = left_the_map(state)
    if not gone:
        return Computation(hexmap, the_board, first, first)
    after = pm.after_escapes(the_board, [u for u in the_board.units if (u.side, u.id) in gone])
    return Computation(hexmap, after, pm.evaluate(after, placed), first)


# --- changes -------------------------------------------------------------------------------------


def _check_version(obj: Any, version: int) -> None:
    if obj.version != version:
        raise StaleEdit


def _save(
    state: PerimeterState,
    by: AbstractBaseUser,
    action: str,
    version: int,
    fields: dict[str, Any],
    *,
    visibility: str = PUBLIC,
    **data: Any,
) -> None:
    state = PerimeterState.objects.select_for_update(of=("self",)).get(pk=state.pk)
    _check_version(state, version)
    before = history.snapshot(state)
    for name, value in fields.items():
        setattr(state, name, value)
    state.version += 1
    state.save()
    history.record_change(
        state.campaign,
        by,
        action,
        visibility=visibility,
        changes=[(state, before, history.snapshot(state))],
        index=state.index,
        **data,
    )


def parse_hexes(hexmap: HexMap, text: str) -> list[str]:
    try:
        hexes = hexmap.parse_list(text)
    except HexError as error:
        message = _("“%(text)s” is not a hex or hex range of this map.")
        raise StateError(message % {"text": error.text}) from None
    if not hexes:
        raise StateError(_("Name at least one hex."))
    return [hexmap.name(h) for h in hexes]


@transaction.atomic
def set_control(
    viewer: Viewer,
    state: PerimeterState,
    *,
    by: AbstractBaseUser,
    version: int,
    text: str,
    side: str,
) -> list[str]:
    """Control markers on the hexes (``side`` "" removes them). A player places and removes
    their own side's markers; the referee anyone's."""
    campaign = viewer.campaign
    hexmap = hex_map(campaign, terrain_of(campaign))
    names = parse_hexes(hexmap, text)
    if side and side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    if side and not viewer.can_act_for_side(side):
        raise StateError(_("A player places their own side's control markers."))
    control = dict(state.control)
    for name in names:
        owner = control.get(name, "")
        if not side and owner and not viewer.can_act_for_side(owner):
            raise StateError(_("Only the referee may remove the other side's control markers."))
        if side:
            control[name] = side
        else:
            control.pop(name, None)
    _save(state, by, "perimeter.control", version, {"control": control}, side=side, hexes=names)
    return names


@transaction.atomic
def set_water(
    campaign: Campaign, *, by: AbstractBaseUser, version: int, text: str, water: bool
) -> list[str]:
    """Mark (or unmark) water-obstacle hexes: map data kept for every later Refit Phase."""
    hexmap = base_map(campaign)
    names = parse_hexes(hexmap, text)
    terrain, _created = MapTerrain.objects.select_for_update(of=("self",)).get_or_create(
        campaign=campaign
    )
    _check_version(terrain, version)
    before = history.snapshot(terrain) if not _created else None
    current = [n for n in terrain.water if n not in names]
    terrain.water = current + names if water else current
    terrain.version += 1
    terrain.save()
    history.record_change(
        campaign,
        by,
        "perimeter.water",
        visibility=PUBLIC,
        changes=[(terrain, before, history.snapshot(terrain))],
        hexes=names,
        water=water,
    )
    return names


@transaction.atomic
def set_fires(
    state: PerimeterState, *, by: AbstractBaseUser, version: int, text: str, burning: bool
) -> list[str]:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    fires = [n for n in state.fires if n not in names] + (names if burning else [])
    _save(state, by, "perimeter.fires", version, {"fires": fires}, hexes=names, burning=burning)
    return names


def _unit_row(state: PerimeterState, side: str) -> PerimeterUnits:
    row, _created = PerimeterUnits.objects.select_for_update(of=("self",)).get_or_create(
        state=state, side=side, defaults={"campaign": state.campaign}
    )
    return row


def _save_units(
    state: PerimeterState,
    row: PerimeterUnits,
    by: AbstractBaseUser,
    version: int,
    action: str,
    fields: dict[str, Any],
    **data: Any,
) -> None:
    _check_version(row, version)
    # Secret to the side until declared; the declaring itself is public.
    visibility = PUBLIC if row.declared or fields.get("declared") else row.side
    before = history.snapshot(row)
    for name, value in fields.items():
        setattr(row, name, value)
    row.version += 1
    row.save()
    history.record_change(
        state.campaign,
        by,
        action,
        visibility=visibility,
        changes=[(row, before, history.snapshot(row))],
        side=row.side,
        index=state.index,
        **data,
    )


@transaction.atomic
def add_units(
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    text: str,
    kind: str,
    label: str,
    level: int,
) -> list[str]:
    if kind not in KINDS:
        raise StateError(_("Choose what kind of unit it is."))
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    row = _unit_row(state, side)
    label = (
        label.strip()
        or {
            pm.MMC: "MMC",
            pm.VEHICLE: "AFV",
            pm.SMC: "SMC",
            pm.TRUCK: "truck",
        }[kind]
    )
    taken = {u["id"] for u in row.units}
    units = list(row.units)
    for name in names:
        unit_id = f"{label} {name}" if f"{label} {name}" not in taken else f"{label} {name}'"
        taken.add(unit_id)
        units.append({"id": unit_id, "kind": kind, "hex": name, "level": level})
    _save_units(state, row, by, version, "perimeter.units", {"units": units}, hexes=names)
    return names


@transaction.atomic
def remove_units(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, text: str
) -> list[str]:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    row = _unit_row(state, side)
    units = [u for u in row.units if u["hex"] not in names]
    _save_units(state, row, by, version, "perimeter.units_removed", {"units": units}, hexes=names)
    return names


@transaction.atomic
def declare_units(state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int) -> None:
    """Make the side's entered units public (they are on the map; hidden ones are not entered)."""
    row = _unit_row(state, side)
    if row.declared:
        raise StateError(_("These units are already declared."))
    _save_units(state, row, by, version, "perimeter.declared", {"declared": True})


def marker_entry(
    hexmap: HexMap, side: str, origin: str, via: str, target: str, kind: str
) -> dict[str, Any]:
    try:
        entry = {
            "side": side,
            "hex": hexmap.name(hexmap.hex(origin)),
            "via": hexmap.name(hexmap.hex(via)) if via.strip() else "",
            "target": hexmap.name(hexmap.hex(target)),
            "kind": kind if kind in (pm.MAIN, pm.POCKET) else pm.MAIN,
        }
    except HexError as error:
        raise StateError(_("“%(text)s” is not a hex of this map.") % {"text": error.text}) from None
    return entry


@transaction.atomic
def add_marker(
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    origin: str,
    via: str,
    target: str,
    kind: str,
) -> dict[str, Any]:
    """Place a marker even when illegal: the page says why at once and the players fix it."""
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    entry = marker_entry(hexmap, side, origin, via, target, kind)
    if entry in state.markers:
        raise StateError(_("That marker is already placed."))
    _save(
        state,
        by,
        "perimeter.marker_added",
        version,
        {"markers": [*state.markers, entry]},
        side=side,
        marker=notation(entry),
    )
    return entry


def notation(entry: dict[str, Any]) -> str:
    """ "G42 – H41 → J41" as the rules write it."""
    start = f"{entry['hex']} – {entry['via']}" if entry.get("via") else entry["hex"]
    return f"{start} → {entry['target']}"


@transaction.atomic
def remove_marker(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, position: int
) -> None:
    entries = list(state.markers)
    if not 0 <= position < len(entries) or entries[position]["side"] != side:
        raise StateError(_("That marker is not there any more."))
    removed = entries.pop(position)
    _save(
        state,
        by,
        "perimeter.marker_removed",
        version,
        {"markers": entries},
        side=side,
        marker=notation(removed),
    )


@transaction.atomic
def propose_markers(
    viewer: Viewer, state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int
) -> int:
    """Replace the side's 11.6054 markers by a proposal (pocket markers stay)."""
    campaign = viewer.campaign
    hexmap = hex_map(campaign, terrain_of(campaign))
    rows = unit_rows(state)
    the_board = board(campaign, state, hexmap, visible_units(viewer, rows))
    proposal = pm.propose(the_board, side)
    kept = [m for m in state.markers if m["side"] != side or m.get("kind") == pm.POCKET]
    entries = [
        {
            "side": side,
            "hex": hexmap.name(m.hex),
            "via": hexmap.name(m.via) if m.via else "",
            "target": hexmap.name(m.target),
            "kind": pm.MAIN,
        }
        for m in proposal
        if m.target is not None
    ]
    _save(
        state,
        by,
        "perimeter.proposed",
        version,
        {"markers": kept + entries},
        side=side,
        count=len(entries),
    )
    return len(entries)


@transaction.atomic
def add_non_ground_pocket(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, text: str, label: str
) -> None:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    entry = {"side": side, "hexes": names, "label": label.strip() or "1"}
    _save(
        state,
        by,
        "perimeter.pocket_added",
        version,
        {"non_ground": [*state.non_ground, entry]},
        side=side,
        hexes=names,
    )


@transaction.atomic
def remove_non_ground_pocket(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, position: int
) -> None:
    entries = list(state.non_ground)
    if not 0 <= position < len(entries) or entries[position]["side"] != side:
        raise StateError(_("That pocket is not there any more."))
    removed = entries.pop(position)
    _save(
        state,
        by,
        "perimeter.pocket_removed",
        version,
        {"non_ground": entries},
        side=side,
        hexes=removed["hexes"],
    )


def escape_table(campaign: Campaign) -> Any:
    prefix = "rf" if campaign.module == "red_factories" else "sap"
    return campaign.game.dice_table(f"{prefix}.escape")


@transaction.atomic
def roll_escape(
    viewer: Viewer,
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    unit_ids: list[str],
    attempt: dict[str, Any],
) -> dict[str, Any]:
    """One Escape DR for a stack (or an AFV) of the side's isolated units (11.6063–.6064).
    Public, like the isolation itself. The roll is made once: the form's version guards it."""
    campaign = viewer.campaign
    locked = PerimeterState.objects.select_for_update(of=("self",)).get(pk=state.pk)
    _check_version(locked, version)
    computation = compute(viewer, locked, terrain_of(campaign), unit_rows(locked))
    result = computation.result
    isolated = result.isolated
    units = [
        u
        for u in computation.board.units
        if u.side == side and u.id in unit_ids and u.hex in isolated
    ]
    if not units or len(units) != len(set(unit_ids)):
        raise StateError(_("Choose isolated units of that side to escape."))
    if len({u.hex for u in units}) > 1:
        raise StateError(_("A stack escapes from one Location."))
    afv = bool(attempt.get("afv"))
    if afv and (len(units) != 1 or units[0].kind != pm.VEHICLE):
        raise StateError(_("An AFV rolls alone."))
    facts = pm.EscapeAttempt(
        units=tuple(units),
        afv=afv,
        leader_drm=int(attempt.get("leader_drm", 0)),
        hs_equivalents=int(attempt.get("hs_equivalents", 1)),
        pp_over_ipc=int(attempt.get("pp_over_ipc", 0)),
        encircled=bool(attempt.get("encircled")),
        captured_afv=bool(attempt.get("captured_afv")),
        wounded=bool(attempt.get("wounded")),
    )
    table = escape_table(campaign)
    ids = pm.ESCAPE_DRMS[campaign.module]
    reasons = {m["id"]: m.get("when", {}) for m in _table_modifiers(campaign, table.id)}
    modifiers = [
        replace(drm, reason=_drm_reason(reasons.get(ids[drm.id]), drm.id), id=ids[drm.id])
        for drm in pm.escape_modifiers(result, facts)
    ]
    step = history.refit_step(state.reph, ESCAPE_RULE, side) if state.reph else nullcontext()
    with step:
        dice_roll = dice.roll(
            campaign,
            by=by,
            kind="DR",
            step=ESCAPE_RULE,
            index=state.index,
            side=side,
            visibility=PUBLIC,
            modifiers=modifiers,
            table=table,
            note=", ".join(u.id for u in units),
        )
    outcome = pm.escape_outcome(dice_roll.original, dice_roll.result, afv)
    left = [u.id for u in units] if (outcome.escaped or outcome.eliminated) else []
    entry = {
        "side": side,
        "units": [u.id for u in units],
        "roll": dice_roll.pk,
        "original": dice_roll.original,
        "final": dice_roll.final,
        "escaped": outcome.escaped,
        "eliminated": outcome.eliminated,
        "abandoned": outcome.abandoned,
        "replaced": outcome.replaced,
        "casualty_reduced": outcome.casualty_reduced,
        "heat_of_battle": outcome.heat_of_battle,
        "left": left,
    }
    _save(
        locked,
        by,
        "perimeter.escape",
        version,
        {"escapes": [*locked.escapes, entry]},
        side=side,
        units=entry["units"],
        final=dice_roll.final,
        outcome=outcome_key(entry),
    )
    return entry


def _table_modifiers(campaign: Campaign, table_id: str) -> list[dict]:
    for table in campaign.game.files.get("tables", {}).get("dice_tables", []):
        if table.get("id") == table_id:
            return list(table.get("modifiers", []))
    return []


def _drm_reason(when: Any, what: str) -> LocalizedText | str:
    """The table's words for an escape DRM (the rule is added when it is logged)."""
    if isinstance(when, dict) and when.get("en"):
        return LocalizedText(en=when["en"], ja=when.get("ja", ""))
    return what


def outcome_key(entry: dict[str, Any]) -> str:
    if entry.get("eliminated"):
        return "eliminated"
    if entry.get("abandoned"):
        return "abandoned"
    return "escaped"


@transaction.atomic
def record(viewer: Viewer, state: PerimeterState, *, by: AbstractBaseUser, version: int) -> None:
    """Keep this Refit Phase's perimeter (public: declared units only) in the campaign history;
    its resulting control is where the next Refit Phase starts."""
    computation = compute(None, state, terrain_of(viewer.campaign), unit_rows(state))
    snapshot = public_snapshot(computation)
    _save(state, by, "perimeter.recorded", version, {"recorded": snapshot}, **summary(snapshot))


def public_snapshot(computation: Computation) -> dict[str, Any]:
    hexmap, result = computation.hexmap, computation.result
    return {
        "control": {hexmap.name(h): s for h, s in result.control.items()},
        "perimeter_area": {
            side: hexmap.names(r.perimeter_area) for side, r in result.sides.items()
        },
        "front_line": {side: hexmap.names(r.front_line) for side, r in result.sides.items()},
        "nml": hexmap.names(result.nml),
        "isolated_areas": [
            {"type": a.type, "hexes": hexmap.names(a.hexes), "nml": a.became_nml}
            for a in result.isolated_areas
        ],
        "ammunition_shortage": [
            {"side": u.side, "id": u.id, "hex": hexmap.name(u.hex)}
            for u in result.ammunition_shortage
        ],
        "smc_eliminated": [
            {"side": u.side, "id": u.id, "hex": hexmap.name(u.hex)} for u in result.smc_eliminated
        ],
    }


def summary(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {
        "areas": {side: len(hexes) for side, hexes in snapshot["perimeter_area"].items()},
        "types": "".join(sorted(a["type"] for a in snapshot["isolated_areas"] if not a["nml"])),
    }


# --- sentences ---------------------------------------------------------------------------------


REASONS = {
    "off_map": gettext_lazy("A hex of this marker is not on the map (%(rule)s)."),
    "no_target": gettext_lazy(
        "A marker points at another hex holding a friendly marker (%(rule)s)."
    ),
    "not_a_hexrow": gettext_lazy("Not a straight or alternate hexrow (%(rule)s)."),
    "not_anchored": gettext_lazy(
        "Not in a ground-level Location with a friendly MMC or control marker (%(rule)s)."
    ),
    "target_unmarked": gettext_lazy("%(hex)s holds no friendly perimeter marker (%(rule)s)."),
    "blocked": gettext_lazy(
        "The hexrow crosses an enemy non-SMC unit or control marker in %(hex)s (%(rule)s)."
    ),
    "overlaps": gettext_lazy("The hexrow overlaps another friendly hexrow in %(hex)s (%(rule)s)."),
    "inside_perimeter": gettext_lazy(
        "%(hex)s is already inside the Perimeter Area: a pocket may not contain it (%(rule)s)."
    ),
    "not_closed": gettext_lazy("Not yet part of a closed loop (%(rule)s)."),
    "required_edge": gettext_lazy(
        "The %(side)s Perimeter Area must include %(edges)s map-edge hexes (%(rule)s)."
    ),
    "strategic_outside": gettext_lazy(
        "Strategic Locations outside both Perimeter Areas keep their control: %(hexes)s "
        "(%(rule)s). The perimeters are probably not as large as they may be."
    ),
}


def reason_text(hexmap: HexMap, reason: pm.Reason) -> str:
    """A marker's refusal or a result's warning as a sentence, hexes by their names."""
    params = {
        key: hexmap.name(value) if isinstance(value, tuple) else value
        for key, value in reason.params.items()
    }
    if "hexes" in reason.params:
        params["hexes"] = ", ".join(hexmap.name(h) for h in reason.params["hexes"])
    return reason.sentence(REASONS, params)
