"""The hex grid of a campaign map: ASL hex names, neighbours, distances, hexrows, hex lists.

Plain Python, no Django. A hex is kept as axial coordinates ``(q, r)`` on the campaign's whole
map; names are the printed ones (``H41``, ``RBH41``, ``AA0``). Each map section says which of
its columns are drawn half a hex lower (its parity), which rows its columns have, and — for a
map joined from several sections (RF CG I: RB + RO) — where it sits in the joined map. That is
data (``maps.json``), read by ``HexMap.from_data``.

Directions are the six hexsides of flat-topped hexes in vertical columns: N, NE, SE, S, SW, NW.
A *straight hexrow* runs in one direction; an *alternate hexrow* (E12.11, "G42 – H41 → J41")
zig-zags between two directions 60° apart, the first step naming which zig-zag is meant.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

Hex = tuple[int, int]

DIRECTIONS: dict[str, Hex] = {
    "N": (0, -1),
    "NE": (1, -1),
    "SE": (1, 0),
    "S": (0, 1),
    "SW": (-1, 1),
    "NW": (-1, 0),
}
CLOCKWISE: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
STEPS: tuple[Hex, ...] = tuple(DIRECTIONS[name] for name in CLOCKWISE)


class HexError(ValueError):
    """A hex name or hex list that does not name hexes of this map; ``text`` is the bad part."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring_around(h: Hex) -> list[Hex]:
    """The six cells around ``h`` in clockwise order from N (on or off the map)."""
    return [add(h, step) for step in STEPS]


