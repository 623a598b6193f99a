"""The perimeter of the open Refit Phase as the rules read it (RF/SaP 11.605–11.6066): its map
(with the campaign's water), its board and markers, and the computation as a viewer may see it.
Reads only; the changes are in ``changes``, ``escapes`` and ``record``.

Secrecy: control, fires, water, markers, non-ground pockets, escapes and the computed areas are
public (the rules make perimeters public). Each side's unit positions are secret to that side and
the referee until the side declares them; the public computation uses declared units only, a
side's own view adds its undeclared ones, the referee's view uses all.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.compiled import CompiledQuery
from campaigns.games import step_engine
from campaigns.models import Campaign, RefitPhase
from campaigns.oid import from_oid, oid
from campaigns.periods import day_label
from campaigns.state import StateError
from refit.models import MapTerrain, PerimeterState, PerimeterUnits
from refit.perimeters import scenario_records
from refit.rules.hexgrid import Hex, HexError, HexMap
from refit.rules.perimeter import escapes, initial, isolation, non_ground
from refit.rules.perimeter.board import MAIN, Board, Marker, NonGroundPocket, Result, Unit
from refit.walker import services as walker


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


# The text of a map's data (the key of the caches above and below) by the data itself: the
# loaded game data is one object per process (``campaigns.games.registry.all_modules``), so its
# text is written once, not on every request (~1 ms for a whole map). The entry holds the data
# object and is used only for that very object (``is``): data loaded anew is a new entry.
_DATA_TEXT: dict[int, tuple[Any, str]] = {}
_DATA_TEXT_LOCK = threading.Lock()


def _data_text(data: Any) -> str:
    found = _DATA_TEXT.get(id(data))
    if found is not None and found[0] is data:
        return found[1]
    text = json.dumps(data, sort_keys=True)
    with _DATA_TEXT_LOCK:
        while len(_DATA_TEXT) >= 32:
            del _DATA_TEXT[next(iter(_DATA_TEXT))]
        _DATA_TEXT[id(data)] = (data, text)
    return text


def base_map(campaign: Campaign) -> HexMap:
    key = map_key(campaign)
    data = campaign.game.files["maps"]["maps"][key]
    return _base_map(campaign.module, key, _data_text(data))


def hex_map(campaign: Campaign, terrain: MapTerrain | None) -> HexMap:
    hexmap = base_map(campaign)
    if terrain is None or not terrain.water:
        return hexmap
    return hexmap.with_water(known_hexes(hexmap, terrain.water))


def known_hexes(hexmap: HexMap, names: list[str]) -> list[Hex]:
    """The hexes of these names that the map has (a name the configured map no longer has is
    left out: stored names outlive a change of the map data)."""
    found = []
    for name in names:
        try:
            found.append(hexmap.hex(name))
        except HexError:
            continue
    return found


def parse_hexes(hexmap: HexMap, text: str) -> list[str]:
    """The names of the hexes a player typed ("H41 G42-G45"), or a StateError naming the part
    that is not a hex of this map."""
    try:
        hexes = hexmap.parse_list(text)
    except HexError as error:
        message = _("“%(text)s” is not a hex or hex range of this map.")
        raise StateError(message % {"text": error.text}) from None
    if not hexes:
        raise StateError(_("Name at least one hex."))
    return [hexmap.name(h) for h in hexes]


def sides(campaign: Campaign) -> tuple[str, str]:
    keys = campaign.game.side_keys
    return (keys[0], keys[1])


# --- the state of the open Refit Phase ---------------------------------------------------------


# The page's reads, each compiled once (campaigns.compiled: the ORM's compiling of a query
# cost more than SQLite's answer). Each row's campaign is the campaign asked for (set below).
_terrain = CompiledQuery(
    lambda campaign_id: MapTerrain.objects.filter(campaign_id=campaign_id).order_by("pk")[:1], 1
)
# At most one open Refit Phase per campaign (a constraint): no order needed.
_open_reph = CompiledQuery(
    lambda campaign_id: RefitPhase.objects.filter(
        campaign_id=campaign_id, finished_at__isnull=True
    ).order_by("pk")[:1],
    1,
)
_state_of_reph = CompiledQuery(
    lambda campaign_id, reph_id: PerimeterState.objects.filter(
        campaign_id=campaign_id, reph_id=reph_id
    ).order_by("pk")[:1],
    2,
)
_last_state = CompiledQuery(
    lambda campaign_id: PerimeterState.objects.filter(campaign_id=campaign_id).order_by("-id")[:1],
    1,
)
_last_state_but = CompiledQuery(
    lambda campaign_id, reph_id: (
        PerimeterState.objects.filter(campaign_id=campaign_id)
        .exclude(reph_id=reph_id)
        .order_by("-id")[:1]
    ),
    2,
)


def _first_of(rows: list, campaign: Campaign) -> Any:
    for row in rows:
        row.campaign = campaign
        return row
    return None


def terrain_of(campaign: Campaign) -> MapTerrain | None:
    return _first_of(_terrain(campaign.pk), campaign)


def peek_reph(campaign: Campaign) -> RefitPhase | None:
    """The open Refit Phase without opening one (a GET never writes): the open row, or — for a
    campaign that has none yet — an unsaved one at the first position."""
    if not walker.has_refit(campaign):
        return None
    reph = _first_of(_open_reph(campaign.pk), campaign)
    if reph is None and not campaign.rephs.exists():
        first = step_engine.first_position(campaign.module)
        return RefitPhase(campaign=campaign, kind=first.kind, index=first.index)
    return reph


def current_state(campaign: Campaign) -> PerimeterState | None:
    """The perimeter of the open Refit Phase, started (and saved) from the last one's resulting
    control and the scenario's recorded control changes. Only a change calls this: a reader
    uses ``open_state``, which writes nothing."""
    reph = walker.open_reph(campaign)
    if reph is None:
        return None
    state = PerimeterState.objects.filter(campaign=campaign, reph=reph).first()
    if state is not None:
        return state
    return _start(campaign, reph)


def open_state(
    campaign: Campaign,
) -> tuple[PerimeterState, dict[str, PerimeterUnits]] | None:
    """The open Refit Phase's perimeter and unit rows as a reader sees them, written nowhere:
    the saved ones, or — before the first change — the start ``_start`` would save, unsaved."""
    reph = peek_reph(campaign)
    if reph is None:
        return None
    if reph.pk is not None:
        state = _first_of(_state_of_reph(campaign.pk, reph.pk), campaign)
        if state is not None:
            state.reph = reph
            return state, unit_rows(state)
    start = _starting(campaign, reph)
    state = PerimeterState(
        campaign=campaign,
        reph=reph if reph.pk is not None else None,
        index=reph.index,
        control=start.control,
        markers=start.markers,
    )
    rows = {
        side: PerimeterUnits(campaign=campaign, side=side, units=units)
        for side, units in start.units.items()
    }
    return state, rows


def shown_state(campaign: Campaign) -> PerimeterState | None:
    """The perimeter a reader is shown outside the step (the reduced-map PDF): the open Refit
    Phase's if it has one, else the last one. Never creates one: viewing never writes."""
    reph = peek_reph(campaign)
    if reph is not None and reph.pk is not None:
        state = PerimeterState.objects.filter(campaign=campaign, reph=reph).first()
        if state is not None:
            return state
    last = PerimeterState.objects.filter(campaign=campaign).order_by("-id").first()
    if last is None and reph is not None:
        # Nothing yet: the start the step would make, unsaved.
        return PerimeterState(
            campaign=campaign,
            reph=reph if reph.pk is not None else None,
            index=reph.index,
            control=initial_control(campaign),
        )
    return last


