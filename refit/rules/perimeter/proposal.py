"""A perimeter to start from (11.6054): for each friendly map-edge run, markers closing a loop
from the run's end back to its start through the side's anchors, as large as the search finds,
and every marker passing the app's own checks. Not a rule: a help the players adjust.

The search works on a hop graph cast once per anchor: from each anchor the six straight and
twelve alternate hexrows are followed until they leave the land, meet an enemy-blocked hex or
run ``reach`` hexes; every anchor met on the way is a hop. The candidate loops: depth-first
walks keeping the enemy on one hand (the sharpest turn toward it tried first, each hand in
turn), the chains an exhaustive search finds within its budget (on a small map, all of
them), and the loop stepping hex by hex with the enemy on one hand, cut into hexrows (where
the enemy's units stand among the side's hexes). When none is legal, or an end of the run has
no hexrow out but over the run itself, the walks again may leave from or close on the run's
hexes beside its ends (a marker there points at the end marker beside it). Each is then
pushed outward: a hop a → b becomes a → c → b while the polygon grows by a hex or more and no
hexrow meets another. The candidates are judged with the rules' own
evaluation: a loop with an illegal or unclosed marker is never proposed; among the legal ones
the proposal keeps the one leaving the fewest friendly units (MMC, vehicles) outside, then the
largest Perimeter Area.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat

from refit.rules.hexgrid import STEPS, Hex, HexMap, add, hexrow, sub
from refit.rules.perimeter.areas import side_areas
from refit.rules.perimeter.board import MAIN, Board, Marker
from refit.rules.perimeter.markers import anchored, blocking, edge_markers

Hop = tuple[Hex, Hex | None, tuple[Hex, ...]]  # target, via (alternate hexrows), path
# A marker more is worth placing when it adds at least a hex (the shoelace sum is twice the
# polygon's area; a hex of size 1 covers 3√3/2).
SQRT3 = math.sqrt(3)
HEX_TWICE = 3 * SQRT3
MARKER_WORTH = 0.9 * HEX_TWICE
# How far the exhaustive search goes: on a small map or with few anchors it sees every
# chain; on a full map it stops there and the walks decide.
EXHAUSTIVE_BUDGET = 6000  # hexrows looked at
WALK_BUDGET = 8000  # hexrows looked at by each walk of the exhaustive kind
# No search extends a chain past this many markers, and no loop is grown past it: nobody places
# a hundred markers, and such chains are where a search wanders.
MAX_MARKERS = 60
FREE, ANCHOR = 1, 2  # what a hexrow meets (``_Graph.status``)


def propose(board: Board, side: str, reach: int = 24, budget: int = 120) -> list[Marker]:
    """Markers closing a loop from each friendly edge run through the side's anchors
    (friendly control markers and ground-level infantry MMC), largest legal area found."""
    # The search makes some hundred thousand short-lived tuples and lists, none in a cycle:
    # the cyclic collector, set off by them, would walk the map's kept hexrows (millions of
    # objects) again and again — a third of the time, and the worst cases' spikes.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _propose(board, side, reach, budget)
    finally:
        if collecting:
            gc.enable()


def _propose(board: Board, side: str, reach: int, budget: int) -> list[Marker]:
    edges = edge_markers(board, side)
    graph = _Graph(board, side, reach)
    proposal: list[Marker] = []
    used: set[Hex] = set().union(*(m.path for m in edges)) if edges else set()
    for edge in edges:
        if edge.target is None or edge.path[0] != edge.hex or edge.hex > edge.target:
            continue  # one attempt per facing pair
        best: list[Marker] = []
        best_score: tuple[int, float] | None = None
        seen_chains: set[tuple] = set()
        chains = [_walk(graph, edge, used, sense, budget) for sense in (1, -1)]
        for sense in (1, -1):
            chains += _every_chain(graph, edge, used, WALK_BUDGET, sense, first=True)
        chains += _every_chain(graph, edge, used, EXHAUSTIVE_BUDGET)
        # The loop hugging the enemy hex by hex: where the enemy's units stand among the
        # side's hexes, the searches above lose themselves among them.
        chains += [_hug(graph, edge, used, hand) for hand in (1, -1)]
        found: list[tuple[tuple[int, float], list[Hop]]] = []
        for ends in (False, True):
            if ends:
                if found and not _cornered(graph, edge, used):
                    break
                # Nothing legal found, or an end of the run with no hexrow out but over the
                # run: the walks again, leaving from or closing on the run's hexes beside
                # its ends.
                chains = [_walk(graph, edge, used, sense, budget, ends=True) for sense in (1, -1)]
            for chain in chains:
                if chain is None or tuple(chain) in seen_chains:
                    continue
                seen_chains.add(tuple(chain))
                score = _score(board, side, proposal + _as_placed(side, chain))
                if score is not None:
                    found.append((score, chain))
        # The best loop found, pushed outward or with fewer markers (kept only if the rules'
        # checks still pass and it scores better).
        found.sort(key=lambda f: f[0], reverse=True)
        for score, chain in found[:1]:
            best, best_score = _as_placed(side, chain), score
            for changed in (_grow(graph, edge, chain, used), _tidy(graph, edge, chain, used)):
                markers = _as_placed(side, changed)
                changed_score = _score(board, side, proposal + markers)
                if changed_score is not None and changed_score > best_score:
                    best, best_score = markers, changed_score
        proposal += best
        for m in best:
            used |= set(graph.path(m))
    return proposal


def _score(board: Board, side: str, markers: list[Marker]) -> tuple[int, float] | None:
    """(− friendly units left outside, area less half a hex a marker), or None when a marker
    fails the rules' checks."""
    result = side_areas(board, side, markers)
    if not all(c.legal and c.closed for c in result.checks):
        return None
    area = result.main_area
    outside = sum(
        1 for u in board.units if u.side == side and u.big and u.level == 0 and u.hex not in area
    )
    # A marker more is worth half a hex: of two loops a hex apart, the larger; of two loops
    # the same size, the one with fewer markers to place.
    return (-outside, len(area) - len(markers) / 2)


