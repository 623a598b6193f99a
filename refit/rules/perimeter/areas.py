"""Each side's Perimeter Area (11.605, 11.6056–11.6058): the hexes its closed loops enclose, its
pockets (marked, one-hex and non-ground) and the front line that outlines them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from campaigns.games.rules import Reason
from refit.rules.hexgrid import Hex, flood
from refit.rules.perimeter.board import POCKET, Board, Marker, Pocket, SideResult
from refit.rules.perimeter.markers import (
    check_markers,
    closed_segments,
    edge_markers,
    hexrow_segments,
    loops_of,
)


def enclosed(board: Board, barrier: frozenset[Hex] | set[Hex]) -> frozenset[Hex]:
    """The barrier and every hex it cuts off from the map edge and the water (11.605 D).

    Only the hexes around the barrier are looked at: a hex the barrier cuts off meets the
    barrier on every straight line out of it (else that line reaches the map edge), so its
    coordinates lie inside the barrier's own range; a flood that leaves that range, or reaches
    the edge or the water, is outside. A pocket's barrier costs its own size, not the map's.
    The flood runs over the map's numbered hexes (``HexMap.numbered``), a byte per hex."""
    if not barrier:
        return frozenset()
    numbered = board.map.numbered
    number, around, qs, rs = numbered.number, numbered.around, numbered.q, numbered.r
    boundary = numbered.boundary
    q_low = min(h[0] for h in barrier)
    q_high = max(h[0] for h in barrier)
    r_low = min(h[1] for h in barrier)
    r_high = max(h[1] for h in barrier)
    s_low = min(h[0] + h[1] for h in barrier)
    s_high = max(h[0] + h[1] for h in barrier)
    # 0 not yet seen, 1 inside (the barrier and what it encloses), 2 outside, 3 being flooded
    mark = bytearray(len(qs))
    walls = [number[h] for h in barrier if h in number]
    for b in walls:
        mark[b] = 1
    inside = list(walls)
    for b in walls:
        for start in around[b]:
            if mark[start]:
                continue
            mark[start] = 3
            part = [start]
            stack = [start]
            escaped = False
            while stack:
                h = stack.pop()
                q, r = qs[h], rs[h]
                if (
                    boundary[h]
                    or not (q_low < q < q_high and r_low < r < r_high and s_low < q + r < s_high)
                    or len(around[h]) < 6
                ):
                    escaped = True
                    break
                for n in around[h]:
                    seen = mark[n]
                    if seen == 2:
                        escaped = True
                        break
                    if not seen:
                        mark[n] = 3
                        part.append(n)
                        stack.append(n)
                if escaped:
                    break
            result = 2 if escaped else 1
            for h in part:
                mark[h] = result
            if not escaped:
                inside += part
    hexes = numbered.hexes
    return frozenset(hexes[h] for h in inside)


def components(hexes: set[Hex]) -> list[set[Hex]]:
    """The hexes grouped by adjacency."""
    left = set(hexes)
    parts = []
    while left:
        part = flood(left, [next(iter(left))])
        parts.append(part)
        left -= part
    return parts


def side_areas(board: Board, side: str, markers: Sequence[Marker]) -> SideResult:
    """One side's markers judged, its loops closed, its main area and pockets (11.6054–11.6058);
    what the other side did is for ``isolation`` to weigh."""
    edges = edge_markers(board, side)
    main_markers = [m for m in markers if m.kind != POCKET]
    main_checks = check_markers(board, side, main_markers, edges)
    legal_main = [(m, m.path) for m in edges] + [(c.marker, c.path) for c in main_checks if c.legal]
    segments = hexrow_segments(legal_main)
    live = closed_segments(segments)
    loops = loops_of(segments, live)
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