def past_state(campaign: Campaign, token: str = "") -> PerimeterState | None:
    """Once no Refit Phase is open (the CG is over): the recorded perimeter ``token`` (an oid)
    names, else the last one; None when the campaign has none. Public, like every perimeter."""
    states = PerimeterState.objects.filter(campaign=campaign).select_related("reph")
    if token:
        try:
            return states.filter(pk=from_oid(token)).first()
        except ValueError:
            return None
    return states.order_by("-id").first()


@dataclass(frozen=True)
class PastPerimeter:
    """One Refit Phase's perimeter in the history the page lists after the CG's end."""

    token: str
    day: str
    kind: str
    recorded: bool
    current: bool


def history(campaign: Campaign, shown: PerimeterState) -> list[PastPerimeter]:
    """Every perimeter of the campaign, one per Refit Phase, in play order: one query."""
    rows = (
        PerimeterState.objects.filter(campaign=campaign)
        .order_by("index", "id")
        .values_list("pk", "index", "reph__kind", "recorded")
    )
    return [
        PastPerimeter(
            oid(pk), day_label(campaign, index), kind or "", bool(recorded), pk == shown.pk
        )
        for pk, index, kind, recorded in rows
    ]


@dataclass(frozen=True)
class Start:
    control: dict[str, str]
    markers: list[dict]
    units: dict[str, list[dict]]  # each side's unit positions carried (secret until declared)