@dataclass
class _Graph:
    """The hexrows from each anchor to the anchors it reaches, cast once and kept."""

    board: Board
    side: str
    reach: int
    blocked: dict[Hex, str] = field(init=False)
    free: frozenset[Hex] = field(init=False)  # land an own hexrow may cross
    anchors: set[Hex] = field(init=False)
    status: dict[Hex, int] = field(init=False)
    _hops: dict[Hex, list[Hop]] = field(default_factory=dict, init=False)
    _into: dict[Hex, dict[Hex, list[Hop]]] = field(default_factory=dict, init=False)
    _contribution: dict[tuple, float] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        board = self.board
        self.blocked = blocking(board, board.enemy(self.side))
        land = board.map.land
        self.free = land - set(self.blocked)
        friendly = {h for h, s in board.control.items() if s == self.side}
        friendly |= {u.hex for u in board.units if u.side == self.side}
        self.anchors = {
            h
            for h in friendly
            if h in land
            and h not in self.blocked
            and anchored(board, Marker(self.side, h, None, kind=MAIN))
        }
        # One look-up per hex a hexrow passes: 0 (absent) not free, FREE, ANCHOR.
        self.status = dict.fromkeys(self.free, FREE)
        self.status.update(dict.fromkeys(self.anchors, ANCHOR))

    @property
    def map(self) -> HexMap:
        return self.board.map

    def hops(self, start: Hex) -> list[Hop]:
        """Every hexrow from ``start`` to an anchor (the edge runs' ends are anchors too)."""
        found = self._hops.get(start)
        if found is None:
            found = self._hops[start] = self._cast(start)
        return found

    def into(self, target: Hex) -> dict[Hex, list[Hop]]:
        """The hexrows from each anchor to ``target``: its own, turned round."""
        found = self._into.get(target)
        if found is None:
            found = {}
            for hop in self.hops(target):
                path = tuple(reversed(hop[2]))
                via = path[1] if hop[1] is not None else None
                found.setdefault(path[0], []).append((target, via, path))
            self._into[target] = found
        return found

    def _cast(self, start: Hex) -> list[Hop]:
        """The hops out of ``start``: along each of its 18 hexrows, of each run of anchors one
        after another only the two first and the two last — on a map of control markers every
        hex is an anchor, and a hexrow stopping inside a run turns nowhere its ends do not."""
        found: list[Hop] = []
        get = self.status.get
        for k, ray in enumerate(self.map.rays(start, self.reach)):
            # What each hex of the hexrow is (one look-up each, in C), cut where it leaves the
            # land or meets the enemy; an alternate hexrow's first hex only turns it.
            seen = list(map(get, ray, repeat(0)))
            try:
                cut = seen.index(0, 1)
            except ValueError:
                cut = len(seen)
            turned = k % 3 != 0  # each first step: straight, then the two alternate hexrows
            low = 2 if turned else 1
            if low >= cut:
                continue
            runs: list[tuple[int, int]] = []  # (first, last) position of each run of anchors
            if FREE not in seen[low:cut]:
                runs.append((low, cut - 1))  # every hex an anchor (a side holding the area)
            else:
                first = -1
                for i in range(low, cut):
                    if seen[i] == ANCHOR:
                        if first < 0:
                            first = i
                    elif first >= 0:
                        runs.append((first, i - 1))
                        first = -1
                if first >= 0:
                    runs.append((first, cut - 1))
                if not runs:
                    continue
            via = ray[1] if turned else None
            for first, last in runs:
                ends = (first, first + 1, last - 1, last) if last - first >= 3 else None
                for end in ends or range(first, last + 1):
                    found.append((ray[end], via, ray[: end + 1]))
        return found

    def path(self, marker: Marker) -> tuple[Hex, ...]:
        for target, via, path in self.hops(marker.hex):
            if target == marker.target and via == marker.via:
                return path
        return ()

    def contribution(self, path: tuple[Hex, ...]) -> float:
        """The path's share of the loop's shoelace sum (twice the signed polygon area)."""
        key = (path[0], path[-1], path[1] if len(path) > 1 else None)
        value = self._contribution.get(key)
        if value is None:
            # Centres as HexMap.centre draws them: x = 1.5 q, y = √3 (r + q / 2).
            value = 0.0
            for (q1, r1), (q2, r2) in zip(path, path[1:], strict=False):
                value += 1.5 * q1 * (r2 + q2 / 2) - 1.5 * q2 * (r1 + q1 / 2)
            value *= SQRT3
            self._contribution[key] = value
        return value


