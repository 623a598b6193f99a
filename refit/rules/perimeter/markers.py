"""The perimeter markers (11.6053–11.6056): the map-edge markers, each placed marker's legality
with the reasons, the 'hexrows' between markers and the loops they close."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from campaigns.games.rules import Reason
from refit.rules.hexgrid import Hex, hexrow, ring_around
from refit.rules.perimeter.board import BIG, EDGE, MAIN, MMC, POCKET, Board, Marker, MarkerCheck

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


def anchored(board: Board, marker: Marker) -> bool:
    if board.control.get(marker.hex) == marker.side:
        return True
    kinds = (MMC,) if marker.kind == MAIN else BIG
    return any(
        u.side == marker.side and u.level == 0 and u.kind in kinds
        for u in board.units_at(marker.hex)
    )


def blocking(board: Board, side: str) -> dict[Hex, str]:
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
    enemy_blocks = blocking(board, board.enemy(side))
    marker_hexes = {m.hex for m in edges} | {m.hex for m in markers}
    placed: list[tuple[Marker, tuple[Hex, ...]]] = []
    index: dict[Hex, list[int]] = {}
    for m in edges:
        if m.path:
            _place(placed, index, m, m.path)
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
        if not reasons and not anchored(board, marker):
            reasons.append(Reason("not_anchored", rule, {"kind": marker.kind}))
        if path is not None:
            if marker.target not in marker_hexes - {marker.hex}:
                reasons.append(Reason("target_unmarked", rule, {"hex": marker.target}))
            for h in path:
                if h in enemy_blocks:
                    reasons.append(Reason("blocked", rule, {"hex": h, "by": enemy_blocks[h]}))
                    break
            overlap = _overlap(path, placed, marker_hexes, index)
            if overlap is not None:
                reasons.append(Reason("overlaps", "11.6054", {"hex": overlap}))
            if not reasons:
                _place(placed, index, marker, path)
        if marker.kind == POCKET:
            inside = next((h for h in path or (marker.hex,) if h in main_area), None)
            if inside is not None:
                reasons.append(Reason("inside_perimeter", "11.6056", {"hex": inside}))
                if placed and placed[-1][0] is marker:
                    for h in placed.pop()[1]:
                        index[h].pop()
        checks.append(MarkerCheck(marker=marker, path=path or (), reasons=tuple(reasons)))
    return checks


def _place(
    placed: list[tuple[Marker, tuple[Hex, ...]]],
    index: dict[Hex, list[int]],
    marker: Marker,
    path: tuple[Hex, ...],
) -> None:
    for h in path:
        index.setdefault(h, []).append(len(placed))
    placed.append((marker, path))


def _overlap(
    path: tuple[Hex, ...],
    placed: Sequence[tuple[Marker, tuple[Hex, ...]]],
    marker_hexes: set[Hex],
    index: dict[Hex, list[int]] | None = None,
) -> Hex | None:
    """The first hex of ``path`` on an earlier 'hexrow' (the earliest such 'hexrow'), marker
    hexes aside. ``index`` lists, for each hex, the positions in ``placed`` of the 'hexrows'
    through it."""
    if index is None:
        index = {}
        for position, (_other, other_path) in enumerate(placed):
            for h in other_path:
                index.setdefault(h, []).append(position)
    mine = frozenset(path)
    first: int | None = None
    for h in path:
        if h in marker_hexes:
            continue
        for position in index.get(h, ()):
            if (first is None or position < first) and frozenset(placed[position][1]) != mine:
                first = position  # not the marker it faces: one 'hexrow', two markers
    if first is None:
        return None
    other = set(placed[first][1])
    return next(h for h in path if h in other and h not in marker_hexes)


# --- 'hexrows' and loops -----------------------------------------------------------------------


def hexrow_segments(checks: Sequence[tuple[Marker, tuple[Hex, ...]]]) -> dict[frozenset, tuple]:
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
    hexes = {m.hex for m, _ in checks}
    for a in sorted(hexes):
        for b in ring_around(a):
            pair = frozenset([a, b])
            if b > a and b in hexes and pair not in joined:
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


def loops_of(segments: Mapping[frozenset, tuple], live: set[frozenset]) -> list[frozenset[Hex]]:
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