def _starting(campaign: Campaign, reph: RefitPhase) -> Start:
    """What a Refit Phase's perimeter starts from: the last perimeter's recorded control (else
    what was entered), changed by the control records of the scenarios played since, the
    markers still legal on that, and each side's unit positions. The campaign's first starts
    from the CG's initial SSRs (``maps.json`` ``initial_control``) and the scenarios before."""
    if reph.pk is not None:
        previous = _first_of(_last_state_but(campaign.pk, reph.pk), campaign)
    else:
        previous = _first_of(_last_state(campaign.pk), campaign)
    if previous is not None:
        control = dict(previous.recorded.get("control") or previous.control)
    else:
        control = initial_control(campaign)
    played = scenario_records.played_between(campaign, previous, reph)
    control = scenario_records.applied(control, played)
    if previous is None:
        return Start(control, [], {})
    return Start(
        control,
        _still_legal(campaign, previous, control),
        {row.side: list(row.units) for row in previous.unit_rows.all() if row.units},
    )


def _start(campaign: Campaign, reph: RefitPhase) -> PerimeterState:
    """Save the start ``_starting`` works out (before the short write transaction)."""
    start = _starting(campaign, reph)
    with transaction.atomic():
        state, created = PerimeterState.objects.get_or_create(
            campaign=campaign,
            reph=reph,
            defaults={"index": reph.index, "control": start.control, "markers": start.markers},
        )
        if created:
            PerimeterUnits.objects.bulk_create(
                PerimeterUnits(campaign=campaign, state=state, side=side, units=units)
                for side, units in start.units.items()
            )
    return state


def initial_control(campaign: Campaign) -> dict[str, str]:
    """{hex name: side} at the CG start from its initial SSRs, or {} where the data gives none
    (the referee enters it). A copy of the one kept per process (a dict copied from a dict:
    ~20 µs for a whole map, ~0.2 ms from the pairs)."""
    spec = campaign.game.files["maps"].get("initial_control", {}).get(campaign.campaign_game)
    if not spec:
        return {}
    key = map_key(campaign)
    data = campaign.game.files["maps"]["maps"][key]
    return _initial_dict(campaign.module, key, _data_text(data), _data_text(spec)).copy()


@lru_cache(maxsize=16)
def _initial_dict(module: str, key: str, data_json: str, spec_json: str) -> dict[str, str]:
    """``_initial_control`` as a dict, never handed out: ``initial_control`` copies it."""
    return dict(_initial_control(module, key, data_json, spec_json))


def has_initial_control(campaign: Campaign) -> bool:
    """Whether the data give the CG's initial control (``initial_control`` not empty)."""
    return bool(_initial_pairs(campaign))


def _initial_pairs(campaign: Campaign) -> tuple[tuple[str, str], ...]:
    spec = campaign.game.files["maps"].get("initial_control", {}).get(campaign.campaign_game)
    if not spec:
        return ()
    key = map_key(campaign)
    data = campaign.game.files["maps"]["maps"][key]
    return _initial_control(campaign.module, key, _data_text(data), _data_text(spec))