def _run_ends(edge: Marker, ends: bool) -> tuple[Hex | None, Hex | None, Hop | None]:
    """The run's hexes beside its ends, where a loop may also leave from or come back to: a
    marker there points at the end marker beside it (11.6054: any friendly hex). Often the only
    hexrows out of a run's end pass over the run itself. Returns (beside the start, beside the
    goal, the hop from beside the goal to the goal)."""
    if not ends or len(edge.path) < 3:
        return None, None, None
    near_goal = edge.path[1]
    return edge.path[-2], near_goal, (edge.hex, None, (near_goal, edge.hex))


def _heading(hexmap: HexMap, a: Hex, b: Hex) -> float:
    (ax, ay), (bx, by) = hexmap.centre(a), hexmap.centre(b)
    return math.atan2(by - ay, bx - ax)


@dataclass
class _Step:
    hex: Hex
    heading: float
    hop: Hop | None
    parent: _Step | None
    taken: frozenset[Hex] = frozenset()  # the chain's hexrow hexes, filled when expanded
    depth: int = 0

    def chain(self) -> list[Hop]:
        hops: list[Hop] = []
        step: _Step | None = self
        while step is not None and step.hop is not None:
            hops.append(step.hop)
            step = step.parent
        return hops[::-1]

    def corners(self) -> set[Hex]:
        found = set()
        step: _Step | None = self
        while step is not None:
            found.add(step.hex)
            step = step.parent
        return found


