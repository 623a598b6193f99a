"""Perimeter determination and isolation (RF 11.605–11.6066, SaP 11.605–11.6066).

Plain Python, no Django. The board (control markers, units by side and kind, water, the
non-ground pockets the players enter by hand) and each side's perimeter markers go in; out come
the map-edge markers (11.6053), every marker's legality with the reasons (11.6054, 11.6056),
the loops and Perimeter Areas, pockets, No Man's Land, isolated areas with their type A–D
(11.606), the control changes (11.6059, 11.6062), the SMC eliminated outside their perimeter,
the units starting in Ammunition Shortage (11.6061), who must or may attempt Escape, and the
hexsides each side draws on the reduced map (11.6066).

The granularity is the hex (its ground-level Location); a unit's level only matters for the
anchor and blocking rules (they look at ground level) and for the non-ground pockets of
11.6057, which the players enter by hand. Refusals and warnings are ``Reason(code, rule,
params)``; the service turns them into sentences.

Sides are passed in the order (north/west side, south/east side): RF (german, soviet), SaP
(german, russian) — 11.6058 requires the first side's area to reach a north or west map edge
and the second's a south or east edge.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from campaigns.games.rules import Drm, Reason
from refit.rules.hexgrid import Hex, HexMap, distance, flood, hexrow

# Unit kinds. Trucks (SaP) count like SMC for pockets and area types (SaP 11.606).
MMC = "mmc"  # infantry MMC (squads, half-squads, crews)
VEHICLE = "vehicle"  # AFVs and other vehicles
SMC = "smc"
TRUCK = "truck"
UNIT_KINDS = (MMC, VEHICLE, SMC, TRUCK)
BIG = (MMC, VEHICLE)  # what makes an area Type C/D and may anchor a pocket

# Marker kinds.
EDGE = "edge"
MAIN = "main"
POCKET = "pocket"

NML = "nml"
ISOLATED = "isolated"


@dataclass(frozen=True)
class Unit:
    id: str  # what the players call it: "5-2-7 D", "T-70"
    side: str
    kind: str
    hex: Hex
    level: int = 0  # 0 ground level, 1 … upper levels, -1 cellar

    @property
    def big(self) -> bool:
        return self.kind in BIG


@dataclass(frozen=True)
class NonGroundPocket:
    """11.6057: upper levels / cellars of one building holding a side's MMC that cannot reach
    ground level. Entered by hand; ``label`` is what goes in the circle ("1", "1-2", "-1")."""

    side: str
    hexes: tuple[Hex, ...]
    label: str = "1"


@dataclass(frozen=True)
class Marker:
    side: str
    hex: Hex
    target: Hex | None  # None: an edge marker pointing off the map
    via: Hex | None = None  # the first hex of an alternate hexrow ("G42 – H41 → J41")
    kind: str = MAIN
    path: tuple[Hex, ...] = ()  # given for edge markers (the ring run); else worked out


@dataclass(frozen=True)
class Board:
    map: HexMap
    sides: tuple[str, str]
    control: Mapping[Hex, str] = field(default_factory=dict)  # control markers (11.6052)
    units: tuple[Unit, ...] = ()
    non_ground_pockets: tuple[NonGroundPocket, ...] = ()

    def enemy(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def units_at(self, h: Hex) -> list[Unit]:
        return [u for u in self.units if u.hex == h]


@dataclass(frozen=True)
class MarkerCheck:
    marker: Marker
    path: tuple[Hex, ...]
    reasons: tuple[Reason, ...]
    closed: bool = False  # part of a closed loop (main markers), or of a pocket

    @property
    def legal(self) -> bool:
        return not self.reasons


@dataclass(frozen=True)
class Pocket:
    side: str
    number: int
    kind: str  # "marked", "one_hex", "non_ground"
    hexes: frozenset[Hex]
    label: str = ""


@dataclass(frozen=True)
class IsolatedArea:
    number: int
    hexes: frozenset[Hex]
    type: str  # A, B, C, D
    pocket: Pocket | None
    occupant: str  # the side with MMC/vehicles in a Type C area, else ""
    units: tuple[Unit, ...]
    became_nml: bool = False  # a Type A/B area (11.6062): typed, then No Man's Land


@dataclass(frozen=True)
class SideResult:
    side: str
    edge_markers: tuple[Marker, ...]
    checks: tuple[MarkerCheck, ...]  # the players' markers, in the order given
    loops: tuple[frozenset[Hex], ...]
    main_area: frozenset[Hex]
    pockets: tuple[Pocket, ...]
    perimeter_area: frozenset[Hex]
    front_line: frozenset[Hex]


@dataclass(frozen=True)
class Result:
    board: Board
    sides: Mapping[str, SideResult]
    nml: frozenset[Hex]
    isolated_areas: tuple[IsolatedArea, ...]
    control: Mapping[Hex, str]  # after 11.6059 and 11.6062; hexes not listed are uncontrolled
    smc_eliminated: tuple[Unit, ...]
    ammunition_shortage: tuple[Unit, ...]
    must_escape: tuple[Unit, ...]
    may_escape: tuple[Unit, ...]
    drawing: Mapping[str, tuple[tuple[Hex, Hex], ...]]
    warnings: tuple[Reason, ...]

    def status(self, h: Hex) -> str:
        """ "nml", "isolated", a side key (non-isolated control) or "" (outside, not NML)."""
        if h in self.isolated:
            return ISOLATED
        if h in self.nml:
            return NML
        return self.control.get(h, "")

    @property
    def isolated(self) -> frozenset[Hex]:
        return frozenset().union(*(a.hexes for a in self.isolated_areas if not a.became_nml))

    def area_of(self, h: Hex) -> IsolatedArea | None:
        for area in self.isolated_areas:
            if h in area.hexes:
                return area
        return None


# --- 11.6053 map-edge markers ------------------------------------------------------------------


def edge_markers(board: Board, side: str) -> list[Marker]:
    """A marker in each friendly edge hex beside an enemy-controlled edge hex, pointing along
    the edge 'hexrow' free of enemy-controlled hexes to the marker at the run's other end; a
    lone friendly edge hex between two enemy ones points off the map."""
    enemy = board.enemy(side)
    markers: list[Marker] = []
    for ring in board.map.rings:
        n = len(ring)
        enemy_at = [board.control.get(h) == enemy for h in ring]
        if not any(enemy_at):
            continue
        start = enemy_at.index(True)
        # Walk the ring once from an enemy hex; each stretch without enemy hexes is a run.
        run: list[Hex] = []
        for step in range(1, n + 1):
            i = (start + step) % n
            if not enemy_at[i]:
                run.append(ring[i])
                continue
            markers.extend(_run_markers(board, side, run))
            run = []
    return markers


def _run_markers(board: Board, side: str, run: list[Hex]) -> list[Marker]:
    friendly = [i for i, h in enumerate(run) if board.control.get(h) == side]
    if not friendly:
        return []
    # Uncontrolled edge hexes at a run's ends belong to neither side: the markers go in the
    # outermost friendly hexes.
    run = run[friendly[0] : friendly[-1] + 1]
    if len(run) == 1:
        return [Marker(side, run[0], None, kind=EDGE, path=(run[0],))]
    path = tuple(run)
    return [
        Marker(side, run[0], run[-1], kind=EDGE, path=path),
        Marker(side, run[-1], run[0], kind=EDGE, path=tuple(reversed(path))),
    ]


# --- marker legality ---------------------------------------------------------------------------


def _anchored(board: Board, marker: Marker) -> bool:
    if board.control.get(marker.hex) == marker.side:
        return True
    kinds = (MMC,) if marker.kind == MAIN else BIG
    return any(
        u.side == marker.side and u.level == 0 and u.kind in kinds
        for u in board.units_at(marker.hex)
    )


def _blocking(board: Board, side: str) -> dict[Hex, str]:
    """Hexes an enemy 'hexrow' may not cross: own ground non-SMC units and control markers."""
    blocked: dict[Hex, str] = {h: "control" for h, s in board.control.items() if s == side}
    for u in board.units:
        if u.side == side and u.level == 0 and u.big:
            blocked.setdefault(u.hex, "unit")
    return blocked


def marker_path(marker: Marker) -> tuple[Hex, ...] | None:
    if marker.path:
        return marker.path
    if marker.target is None:
        return None
    path = hexrow(marker.hex, marker.target, marker.via)
    return tuple(path) if path is not None else None


def check_markers(
    board: Board,
    side: str,
    markers: Sequence[Marker],
    edges: Sequence[Marker],
    main_area: frozenset[Hex] = frozenset(),
) -> list[MarkerCheck]:
    """Each marker's reasons, judged in the order placed (a later 'hexrow' may not overlap an
    earlier one). Edge markers come first and are legal by construction."""
    enemy_blocks = _blocking(board, board.enemy(side))
    marker_hexes = {m.hex for m in edges} | {m.hex for m in markers}
    placed: list[tuple[Marker, tuple[Hex, ...]]] = [(m, m.path) for m in edges if m.path]
    checks = []
    for marker in markers:
        reasons: list[Reason] = []
        path = None
        if marker.hex not in board.map.land or (
            marker.target is not None and marker.target not in board.map.cells
        ):
            reasons.append(Reason("off_map", "11.605"))
        elif marker.target is None or marker.target == marker.hex:
            reasons.append(Reason("no_target", "11.6054"))
        else:
            path = marker_path(marker)
            if path is None or any(h not in board.map.cells for h in path):
                path = None
                reasons.append(Reason("not_a_hexrow", "11.605"))
        rule = "11.6054" if marker.kind == MAIN else "11.6056"
        if not reasons and not _anchored(board, marker):
            reasons.append(Reason("not_anchored", rule, {"kind": marker.kind}))
        if path is not None:
            if marker.target not in marker_hexes - {marker.hex}:
                reasons.append(Reason("target_unmarked", rule, {"hex": marker.target}))
            for h in path:
                if h in enemy_blocks:
                    reasons.append(Reason("blocked", rule, {"hex": h, "by": enemy_blocks[h]}))
                    break
            overlap = _overlap(path, placed, marker_hexes)
            if overlap is not None:
                reasons.append(Reason("overlaps", "11.6054", {"hex": overlap}))
            if not reasons:
                placed.append((marker, path))
        if marker.kind == POCKET:
            inside = next((h for h in path or (marker.hex,) if h in main_area), None)
            if inside is not None:
                reasons.append(Reason("inside_perimeter", "11.6056", {"hex": inside}))
                if placed and placed[-1][0] is marker:
                    placed.pop()
        checks.append(MarkerCheck(marker=marker, path=path or (), reasons=tuple(reasons)))
    return checks


def _overlap(
    path: tuple[Hex, ...],
    placed: Sequence[tuple[Marker, tuple[Hex, ...]]],
    marker_hexes: set[Hex],
) -> Hex | None:
    mine = set(path)
    for _other, other_path in placed:
        if set(other_path) == mine:
            continue  # the marker it faces: one 'hexrow', two markers
        for h in path:
            if h in other_path and h not in marker_hexes:
                return h
    return None


# --- loops and areas ---------------------------------------------------------------------------


def _segments(checks: Sequence[tuple[Marker, tuple[Hex, ...]]]) -> dict[frozenset, tuple]:
    """One segment per 'hexrow' (facing markers share theirs). Two marker hexes side by side
    are joined too: the loop walks from front-line hex to 'ADJACENT' front-line hex (11.605;
    SaP's example loop runs V42 → U42 between two markers pointing away from each other)."""
    segments: dict[frozenset, tuple] = {}
    joined: set[frozenset] = set()
    for marker, path in checks:
        if marker.target is None or not path:
            continue
        key = frozenset([frozenset([marker.hex, marker.target]), frozenset(path)])
        segments.setdefault(key, (marker.hex, marker.target, path))
        joined.add(frozenset([marker.hex, marker.target]))
    hexes = sorted({m.hex for m, _ in checks})
    for i, a in enumerate(hexes):
        for b in hexes[i + 1 :]:
            pair = frozenset([a, b])
            if distance(a, b) == 1 and pair not in joined:
                segments[frozenset([pair])] = (a, b, (a, b))
    return segments


def closed_segments(segments: Mapping[frozenset, tuple]) -> set[frozenset]:
    """The segments on loops: strip every segment ending in a marker no other segment
    reaches, until none is left dangling."""
    live = set(segments)
    while True:
        degree: dict[Hex, int] = {}
        for key in live:
            a, b, _ = segments[key]
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        dangling = {
            key for key in live if degree[segments[key][0]] < 2 or degree[segments[key][1]] < 2
        }
        if not dangling:
            return live
        live -= dangling


def enclosed(board: Board, barrier: frozenset[Hex] | set[Hex]) -> frozenset[Hex]:
    """The barrier and every hex it cuts off from the map edge and the water (11.605 D)."""
    if not barrier:
        return frozenset()
    hexmap = board.map
    open_cells = hexmap.cells - barrier
    seeds = [h for h in hexmap.edge_hexes | hexmap.water if h not in barrier]
    outside = flood(open_cells, seeds)
    return frozenset(hexmap.cells - outside)


def _loops(segments: Mapping[frozenset, tuple], live: set[frozenset]) -> list[frozenset[Hex]]:
    """The hexes of each loop (connected group of live segments)."""
    groups: list[set[Hex]] = []
    for key in live:
        hexes = set(segments[key][2])
        joined = [g for g in groups if g & {segments[key][0], segments[key][1]}]
        for g in joined:
            hexes |= g
            groups.remove(g)
        groups.append(hexes)
    return [frozenset(g) for g in groups]


def _components(hexes: set[Hex]) -> list[set[Hex]]:
    left = set(hexes)
    parts = []
    while left:
        part = flood(left, [next(iter(left))])
        parts.append(part)
        left -= part
    return parts


# --- the whole computation ---------------------------------------------------------------------


def evaluate(board: Board, markers: Sequence[Marker]) -> Result:
    """Everything 11.6053–11.6066 derives from the board and the players' markers."""
    per_side: dict[str, SideResult] = {}
    warnings: list[Reason] = []
    for side in board.sides:
        per_side[side] = _side_result(board, side, [m for m in markers if m.side == side])
    first, second = board.sides
    required = {first: {"N", "W"}, second: {"S", "E"}}
    for side, result in per_side.items():
        if result.main_area and not any(
            board.map.edge_sides(h) & required[side] for h in result.main_area
        ):
            warnings.append(
                Reason(
                    "required_edge",
                    "11.6058",
                    {"side": side, "edges": "/".join(sorted(required[side]))},
                )
            )
    return _isolation(board, per_side, warnings)


def _side_result(board: Board, side: str, markers: Sequence[Marker]) -> SideResult:
    edges = edge_markers(board, side)
    main_markers = [m for m in markers if m.kind != POCKET]
    main_checks = check_markers(board, side, main_markers, edges)
    legal_main = [(m, m.path) for m in edges] + [(c.marker, c.path) for c in main_checks if c.legal]
    segments = _segments(legal_main)
    live = closed_segments(segments)
    loops = _loops(segments, live)
    barrier = frozenset().union(*loops) if loops else frozenset()
    main_area = enclosed(board, barrier)
    live_paths = {frozenset(segments[key][2]) for key in live}
    main_checks = [
        replace(
            c,
            closed=frozenset(c.path) in live_paths,
            reasons=c.reasons
            if not c.legal or frozenset(c.path) in live_paths
            else (Reason("not_closed", "11.6054"),),
        )
        for c in main_checks
    ]
    pocket_markers = [m for m in markers if m.kind == POCKET]
    # Pocket 'hexrows' may not overlap the main ones either.
    pocket_checks = check_markers(
        board,
        side,
        pocket_markers,
        edges + [c.marker for c in main_checks if c.closed and c.legal],
        main_area,
    )
    pocket_checks = [replace(c, closed=c.legal) for c in pocket_checks]
    # Pocket groups: legal pocket 'hexrows' joined where they share a hex.
    groups = _components_of_paths([c.path for c in pocket_checks if c.legal])
    pockets: list[Pocket] = []
    front_line = set(barrier)
    for group in groups:
        hexes = enclosed(board, group) - main_area
        front_line |= group
        if hexes & board.map.edge_hexes:
            main_area |= hexes  # 11.6058: a pocket reaching the map edge is normal area
            continue
        pockets.append(Pocket(side, 0, "marked", frozenset(hexes)))
    for ngp in board.non_ground_pockets:
        if ngp.side == side:
            pockets.append(Pocket(side, 0, "non_ground", frozenset(ngp.hexes), ngp.label))
    covered = set(main_area).union(*(p.hexes for p in pockets))
    outside = sorted(
        {u.hex for u in board.units if u.side == side and u.big and u.hex not in covered},
        key=board.map.sort_key,
    )
    pockets += [Pocket(side, 0, "one_hex", frozenset([h])) for h in outside]
    pockets = [replace(p, number=i) for i, p in enumerate(pockets, start=1)]
    area = frozenset(main_area).union(*(p.hexes for p in pockets))
    return SideResult(
        side=side,
        edge_markers=tuple(edges),
        checks=tuple(main_checks) + tuple(pocket_checks),
        loops=tuple(loops),
        main_area=frozenset(main_area),
        pockets=tuple(pockets),
        perimeter_area=area,
        front_line=frozenset(front_line),
    )


def _components_of_paths(paths: Sequence[tuple[Hex, ...]]) -> list[frozenset[Hex]]:
    groups: list[set[Hex]] = []
    for path in paths:
        hexes = set(path)
        for g in [g for g in groups if g & hexes]:
            hexes |= g
            groups.remove(g)
        groups.append(hexes)
    return [frozenset(g) for g in groups]


def _area_type(units: Sequence[Unit]) -> tuple[str, str]:
    big_sides = {u.side for u in units if u.big}
    if len(big_sides) == 2:
        return "D", ""
    if big_sides:
        return "C", next(iter(big_sides))
    return ("B", "") if units else ("A", "")


def _isolation(board: Board, per_side: dict[str, SideResult], warnings: list[Reason]) -> Result:
    hexmap = board.map
    first, second = board.sides
    area = {side: set(per_side[side].perimeter_area) for side in board.sides}
    pocket_hexes = {side: set() for side in board.sides}
    for side in board.sides:
        for p in per_side[side].pockets:
            pocket_hexes[side] |= p.hexes
    in_both = area[first] & area[second]
    isolated = in_both | pocket_hexes[first] | pocket_hexes[second]

    # 11.6059: non-isolated hexes inside one Perimeter Area go to that side; hexes inside none
    # are No Man's Land — except Strategic Locations, which always have a controller (11.6051).
    control: dict[Hex, str] = {}
    nml: set[Hex] = set()
    strategic_outside = []
    for h in hexmap.cells:
        if h in isolated:
            if h in board.control:
                control[h] = board.control[h]
        elif h in area[first]:
            control[h] = first
        elif h in area[second]:
            control[h] = second
        elif h in board.control:
            control[h] = board.control[h]
            strategic_outside.append(h)
        else:
            nml.add(h)
    if strategic_outside:
        warnings.append(
            Reason("strategic_outside", "11.6051", {"hexes": hexmap.sorted(strategic_outside)})
        )

    # 11.606: each pocket is its own isolated area; the other isolated hexes group by adjacency.
    areas: list[tuple[frozenset[Hex], Pocket | None]] = []
    taken: set[Hex] = set()
    for side in board.sides:
        for p in per_side[side].pockets:
            hexes = p.hexes - taken
            if hexes:
                areas.append((frozenset(hexes), p))
                taken |= hexes
    for part in sorted(_components(isolated - taken), key=lambda s: hexmap.sort_key(min(s))):
        areas.append((frozenset(part), None))

    isolated_areas: list[IsolatedArea] = []
    released: dict[str, set[Hex]] = {side: set() for side in board.sides}
    for number, (hexes, pocket) in enumerate(areas, start=1):
        units = tuple(u for u in board.units if u.hex in hexes)
        kind, occupant = _area_type(units)
        if kind in ("A", "B"):
            owner = _pocket_neighbour_control(board, hexes, pocket, control, nml)
            if owner:
                # 11.6062 exception: the pocket leaves isolation and passes to that side; the
                # front line that outlined it no longer counts.
                for h in hexes:
                    control[h] = owner
                if pocket is not None and owner != pocket.side:
                    released[pocket.side] |= hexes
                continue
            for h in hexes:
                control.pop(h, None)
                nml.add(h)
            isolated_areas.append(IsolatedArea(number, hexes, kind, pocket, "", units, True))
            continue
        elif kind == "C":
            # Occupied ground levels go to the occupant; the others keep their control (an
            # upper-level pocket above a German ground level leaves it German: 11.6066 G43).
            for h in hexes:
                if any(u.hex == h and u.side == occupant and u.big and u.level == 0 for u in units):
                    control[h] = occupant
        isolated_areas.append(IsolatedArea(number, hexes, kind, pocket, occupant, units))
    isolated_areas = [replace(a, number=i) for i, a in enumerate(isolated_areas, start=1)]

    if any(released.values()):
        per_side = {
            side: replace(
                result,
                pockets=tuple(p for p in result.pockets if not p.hexes <= released[side]),
                perimeter_area=result.perimeter_area - released[side],
                front_line=result.front_line - released[side],
            )
            for side, result in per_side.items()
        }

    smc_out = tuple(
        u for u in board.units if u.kind == SMC and u.hex not in per_side[u.side].perimeter_area
    )
    gone = set(smc_out)
    shortage, must, may = [], [], []
    for a in isolated_areas:
        for u in a.units:
            if u in gone:
                continue
            if a.type in ("C", "D"):
                shortage.append(u)
            small = u.kind in (SMC, TRUCK)
            if small and (a.type == "B" or (a.type == "C" and u.side != a.occupant)):
                must.append(u)
            else:
                may.append(u)
    result = Result(
        board=board,
        sides=per_side,
        nml=frozenset(nml),
        isolated_areas=tuple(isolated_areas),
        control=control,
        smc_eliminated=smc_out,
        ammunition_shortage=tuple(shortage),
        must_escape=tuple(must),
        may_escape=tuple(may),
        drawing={},
        warnings=tuple(warnings),
    )
    return replace(result, drawing=_drawing(result))


def _pocket_neighbour_control(
    board: Board,
    hexes: frozenset[Hex],
    pocket: Pocket | None,
    control: Mapping[Hex, str],
    nml: set[Hex],
) -> str:
    """11.6062: the one side controlling every controlled Location 'ADJACENT' to a Type A/B
    pocket (NML ignored), or "". A non-ground pocket's 'ADJACENT' Locations are the ground
    levels of its hexes."""
    if pocket is None:
        return ""
    if pocket.kind == "non_ground":
        around = {board.control.get(h, "") for h in hexes} - {""}
    else:
        neighbours = {n for h in hexes for n in board.map.adjacency[h]} - hexes - nml
        around = {control.get(n, "") for n in neighbours} - {""}
    return next(iter(around)) if len(around) == 1 else ""


def _drawing(result: Result) -> dict[str, tuple[tuple[Hex, Hex], ...]]:
    """11.6066: each hexside between a friendly front-line hex and NML or a non-isolated
    enemy-controlled hex."""
    board = result.board
    isolated = result.isolated
    drawing = {}
    for side, side_result in result.sides.items():
        enemy = board.enemy(side)
        sides = []
        for h in board.map.sorted(side_result.front_line):
            for n in board.map.adjacency[h]:
                if n in result.nml or (n not in isolated and result.control.get(n) == enemy):
                    sides.append((h, n))
        drawing[side] = tuple(sides)
    return drawing


# --- 11.6063–.6065 escape ----------------------------------------------------------------------


@dataclass(frozen=True)
class EscapeAttempt:
    """One stack (or one AFV) trying to escape, with the facts the players give."""

    units: tuple[Unit, ...]
    afv: bool = False
    leader_drm: int = 0  # the (armor) leader's or hero's DRM (never for a lone SMC)
    hs_equivalents: int = 1  # half-squad equivalents making the same DR
    pp_over_ipc: int = 0
    encircled: bool = False
    captured_afv: bool = False
    wounded: bool = False  # a lone SMC that is wounded gets no −1


# The Escape Table's DRMs by what they are; each module's table names them its own way.
ESCAPE_DRMS = {
    "red_factories": {
        "leader": "leader",
        "nationality": "soviet",
        "lone_smc": "lone-smc",
        "within_2": "within-2-hexes",
        "adjacent": "adjacent",
        "extra_hs": "extra-hs",
        "over_ipc": "over-ipc",
        "encircled": "encircled",
        "captured": "captured-afv",
    },
    "slaughter_at_ponyri": {
        "leader": "leader",
        "nationality": "russian",
        "lone_smc": "lone-smc",
        "within_2": "within-2",
        "adjacent": "adjacent",
        "extra_hs": "extra-hs",
        "over_ipc": "portage",
        "encircled": "encircled",
        "captured": "captured-vehicle",
    },
}


ESCAPE_RULE = "11.6063"


def escape_modifiers(
    result: Result, attempt: EscapeAttempt, soviet_sides: Sequence[str] = ("soviet", "russian")
) -> list[Drm]:
    """The DRMs of 11.6063, each ``Drm(value, rule="11.6063", id=what)``, ``what`` a key of
    ``ESCAPE_DRMS`` (the service words the reason from the module's table). "Within 2 hexes"
    and "adjacent" both apply next to a friendly hex (spec Q26: literal reading)."""
    unit = attempt.units[0]
    side, h = unit.side, unit.hex
    found: list[tuple[str, int]] = []
    lone_smc = len(attempt.units) == 1 and unit.kind == SMC
    if attempt.leader_drm and not lone_smc:
        found.append(("leader", attempt.leader_drm))
    if side in soviet_sides and not attempt.afv:
        found.append(("nationality", -1))
    if lone_smc and not attempt.wounded:
        found.append(("lone_smc", -1))
    isolated = result.isolated
    friendly = [n for n, s in result.control.items() if s == side and n not in isolated]
    if any(distance(h, n) <= 2 for n in friendly):
        found.append(("within_2", -1))
    if any(distance(h, n) == 1 for n in friendly):
        found.append(("adjacent", -1))
    if not attempt.afv:
        if attempt.hs_equivalents > 1:
            found.append(("extra_hs", attempt.hs_equivalents - 1))
        if attempt.pp_over_ipc > 0:
            found.append(("over_ipc", attempt.pp_over_ipc))
        if attempt.encircled:
            found.append(("encircled", 2))
    if attempt.captured_afv:
        found.append(("captured", 2))
    return [Drm(value, rule=ESCAPE_RULE, id=what) for what, value in found]


@dataclass(frozen=True)
class EscapeOutcome:
    escaped: bool  # leaves the map (Retained)
    eliminated: bool
    abandoned: bool = False  # an AFV left in its hex and CA
    replaced: bool = False
    casualty_reduced: bool = False
    heat_of_battle: bool = False
    crew: str = ""  # AFV crew: escapes / eliminated


def escape_outcome(original: int, row: Mapping[str, Any], afv: bool) -> EscapeOutcome:
    """What the Escape Table row (the looked-up result of the final DR) does to the stack.
    RF's table names its flags (escapes, replaced …), SaP's (escape, replacement …) and gives
    its AFV column as text only."""
    if afv:
        cell = row["mobile_afv"]
        text = str(cell.get("en") or cell.get("text", {}).get("en", "")).lower()
        if "escapes" in cell or "abandoned" in cell:
            escaped = bool(cell.get("escapes"))
            abandoned = bool(cell.get("abandoned"))
            eliminated = bool(cell.get("destroyed"))
        else:
            escaped = text.startswith("escape")
            abandoned = text.startswith("abandoned")
            eliminated = not escaped and not abandoned
        return EscapeOutcome(
            escaped=escaped,
            eliminated=eliminated,
            abandoned=abandoned,
            crew=str(cell.get("crew", "" if escaped else "eliminated")),
        )
    cell = row["infantry"]
    escaped = bool(cell.get("escapes", cell.get("escape")))
    return EscapeOutcome(
        escaped=escaped,
        eliminated=bool(cell.get("eliminated", not escaped)),
        replaced=bool(cell.get("replaced", cell.get("replacement"))),
        casualty_reduced=bool(cell.get("casualty_reduced", cell.get("casualty_reduction"))),
        heat_of_battle=original == 2 and escaped,
    )


def after_escapes(board: Board, leaving: Iterable[Unit]) -> Board:
    """The board once the units that escaped or were eliminated have left it (11.6064); the
    evaluation of this board re-types the isolated areas (11.6065)."""
    gone = set(leaving)
    return replace(board, units=tuple(u for u in board.units if u not in gone))


# --- a proposal --------------------------------------------------------------------------------


def propose(board: Board, side: str, reach: int = 24, budget: int = 1500) -> list[Marker]:
    """Markers closing a loop from each friendly edge run through the side's anchors (friendly
    infantry MMC and control markers), hugging the enemy as far as legal hexrows allow.

    A starting point for the players, not the largest area: for each edge run it walks from the
    run's end back to its start, trying the anchors in the order that turns most toward the
    enemy (both turning senses are tried and the larger area kept).
    """
    edges = edge_markers(board, side)
    blocked = _blocking(board, board.enemy(side))
    anchors = [
        h
        for h in board.map.land
        if h not in blocked and _anchored(board, Marker(side, h, None, kind=MAIN))
    ]
    proposal: list[Marker] = []
    used: set[Hex] = set().union(*(m.path for m in edges)) if edges else set()
    for edge in edges:
        if edge.target is None or edge.path[0] != edge.hex or edge.hex > edge.target:
            continue  # one attempt per facing pair
        best: list[Marker] = []
        best_area = -1
        free = [h for h in anchors if h not in used]
        for sense in (1, -1):
            chain = _walk(board, side, edge, free, blocked, used, sense, reach, budget)
            if chain is None:
                continue
            area = len(enclosed(board, set(edge.path).union(*(marker_path(m) for m in chain))))
            if area > best_area:
                best, best_area = chain, area
        proposal += best
        for m in best:
            used |= set(marker_path(m) or ())
    return proposal


def _walk(
    board: Board,
    side: str,
    edge: Marker,
    anchors: Sequence[Hex],
    blocked: Mapping[Hex, str],
    used: set[Hex],
    sense: int,
    reach: int,
    budget: int,
) -> list[Marker] | None:
    start, goal = edge.target, edge.hex
    hexmap = board.map
    land = hexmap.land

    def heading(a: Hex, b: Hex) -> float:
        (ax, ay), (bx, by) = hexmap.centre(a), hexmap.centre(b)
        return math.atan2(by - ay, bx - ax)

    def hops(current: Hex, taken: set[Hex], markers: set[Hex]) -> list[tuple[Hex, tuple]]:
        found = []
        for target in [*anchors, goal]:
            if target == current or distance(current, target) > reach:
                continue
            if target != goal and target in taken:
                continue
            # A hexrow is a shortest chain: only neighbours one hex nearer can be its first step.
            span = distance(current, target)
            nearer = [n for n in hexmap.adjacency[current] if distance(n, target) == span - 1]
            for via in [None, *nearer] if span > 1 else [None]:
                path = hexrow(current, target, via)
                if path is None or any(h not in land or h in blocked for h in path):
                    continue
                if any(h in taken and h not in markers for h in path[1:-1]):
                    continue
                found.append((target, tuple(path)))
        return found

    expansions = 0
    previous_heading = heading(edge.path[-2], start) if len(edge.path) > 1 else 0.0
    stack = [(start, previous_heading, [], set(used) - {start, goal}, {start, goal})]
    while stack and expansions < budget:
        current, last, chain, taken, markers = stack.pop()
        expansions += 1
        options = []
        for target, path in hops(current, taken, markers):
            if target == goal and not chain:
                continue  # straight back along the edge encloses nothing
            turn = (heading(current, target) - last + math.pi) % (2 * math.pi) - math.pi
            options.append((sense * turn, target, path))
        # The most preferred option is pushed last, so tried first.
        for _, target, path in sorted(options, key=lambda o: (o[0], o[1])):
            via = path[1] if hexrow(current, target) != list(path) else None
            marker = Marker(side, current, target, via)
            if target == goal:
                return _as_placed(side, [*chain, marker])
            stack.append(
                (
                    target,
                    heading(current, target),
                    [*chain, marker],
                    taken | set(path),
                    markers | {target},
                )
            )
    return None


def _as_placed(side: str, chain: list[Marker]) -> list[Marker]:
    """The walk went edge end → anchors → edge start; each marker must point at a hex already
    holding a marker, so all but the last are turned round (n1 → end, n2 → n1 …)."""
    placed = []
    for hop in chain[:-1]:
        path = marker_path(hop) or ()
        reverse = tuple(reversed(path))
        via = reverse[1] if hop.via is not None and len(reverse) > 2 else None
        placed.append(Marker(side, hop.target, hop.hex, via))
    placed.append(chain[-1])
    return placed