@lru_cache(maxsize=16)
def _initial_control(
    module: str, key: str, data_json: str, spec_json: str
) -> tuple[tuple[str, str], ...]:
    """Worked out once per process and campaign game (a whole map's hexes: ~10 ms)."""
    hexmap = _base_map(module, key, data_json)
    try:
        found = initial.initial_control(hexmap, json.loads(spec_json))
    except HexError:
        return ()  # the data does not fit the configured grid: nothing rather than a guess
    return tuple((hexmap.name(h), side) for h, side in found.items())


def _still_legal(campaign: Campaign, previous: PerimeterState, control: dict) -> list[dict]:
    """The previous markers that pass every check on the carried control but the closing of
    the loop (units are entered anew, so only control and the map can refuse one)."""
    terrain = terrain_of(campaign)
    hexmap = hex_map(campaign, terrain)
    carried = PerimeterState(campaign=campaign, index=previous.index, control=control)
    the_board = board(campaign, carried, hexmap, {})
    placed = markers(previous, hexmap)
    result = isolation.evaluate(the_board, placed)
    legal = {
        (c.marker.side, c.marker.hex, c.marker.target, c.marker.via, c.marker.kind)
        for side in result.sides.values()
        for c in side.checks
        if all(r.code == "not_closed" for r in c.reasons)  # a loop the changes opened is kept
    }
    return [
        entry
        for entry, m in zip(
            previous.markers, _entries_as_markers(previous.markers, hexmap), strict=True
        )
        if m is not None and (m.side, m.hex, m.target, m.via, m.kind) in legal
    ]


def _entries_as_markers(entries: list[dict], hexmap: HexMap) -> list[Marker | None]:
    found: list[Marker | None] = []
    for entry in entries:
        try:
            found.append(
                Marker(
                    entry["side"],
                    hexmap.hex(entry["hex"]),
                    hexmap.hex(entry["target"]),
                    hexmap.hex(entry["via"]) if entry.get("via") else None,
                    kind=entry.get("kind", MAIN),
                )
            )
        except HexError:
            found.append(None)
    return found


def unit_rows(state: PerimeterState) -> dict[str, PerimeterUnits]:
    if state.pk is None:
        return {}
    return {row.side: row for row in state.unit_rows.all()}


def _may_use(viewer: Viewer | None, row: PerimeterUnits) -> bool:
    return row.declared or (viewer is not None and viewer.can_see_side(row.side))


def visible_units(viewer: Viewer | None, rows: dict[str, PerimeterUnits]) -> dict[str, list[dict]]:
    """The unit lists this viewer may use: declared ones, plus the sides it may see."""
    return {side: list(row.units) for side, row in rows.items() if _may_use(viewer, row)}


def read_versions(
    viewer: Viewer | None,
    state: PerimeterState,
    terrain: MapTerrain | None,
    rows: dict[str, PerimeterUnits],
) -> tuple[Any, ...]:
    """The versions of what a computation for this viewer reads: the state, the campaign's
    water and the unit lists it may use. A long computation runs outside the write transaction
    and writes only if these are unchanged. Another side's secret units are left out: a change
    to them must neither matter nor show."""
    used = tuple(sorted((side, row.version) for side, row in rows.items() if _may_use(viewer, row)))
    return (state.version, terrain.version if terrain else 0, used)


def board(
    campaign: Campaign,
    state: PerimeterState,
    hexmap: HexMap,
    units: dict[str, list[dict]],
) -> Board:
    control = {}
    find = hexmap.hex
    for name, side in state.control.items():  # a whole map's: known_hexes, one call
        try:
            control[find(name)] = side
        except HexError:
            continue  # a name the configured map no longer has
    unit_list = []
    for side, entries in units.items():
        for entry in entries:
            for h in known_hexes(hexmap, [entry["hex"]]):
                unit_list.append(
                    Unit(entry["id"], side, entry["kind"], h, int(entry.get("level", 0)))
                )
    entered = tuple(
        NonGroundPocket(p["side"], tuple(known_hexes(hexmap, p["hexes"])), p.get("label", "1"))
        for p in state.non_ground
    )
    # 11.6057 where the data decide it (an MMC above or below an enemy-held or burning ground
    # level); the players enter the rest.
    derived = non_ground.derived_pockets(
        control, set(known_hexes(hexmap, state.fires)), unit_list, entered
    )
    return Board(
        map=hexmap,
        sides=sides(campaign),
        control=control,
        units=tuple(unit_list),
        non_ground_pockets=entered + derived,
    )