def _walk(
    graph: _Graph, edge: Marker, used: set[Hex], sense: int, budget: int, ends: bool = False
) -> list[Hop] | None:
    """A chain of hops from the run's end (its target) back to its start, turning as far to
    one side as the hexrows allow at each anchor (the enemy kept on that hand)."""
    start, goal = edge.target, edge.hex
    assert start is not None
    hexmap = graph.map
    centre = hexmap.centre
    previous = _heading(hexmap, edge.path[-2], start) if len(edge.path) > 1 else 0.0
    edge_hexes = set(used) - {start, goal}
    edge_run = set(edge.path)
    near_start, near_goal, closing = _run_ends(edge, ends)
    stack = [_Step(start, previous, None, None)]
    expanded: set[Hex] = set()
    while stack and len(expanded) < budget:
        step = stack.pop()
        if step.hex == goal and step.parent is not None:
            return step.chain()
        if step.hex == near_goal and closing is not None:
            return [*step.chain(), closing]
        if step.hex in expanded:
            continue
        expanded.add(step.hex)
        if step.parent is not None and step.hop is not None:
            step.taken = step.parent.taken | frozenset(step.hop[2])
            if step.depth >= MAX_MARKERS - 1:
                continue
        taken = step.taken
        corners = step.corners()
        crossed = taken - corners  # a hexrow may pass over a marker hex, not over a hexrow
        current, last = step.hex, step.heading
        cx, cy = centre(current)
        options = []
        for hop in graph.hops(current):
            target, _via, path = hop
            if target in (goal, near_goal) and step.parent is None and set(path) <= edge_run:
                continue  # straight back along the edge encloses nothing
            if target != goal and (
                target in taken
                or target in corners
                or target in expanded
                or (target in used and not _beside_end(target, step.parent, near_start, near_goal))
            ):
                continue
            inner = path[1:-1]
            if not edge_hexes.isdisjoint(inner) or not crossed.isdisjoint(inner):
                continue
            nx, ny = centre(target)
            heading = math.atan2(ny - cy, nx - cx)
            turn = (heading - last + math.pi) % (2 * math.pi) - math.pi
            options.append((sense * turn, target, heading, hop))
        # The most preferred option is pushed last, so tried first.
        for _turn, target, heading, hop in sorted(options, key=lambda o: o[:2]):
            stack.append(_Step(target, heading, hop, step, depth=step.depth + 1))
    return None


def _cornered(graph: _Graph, edge: Marker, used: set[Hex]) -> bool:
    """An end of the run from which every hexrow to an anchor passes over the run (or ends
    on it)."""
    edge_hexes = used - {edge.hex, edge.target}
    for end in (edge.hex, edge.target):
        if all(
            target in used or not edge_hexes.isdisjoint(path[1:-1])
            for target, _via, path in graph.hops(end)
        ):
            return True
    return False


def _beside_end(target: Hex, before: object, near_start: Hex | None, near_goal: Hex | None) -> bool:
    """A run's hex taken as a corner: beside the goal (then closing on it), or beside the start
    as the first corner (``before`` is None there)."""
    return target == near_goal or (before is None and target == near_start)


def _every_chain(
    graph: _Graph,
    edge: Marker,
    used: set[Hex],
    budget: int,
    sense: int = 0,
    keep: int = 4,
    first: bool = False,
    ends: bool = False,
) -> list[list[Hop]]:
    """The chains of hops from the run's end back to its start while the budget of hexrows
    looked at lasts (a hexrow may pass over a marker hex, never over another hexrow); the
    ``keep`` enclosing the most hexes, or with ``first`` the first found. With a ``sense`` the
    sharpest turn to that side is tried first; without, the order cast."""
    start, goal = edge.target, edge.hex
    assert start is not None
    centre = graph.map.centre
    edge_hexes = set(used) - {start, goal}
    edge_run = set(edge.path)
    near_start, near_goal, closing = _run_ends(edge, ends)
    base = graph.contribution(tuple(edge.path))
    found: list[tuple[float, int, list[Hop]]] = []
    looked = 0
    previous = _heading(graph.map, edge.path[-2], start) if len(edge.path) > 1 else 0.0
    # A state is made whole only when taken from the stack: most pushed are never reached.
    root = (start, previous, [], frozenset(), frozenset([start]))
    stack: list[tuple[Hex, float, tuple, Hop | None]] = [(start, previous, root, None)]
    while stack and looked < budget:
        current, last, parent, arriving = stack.pop()
        if arriving is None:
            chain, taken, corners = parent[2], parent[3], parent[4]
        else:
            chain = [*parent[2], arriving]
            taken = parent[3] | set(arriving[2])
            corners = parent[4] | {current}
        state = (current, last, chain, taken, corners)
        crossed = taken - corners  # a hexrow may pass over a marker hex, not over a hexrow
        hops = graph.hops(current)
        looked += len(hops)
        cx, cy = centre(current)
        options = []
        for hop in hops:
            target, _via, path = hop
            if target in (goal, near_goal) and not chain and set(path) <= edge_run:
                continue  # straight back along the edge encloses nothing
            if target != goal and (
                target in corners
                or (
                    target in used and not _beside_end(target, chain or None, near_start, near_goal)
                )
            ):
                continue
            inner = path[1:-1]
            if not edge_hexes.isdisjoint(inner) or not crossed.isdisjoint(inner):
                continue
            if target in (goal, near_goal):
                loop = [*chain, hop] if target == goal else [*chain, hop, closing]
                # Pick's theorem on the hex lattice: the hexes a loop encloses are about its
                # polygon's area in hexes plus half the hexes on the loop.
                twice = abs(base + sum(graph.contribution(h[2]) for h in loop))
                line = edge_run.union(*(h[2] for h in loop))
                found.append((twice / HEX_TWICE + len(line) / 2, len(found), loop))
                if first:
                    return [loop]
                continue
            if len(chain) + 1 >= MAX_MARKERS:
                continue
            nx, ny = centre(target)
            heading = math.atan2(ny - cy, nx - cx)
            turn = (heading - last + math.pi) % (2 * math.pi) - math.pi
            options.append((sense * turn, target, heading, hop))
        if sense:
            options.sort(key=lambda o: o[:2])
        for _turn, target, heading, hop in options:
            stack.append((target, heading, state, hop))
    found.sort(key=lambda f: (-f[0], f[1]))
    return [loop for _area, _n, loop in found[:keep]]