def column_letters(number: int) -> str:
    """1 → A, 26 → Z, 27 → AA, 28 → BB … (ASL doubles the letter)."""
    if number < 1:
        raise ValueError(number)
    return chr(ord("A") + (number - 1) % 26) * ((number - 1) // 26 + 1)


def column_number(letters: str) -> int:
    letters = letters.upper()
    if not letters or not letters.isalpha() or len(set(letters)) != 1:
        raise ValueError(letters)
    return (len(letters) - 1) * 26 + ord(letters[0]) - ord("A") + 1


@dataclass(frozen=True)
class Section:
    """One map (group) section: its columns, rows and parity, and where it sits in a joined map.

    ``lower_columns`` says which columns (numbered from A = 1) are drawn half a hex lower:
    "even" (RB, SaP: B, D, F …) or "odd" (RO). ``rows_higher``/``rows_lower`` are the first and
    last row numbers of the other columns and of those lower columns (row 0 exists as half hexes
    only in some columns). ``offset`` moves the section in axial coordinates inside a joined map.
    """

    prefix: str
    first_column: int
    last_column: int
    lower_columns: str
    rows_higher: tuple[int, int]
    rows_lower: tuple[int, int]
    offset: Hex = (0, 0)

    def is_lower(self, column: int) -> bool:
        return column % 2 == (0 if self.lower_columns == "even" else 1)

    def rows(self, column: int) -> tuple[int, int]:
        return self.rows_lower if self.is_lower(column) else self.rows_higher

    def to_axial(self, column: int, row: int) -> Hex:
        shift = 1 if self.is_lower(column) else 0
        return (column + self.offset[0], row - (column - shift) // 2 + self.offset[1])

    def from_axial(self, h: Hex) -> tuple[int, int]:
        column = h[0] - self.offset[0]
        shift = 1 if self.is_lower(column) else 0
        return column, h[1] - self.offset[1] + (column - shift) // 2

    def contains(self, column: int, row: int) -> bool:
        if not self.first_column <= column <= self.last_column:
            return False
        first, last = self.rows(column)
        return first <= row <= last

    def cells(self) -> Iterable[tuple[int, int]]:
        for column in range(self.first_column, self.last_column + 1):
            first, last = self.rows(column)
            for row in range(first, last + 1):
                yield column, row


@dataclass(frozen=True)
class HexMap:
    """A campaign's whole map: the cells of its sections and their names."""

    key: str
    sections: tuple[Section, ...]
    # Water-obstacle hexes (rivers, the Volga) the referee marked: not land for the edge ring.
    water: frozenset[Hex] = field(default=frozenset())
    # What depends on the cells alone, shared with the same map with other water
    # (``with_water``): the hexrows out of each hex (``rays``), filled as they are asked for.
    shared: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @classmethod
    def from_data(cls, key: str, data: Mapping[str, Any]) -> HexMap:
        """Build from one ``maps.json`` map: ``{"sections": [{prefix, first_column, …}]}``."""
        sections = []
        for raw in data["sections"]:
            rows = raw["rows"]
            sections.append(
                Section(
                    prefix=raw.get("prefix", ""),
                    first_column=column_number(raw["first_column"]),
                    last_column=column_number(raw["last_column"]),
                    lower_columns=raw["lower_columns"],
                    rows_higher=(int(rows["higher"][0]), int(rows["higher"][1])),
                    rows_lower=(int(rows["lower"][0]), int(rows["lower"][1])),
                    offset=tuple(raw.get("offset", (0, 0))),  # type: ignore[arg-type]
                )
            )
        return cls(key=key, sections=tuple(sections))

    def with_water(self, water: Iterable[Hex]) -> HexMap:
        return HexMap(
            key=self.key,
            sections=self.sections,
            water=frozenset(water) & self.cells,
            shared=self.shared,
        )

    def rays(self, start: Hex, reach: int) -> tuple[tuple[Hex, ...], ...]:
        """The 18 hexrows out of ``start`` — for each of the six first steps, straight, then
        alternating to the right and to the left — each from ``start`` for up to ``reach``
        hexes while on the map. Worked out once per map and process (the proposal casts
        hundreds per request)."""
        rays = self.shared.setdefault("rays", {})
        found = rays.get((start, reach))
        if found is None:
            # The map's own hex tuples, not new ones: a full map's rays stay ~15 MB, not 75.
            cells = self.shared.get("canonical")
            if cells is None:
                cells = self.shared["canonical"] = {h: h for h in self.cells}
            made = []
            for first in range(6):
                for turn in (0, 1, -1):
                    (aq, ar), (bq, br) = STEPS[first], STEPS[(first + turn) % 6]
                    q, r = start
                    path = [start]
                    for i in range(reach):
                        if i % 2:
                            q, r = q + bq, r + br
                        else:
                            q, r = q + aq, r + ar
                        current = cells.get((q, r))
                        if current is None:
                            break
                        path.append(current)
                    made.append(tuple(path))
            found = rays[(start, reach)] = tuple(made)
        return found

    # --- cells and names ---------------------------------------------------------------------

    @cached_property
    def _index(self) -> tuple[dict[Hex, str], dict[str, Hex]]:
        names: dict[Hex, str] = {}
        by_name: dict[str, Hex] = {}
        joined = len(self.sections) > 1
        for section in self.sections:
            for column, row in section.cells():
                h = section.to_axial(column, row)
                local = f"{column_letters(column)}{row}"
                full = f"{section.prefix}{local}"
                # Where sections overlap, the first section's name is the hex's name; the other
                # names still find it.
                names.setdefault(h, full if joined else local)
                by_name.setdefault(full.upper(), h)
                if not joined:
                    by_name.setdefault(local.upper(), h)
        return names, by_name

    @cached_property
    def cells(self) -> frozenset[Hex]:
        return frozenset(self._index[0])

    def name(self, h: Hex) -> str:
        return self._index[0][h]

    def names(self, hexes: Iterable[Hex]) -> list[str]:
        return [self.name(h) for h in self.sorted(hexes)]

    def sorted(self, hexes: Iterable[Hex]) -> list[Hex]:
        """Column by column, north to south — the order a player reads the map in."""
        return sorted(hexes, key=self.sort_key)

    def sort_key(self, h: Hex) -> tuple[int, float]:
        return (h[0], h[1] + h[0] / 2)

    def __contains__(self, h: object) -> bool:
        return h in self.cells

    def hex(self, text: str) -> Hex:
        """The hex named ``text`` ("H41", "RBH41", "aa0"); HexError when there is none."""
        key = text.strip().upper()
        h = self._index[1].get(key)
        if h is None:
            raise HexError("unknown_hex", text.strip())
        return h

    def parse_list(self, text: str) -> list[Hex]:
        """``"H41 G42-G45, AA3"`` → the hexes, in order, without repeats.

        A range runs along a straight hexrow between its two ends (G42-G45), else along a row
        number (A45-M45, the printed zig-zag row). Three names are an alternate hexrow like a
        marker's: ``A38-B37-M38`` is "A38 – B37 → M38".
        """
        result: list[Hex] = []
        for token in re.split(r"[\s,、，;]+", text.strip()):
            if not token:
                continue
            parts = re.split(r"[-–—~〜]", token)
            if len(parts) == 1:
                hexes = [self.hex(parts[0])]
            elif len(parts) == 2 and all(parts):
                hexes = self._range(parts[0], parts[1], token)
            elif len(parts) == 3 and all(parts):
                path = hexrow(self.hex(parts[0]), self.hex(parts[2]), self.hex(parts[1]))
                if path is None or any(h not in self.cells for h in path):
                    raise HexError("bad_range", token)
                hexes = path
            else:
                raise HexError("bad_range", token)
            for h in hexes:
                if h not in result:
                    result.append(h)
        return result

    def _range(self, first: str, last: str, token: str) -> list[Hex]:
        a, b = self.hex(first), self.hex(last)
        straight = straight_path(a, b)
        if straight is not None and all(h in self.cells for h in straight):
            return straight
        section_a, (col_a, row_a) = self.local(a)
        section_b, (col_b, row_b) = self.local(b)
        if section_a is section_b and row_a == row_b:
            step = 1 if col_b >= col_a else -1
            hexes = []
            for column in range(col_a, col_b + step, step):
                if not section_a.contains(column, row_a):
                    raise HexError("bad_range", token)
                hexes.append(section_a.to_axial(column, row_a))
            return hexes
        raise HexError("bad_range", token)

    def local(self, h: Hex) -> tuple[Section, tuple[int, int]]:
        """The section the hex's name comes from, and its column and row there."""
        for section in self.sections:
            column, row = section.from_axial(h)
            if section.contains(column, row):
                return section, (column, row)
        raise HexError("unknown_hex", str(h))

    # --- neighbourhood -------------------------------------------------------------------------

    def neighbours(self, h: Hex) -> list[Hex]:
        cells = self.cells
        return [n for n in ring_around(h) if n in cells]

    @cached_property
    def adjacency(self) -> dict[Hex, tuple[Hex, ...]]:
        cells = self.cells
        return {h: tuple(n for n in ring_around(h) if n in cells) for h in cells}

    @cached_property
    def edge_hexes(self) -> frozenset[Hex]:
        """Hexes on the map's edge: at least one of their six neighbours is off the map."""
        return frozenset(h for h, around in self.adjacency.items() if len(around) < 6)

    def edge_sides(self, h: Hex) -> frozenset[str]:
        """Which map edges (N, E, S, W) the hex is on; empty inside the map."""
        missing = {name for name, step in DIRECTIONS.items() if add(h, step) not in self.cells}
        sides = set()
        if "N" in missing:
            sides.add("N")
        if "S" in missing:
            sides.add("S")
        # A north or south edge half hex also misses a side neighbour; it is no west/east hex
        # unless both of that side's neighbours are gone.
        if {"NW", "SW"} <= missing or ({"NW", "SW"} & missing and not {"N", "S"} & missing):
            sides.add("W")
        if {"NE", "SE"} <= missing or ({"NE", "SE"} & missing and not {"N", "S"} & missing):
            sides.add("E")
        return frozenset(sides)

    @cached_property
    def open_boundary(self) -> frozenset[Hex]:
        """Where the outside starts for an enclosure (11.605 D): the map-edge hexes and the
        water."""
        return self.edge_hexes | self.water

    @cached_property
    def numbered(self) -> Numbered:
        """The map's hexes by number, for floods that run over thousands of hexes per request
        (``perimeter.areas.enclosed``): integer lists and a byte per hex beat sets of tuples."""
        hexes = sorted(self.cells)
        number = {h: i for i, h in enumerate(hexes)}
        adjacency = self.adjacency
        boundary = self.open_boundary
        return Numbered(
            hexes=hexes,
            number=number,
            around=[tuple(number[n] for n in adjacency[h]) for h in hexes],
            q=[h[0] for h in hexes],
            r=[h[1] for h in hexes],
            boundary=bytes(1 if h in boundary else 0 for h in hexes),
        )

    @cached_property
    def land(self) -> frozenset[Hex]:
        return self.cells - self.water

    @cached_property
    def shore_hexes(self) -> frozenset[Hex]:
        """Land hexes beside a water obstacle."""
        return frozenset(h for h in self.land if any(n in self.water for n in self.adjacency[h]))

    @cached_property
    def rings(self) -> tuple[tuple[Hex, ...], ...]:
        """The map-edge 'hexrows' of 11.6053: for each piece of land that reaches the map edge,
        its outer boundary walked clockwise, round corners and along shores."""
        land = self.land
        rings = []
        seen: set[Hex] = set()
        for start in self.sorted(self.edge_hexes & land):
            if start in seen:
                continue
            component = flood(land, [start])
            seen |= component
            rings.append(tuple(_trace_boundary(component, self.sort_key)))
        return tuple(rings)

    # --- drawing ---------------------------------------------------------------------------------

    def centre(self, h: Hex, size: float = 1.0) -> tuple[float, float]:
        """The hex's centre on a drawing where hexes are ``size`` from centre to corner."""
        return (size * 1.5 * h[0], size * math.sqrt(3) * (h[1] + h[0] / 2))

    def corners(self, h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
        """Six corners clockwise from the west corner (flat-topped)."""
        x, y = self.centre(h, size)
        return [
            (x + size * math.cos(math.radians(angle)), y + size * math.sin(math.radians(angle)))
            for angle in (180, 240, 300, 0, 60, 120)
        ]

    def hexside(self, h: Hex, other: Hex, size: float = 1.0) -> tuple[tuple[float, float], ...]:
        """The two ends of the hexside ``h`` shares with its neighbour ``other``."""
        corners = self.corners(h, size)
        index = STEPS.index(sub(other, h))
        # N lies between the corners at 240° and 300°, and so on clockwise.
        return (corners[(index + 1) % 6], corners[(index + 2) % 6])

    def bounds(self, size: float = 1.0) -> tuple[float, float, float, float]:
        found = self.shared.get(("bounds", size))
        if found is None:
            xs, ys = [], []
            for h in self.cells:
                x, y = self.centre(h, size)
                xs.append(x)
                ys.append(y)
            found = (min(xs) - size, min(ys) - size, max(xs) + size, max(ys) + size)
            self.shared[("bounds", size)] = found  # the cells' alone: once per map and process
        return found


@dataclass(frozen=True)
class Numbered:
    """A map's hexes numbered 0 … n-1 (``HexMap.numbered``)."""

    hexes: list[Hex]
    number: dict[Hex, int]
    around: list[tuple[int, ...]]  # each hex's neighbours on the map, by number
    q: list[int]
    r: list[int]
    boundary: bytes  # 1 where the outside starts (map edge, water: ``open_boundary``)


def flood(cells: frozenset[Hex] | set[Hex], seeds: Iterable[Hex]) -> set[Hex]:
    """Every cell of ``cells`` reachable from the seeds (that are in ``cells``) by neighbours."""
    reached = {h for h in seeds if h in cells}
    stack = list(reached)
    while stack:
        h = stack.pop()
        q, r = h
        for dq, dr in STEPS:
            n = (q + dq, r + dr)
            if n in cells and n not in reached:
                reached.add(n)
                stack.append(n)
    return reached


def _trace_boundary(component: set[Hex], sort_key: Any) -> list[Hex]:
    """Walk the outer boundary of a connected set of cells, clockwise, keeping the outside on
    the left; each boundary cell appears in walking order (a cell at a pinch may come twice)."""
    start = min(component, key=lambda h: (sort_key(h)[0], sort_key(h)[1]))
    if all(n not in component for n in ring_around(start)):
        return [start]
    # The westmost column's northmost cell has nothing to its north-west: start looking there.
    direction = CLOCKWISE.index("NW")
    walk: list[Hex] = []
    current = start
    first_move: tuple[Hex, int] | None = None
    for _ in range(12 * len(component) + 12):
        # Turn clockwise from the outside direction to the first cell of the component.
        for turn in range(1, 7):
            d = (direction + turn) % 6
            nxt = add(current, STEPS[d])
            if nxt in component:
                break
        move = (current, d)
        if move == first_move:
            break
        if first_move is None:
            first_move = move
        if not walk or walk[-1] != current:
            walk.append(current)
        # The outside cell last passed (at d - 1 from current) seen from the next cell.
        outside = add(current, STEPS[(d - 1) % 6])
        direction = STEPS.index(sub(outside, nxt)) if sub(outside, nxt) in STEPS else (d + 3) % 6
        current = nxt
    if len(walk) > 1 and walk[0] == walk[-1]:
        walk.pop()
    return walk


# --- hexrows -----------------------------------------------------------------------------------


def straight_path(a: Hex, b: Hex) -> list[Hex] | None:
    """The straight hexrow from a to b (both included), or None if they are not on one."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    if (dq, dr) == (0, 0):
        return None
    length = distance(a, b)
    step = (dq // length, dr // length) if dq % length == 0 and dr % length == 0 else None
    if step not in STEPS:
        return None
    return [(a[0] + step[0] * i, a[1] + step[1] * i) for i in range(length + 1)]


def alternate_path(a: Hex, via: Hex, b: Hex) -> list[Hex] | None:
    """The alternate hexrow "a – via → b": first step a → via, then alternating with the
    direction 60° to one side, until b. None when no such zig-zag reaches b."""
    first = sub(via, a)
    if first not in STEPS:
        return None
    index = STEPS.index(first)
    limit = 2 * distance(a, b) + 2
    for turn in (1, -1):
        second = STEPS[(index + turn) % 6]
        path = [a]
        current = a
        for i in range(limit):
            current = add(current, first if i % 2 == 0 else second)
            path.append(current)
            if current == b:
                if len(path) >= 3:
                    return path
                break
    return None


def hexrow(a: Hex, b: Hex, via: Hex | None = None) -> list[Hex] | None:
    """The 'hexrow' of a marker: straight when no ``via`` is named (or via lies on the straight
    row), otherwise the alternate hexrow through ``via``."""
    if via is None:
        return straight_path(a, b)
    path = alternate_path(a, via, b)
    if path is not None:
        return path
    straight = straight_path(a, b)
    if straight is not None and len(straight) > 1 and straight[1] == via:
        return straight
    return None


def path_is_connected(path: Sequence[Hex]) -> bool:
    return all(distance(p, q) == 1 for p, q in zip(path, path[1:], strict=False))
