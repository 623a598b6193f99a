"""What the perimeter rules read and what they answer (11.605–11.6066): the board (control
markers, units by side and kind, non-ground pockets), the players' markers, and the results of
one evaluation. Data only; the rules are in the sibling modules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from campaigns.games.rules import Reason
from refit.rules.hexgrid import Hex, HexMap

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

    @cached_property  # read once per hex by status(): made once
    def isolated(self) -> frozenset[Hex]:
        return frozenset().union(*(a.hexes for a in self.isolated_areas if not a.became_nml))

    def area_of(self, h: Hex) -> IsolatedArea | None:
        for area in self.isolated_areas:
            if h in area.hexes:
                return area
        return None