def markers(state: PerimeterState, hexmap: HexMap) -> list[Marker]:
    return [m for m in _entries_as_markers(state.markers, hexmap) if m is not None]


def notation(entry: dict[str, Any]) -> str:
    """ "G42 – H41 → J41" as the rules write it."""
    start = f"{entry['hex']} – {entry['via']}" if entry.get("via") else entry["hex"]
    return f"{start} → {entry['target']}"


def left_the_map(state: PerimeterState) -> set[tuple[str, str]]:
    """(side, unit id) of the units that escaped or were eliminated escaping (11.6064)."""
    return {(e["side"], unit) for e in state.escapes for unit in e.get("left", [])}


@dataclass(frozen=True)
class Computation:
    hexmap: HexMap
    board: Board
    result: Result
    before_escapes: Result
    # The page's map markup drawn from this computation, by zoom and link suffix (a few kept:
    # ``refit.perimeters.views``): it reads nothing the computation's key does not hold.
    drawn: dict[tuple[Any, ...], bytes] = field(default_factory=dict, compare=False, repr=False)


# The last computations, by everything they read (``_inputs``); never by a row's id or version.
_COMPUTED: dict[tuple[Any, ...], Computation] = {}
_COMPUTED_KEPT = 16
_COMPUTED_LOCK = threading.Lock()


def _inputs(
    campaign: Campaign, state: PerimeterState, hexmap: HexMap, units: dict[str, list[dict]]
) -> tuple[Any, ...]:
    """Everything ``compute`` reads, as a key: the map (its grid and water), the sides, the
    state's control, fires, markers, non-ground pockets and escapes, and the units this
    viewer may use. The same key gives the same computation (the rules are pure functions of
    these); a viewer is only ever given a computation of its own inputs."""
    return (
        hexmap,
        sides(campaign),
        tuple(state.control.items()),
        json.dumps(
            [state.fires, state.markers, state.non_ground, state.escapes, units],
            sort_keys=True,
            default=str,
        ),
    )


def compute(
    viewer: Viewer | None, state: PerimeterState, terrain: MapTerrain | None, rows: dict
) -> Computation:
    """The whole computation as this viewer may see it (declared units, plus the sides it may
    see); ``viewer`` None is the public view. The last few are kept per process by their
    inputs (``_inputs``): a map's page read again, or by another member who may use the same
    units, is not worked out again; anything changed is a new key."""
    campaign = state.campaign
    hexmap = hex_map(campaign, terrain)
    units = visible_units(viewer, rows)
    key = _inputs(campaign, state, hexmap, units)
    found = _COMPUTED.get(key)
    if found is None:
        found = _compute(campaign, state, hexmap, units)
        with _COMPUTED_LOCK:
            while len(_COMPUTED) >= _COMPUTED_KEPT:
                del _COMPUTED[next(iter(_COMPUTED))]
            _COMPUTED[key] = found
    return found


def _compute(
    campaign: Campaign, state: PerimeterState, hexmap: HexMap, units: dict[str, list[dict]]
) -> Computation:
    the_board = board(campaign, state, hexmap, units)
    placed = markers(state, hexmap)
    first = isolation.evaluate(the_board, placed)
    gone = left_the_map(state)
    if not gone:
        return Computation(hexmap, the_board, first, first)
    after = escapes.after_escapes(the_board, [u for u in the_board.units if (u.side, u.id) in gone])
    return Computation(hexmap, after, isolation.evaluate(after, placed), first)