def _hug(graph: _Graph, edge: Marker, used: set[Hex], hand: int) -> list[Hop] | None:
    """The loop from the run's end back to its start stepping hex by hex with the enemy (or the
    map's edge) always on one hand, its out-and-back detours cut, then cut into hexrows ending
    on anchors (the longest first). None when it does not get back or cannot be cut so."""
    start, goal = edge.target, edge.hex
    assert start is not None
    free, anchors = graph.free, graph.anchors
    edge_hexes = used - {start, goal}
    if len(edge.path) > 1 and sub(start, edge.path[-2]) in STEPS:
        direction = STEPS.index(sub(start, edge.path[-2]))
    else:
        direction = 0
    path = [start]
    where = {start: 0}
    seen: set[tuple[Hex, int]] = set()
    current = start
    while current != goal:
        for turn in (2, 1, 0, -1, -2, 3):
            turned = (direction + hand * turn) % 6
            step = add(current, STEPS[turned])
            if step == goal or (step in free and step not in edge_hexes and step != start):
                break
        else:
            return None
        if (current, turned) in seen:
            return None  # round and round
        seen.add((current, turned))
        direction, current = turned, step
        back = where.get(step)
        if back is not None:  # a detour out and back: cut it
            for h in path[back + 1 :]:
                del where[h]
            del path[back + 1 :]
        else:
            where[step] = len(path)
            path.append(step)
    chain: list[Hop] = []
    i, last = 0, len(path) - 1
    while i < last:
        for j in range(min(last, i + graph.reach), i, -1):
            if path[j] != goal and path[j] not in anchors:
                continue
            row = tuple(path[i : j + 1])
            via = None if j == i + 1 else path[i + 1]
            if hexrow(path[i], path[j]) == list(row):
                chain.append((path[j], None, row))
                break
            if via is not None and hexrow(path[i], path[j], via) == list(row):
                chain.append((path[j], via, row))
                break
        else:
            return None
        i = j
    return chain if len(chain) < MAX_MARKERS * 2 else None


