"""A perimeter to start from (11.6054): markers closing a loop from each friendly map-edge run
through the side's anchors. Not a rule: a help the players adjust."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from refit.rules.hexgrid import Hex, distance, hexrow
from refit.rules.perimeter.areas import enclosed
from refit.rules.perimeter.board import MAIN, Board, Marker
from refit.rules.perimeter.markers import anchored, blocking, edge_markers, marker_path


def propose(board: Board, side: str, reach: int = 24, budget: int = 1500) -> list[Marker]:
    """Markers closing a loop from each friendly edge run through the side's anchors (friendly
    infantry MMC and control markers), hugging the enemy as far as legal hexrows allow.

    A starting point for the players, not the largest area: for each edge run it walks from the
    run's end back to its start, trying the anchors in the order that turns most toward the
    enemy (both turning senses are tried and the larger area kept).
    """
    edges = edge_markers(board, side)
    blocked = blocking(board, board.enemy(side))
    anchors = [
        h
        for h in board.map.land
        if h not in blocked and anchored(board, Marker(side, h, None, kind=MAIN))
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
