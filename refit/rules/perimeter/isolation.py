"""The whole evaluation and what follows from both Perimeter Areas (11.6058–11.6062): the
required map edges, control changes and No Man's Land, isolated areas with their type A–D,
SMC eliminated outside their perimeter, Ammunition Shortage and who must or may escape."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from campaigns.games.rules import Reason
from refit.rules.hexgrid import Hex
from refit.rules.perimeter.areas import components, side_areas
from refit.rules.perimeter.board import (
    SMC,
    TRUCK,
    Board,
    IsolatedArea,
    Marker,
    Pocket,
    Result,
    SideResult,
    Unit,
)
from refit.rules.perimeter.drawing import drawn_hexsides


def evaluate(board: Board, markers: Sequence[Marker]) -> Result:
    """Everything 11.6053–11.6066 derives from the board and the players' markers."""
    per_side: dict[str, SideResult] = {}
    warnings: list[Reason] = []
    for side in board.sides:
        per_side[side] = side_areas(board, side, [m for m in markers if m.side == side])
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


def _area_type(units: Sequence[Unit]) -> tuple[str, str]:
    big_sides = {u.side for u in units if u.big}
    if len(big_sides) == 2:
        return "D", ""
    if big_sides:
        return "C", next(iter(big_sides))
    return ("B", "") if units else ("A", "")


def _isolation(board: Board, per_side: dict[str, SideResult], warnings: list[Reason]) -> Result:
    """Both sides' areas weighed against each other (11.6059–11.6062)."""
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
    for part in sorted(components(isolated - taken), key=lambda s: hexmap.sort_key(min(s))):
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
    return replace(result, drawing=drawn_hexsides(result))


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