def _grow(graph: _Graph, edge: Marker, chain: list[Hop], used: set[Hex]) -> list[Hop]:
    """Push the loop outward: replace a hop a → b by a → c → b while the polygon grows by at
    least a hex and no hexrow meets another or the edge runs."""
    goal, start = edge.hex, edge.target
    assert start is not None
    chain = list(chain)
    total = graph.contribution(tuple(edge.path)) + sum(graph.contribution(h[2]) for h in chain)
    orientation = 1 if total > 0 else -1
    edge_hexes = set(used) - {start, goal}
    occupied: dict[Hex, int] = dict.fromkeys(edge_hexes, 1)
    for hop in chain:
        for h in hop[2]:
            occupied[h] = occupied.get(h, 0) + 1
    corners = {start, *(hop[0] for hop in chain)}
    for _round in range(4):
        improved = False
        i = 0
        while i < len(chain):
            hop = chain[i]
            a = start if i == 0 else chain[i - 1][0]
            b = hop[0]
            own = set(hop[2])

            def free(path: tuple[Hex, ...], own: set[Hex] = own) -> bool:
                return not any(
                    h in corners or occupied.get(h, 0) - (h in own) > 0 for h in path[1:-1]
                )

            before = graph.contribution(hop[2])
            into_b = graph.into(b)
            best: tuple[float, list[Hop]] | None = None
            for first in graph.hops(a):
                c = first[0]
                if c in corners or c in used or c not in into_b:
                    continue
                if occupied.get(c, 0) - (c in own) > 0 or not free(first[2]):
                    continue
                gain_first = graph.contribution(first[2]) - before
                inner = set(first[2][1:-1])
                for second in into_b[c]:
                    gain = orientation * (gain_first + graph.contribution(second[2]))
                    if gain < MARKER_WORTH or (best is not None and gain <= best[0]):
                        continue
                    if inner & set(second[2][1:-1]) or not free(second[2]):
                        continue
                    best = (gain, [first, second])
            if best is not None and len(chain) < MAX_MARKERS:
                for h in hop[2]:
                    occupied[h] -= 1
                for new in best[1]:
                    for h in new[2]:
                        occupied[h] = occupied.get(h, 0) + 1
                corners.add(best[1][0][0])
                chain[i : i + 1] = best[1]
                improved = True
            else:
                i += 1
        if not improved:
            break
    return _simplify(graph, start, chain, edge_hexes, orientation)


def _tidy(graph: _Graph, edge: Marker, chain: list[Hop], used: set[Hex]) -> list[Hop]:
    """The loop as found with fewer markers."""
    start = edge.target
    assert start is not None
    total = graph.contribution(tuple(edge.path)) + sum(graph.contribution(h[2]) for h in chain)
    edge_hexes = set(used) - {start, edge.hex}
    return _simplify(graph, start, list(chain), edge_hexes, 1 if total > 0 else -1)


def _simplify(
    graph: _Graph, start: Hex, chain: list[Hop], edge_hexes: set[Hex], orientation: int
) -> list[Hop]:
    """Fewer markers for the same area: a corner c between a and b goes where the hexrow a → b
    is free and encloses at least as much."""
    occupied: dict[Hex, int] = dict.fromkeys(edge_hexes, 1)
    for hop in chain:
        for h in hop[2]:
            occupied[h] = occupied.get(h, 0) + 1
    corners = {start, *(hop[0] for hop in chain)}
    i = 0
    while i < len(chain) - 1:
        a = start if i == 0 else chain[i - 1][0]
        c, b = chain[i][0], chain[i + 1][0]
        before = graph.contribution(chain[i][2]) + graph.contribution(chain[i + 1][2])
        own = set(chain[i][2]) | set(chain[i + 1][2])
        direct = None
        for hop in graph.into(b).get(a, ()):
            if orientation * (graph.contribution(hop[2]) - before) < -1e-9:
                continue
            if any(
                (h in corners and h != c) or occupied.get(h, 0) - (h in own) > 0
                for h in hop[2][1:-1]
            ):
                continue
            direct = hop
            break
        if direct is None:
            i += 1
            continue
        for old in chain[i : i + 2]:
            for h in old[2]:
                occupied[h] -= 1
        for h in direct[2]:
            occupied[h] = occupied.get(h, 0) + 1
        corners.discard(c)
        chain[i : i + 2] = [direct]
    return chain


def _as_placed(side: str, chain: Sequence[Hop]) -> list[Marker]:
    """The walk went edge end → anchors → edge start; each marker must point at a hex already
    holding a marker, so all but the last are turned round (n1 → end, n2 → n1 …)."""
    placed = []
    for hop in chain[:-1]:
        _target, via, path = hop
        reverse = tuple(reversed(path))
        placed.append(Marker(side, path[-1], path[0], reverse[1] if via is not None else None))
    target, via, path = chain[-1]
    placed.append(Marker(side, path[0], target, via))
    return placed
