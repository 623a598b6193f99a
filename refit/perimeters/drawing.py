"""The perimeter map as shapes: hexes with their status, each side's drawn hexsides (11.6066),
marker arrows, control and unit marks, isolated-area letters and non-ground pocket circles.
Plain Python; the page draws it as SVG, rosters.perimeter_pdf on paper."""

from __future__ import annotations

from dataclasses import dataclass

from refit.rules.hexgrid import Hex, HexMap
from refit.rules.perimeter.board import Marker, Result
from refit.rules.perimeter.markers import marker_path

SIZE = 10.0  # hex centre to corner, in drawing units
INSET = 0.15  # how far a side's line sits inside its own hex, as a share of the way to the centre


@dataclass(frozen=True)
class HexShape:
    name: str
    points: str  # "x,y x,y …" for SVG
    corners: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    status: str  # a side key, "nml", "isolated", "water" or ""
    control: str  # the side of a control marker on it, or ""
    fire: bool
    selected: bool


@dataclass(frozen=True)
class Line:
    side: str
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Label:
    text: str
    x: float
    y: float
    side: str = ""


@dataclass(frozen=True)
class Picture:
    width: float
    height: float
    view_box: str
    origin: tuple[float, float]
    hexes: tuple[HexShape, ...]
    borders: tuple[Line, ...]  # the 11.6066 drawing
    arrows: tuple[Line, ...]  # marker hexrows (centre to centre)
    units: tuple[Label, ...]
    areas: tuple[Label, ...]  # A–D at each isolated area
    pockets: tuple[Label, ...]  # circled level numbers (11.6057)


def picture(
    hexmap: HexMap,
    result: Result,
    markers: list[Marker],
    fires: set[Hex],
    selected: Hex | None = None,
) -> Picture:
    left, top, right, bottom = hexmap.bounds(SIZE)
    control = result.board.control

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] - left, 1), round(p[1] - top, 1))

    shapes = []
    for h in hexmap.sorted(hexmap.cells):
        corners = tuple(point(c) for c in hexmap.corners(h, SIZE))
        status = "water" if h in hexmap.water else result.status(h)
        shapes.append(
            HexShape(
                name=hexmap.name(h),
                points=" ".join(f"{x},{y}" for x, y in corners),
                corners=corners,
                centre=point(hexmap.centre(h, SIZE)),
                status=status,
                control=control.get(h, ""),
                fire=h in fires,
                selected=h == selected,
            )
        )
    borders = []
    for side, hexsides in result.drawing.items():
        for a, b in hexsides:
            # Each side's line sits a little inside its own hex: where both front lines run
            # along one hexside, both stay visible side by side.
            cx, cy = hexmap.centre(a, SIZE)
            (x1, y1), (x2, y2) = (
                point((x + (cx - x) * INSET, y + (cy - y) * INSET))
                for x, y in hexmap.hexside(a, b, SIZE)
            )
            borders.append(Line(side, x1, y1, x2, y2))
    arrows = []
    for marker in markers:
        path = marker_path(marker) or ()
        for a, b in zip(path, path[1:], strict=False):
            (x1, y1), (x2, y2) = point(hexmap.centre(a, SIZE)), point(hexmap.centre(b, SIZE))
            arrows.append(Line(marker.side, x1, y1, x2, y2))
    units = []
    for unit in result.board.units:
        x, y = point(hexmap.centre(unit.hex, SIZE))
        units.append(Label(unit.id, x, y + SIZE * 0.45, unit.side))
    areas = []
    for area in result.isolated_areas:
        first = hexmap.sorted(area.hexes)[0]
        x, y = point(hexmap.centre(first, SIZE))
        areas.append(Label(area.type, x, y))
    pockets = []
    for side_result in result.sides.values():
        for pocket in side_result.pockets:
            if pocket.kind == "non_ground":
                for h in pocket.hexes:
                    x, y = point(hexmap.centre(h, SIZE))
                    pockets.append(
                        Label(pocket.label, x + SIZE * 0.45, y - SIZE * 0.4, pocket.side)
                    )
    width, height = round(right - left, 1), round(bottom - top, 1)
    return Picture(
        width=width,
        height=height,
        view_box=f"0 0 {width} {height}",
        origin=(left, top),
        hexes=tuple(shapes),
        borders=tuple(borders),
        arrows=tuple(arrows),
        units=tuple(units),
        areas=tuple(areas),
        pockets=tuple(pockets),
    )


def control_picture(
    hexmap: HexMap, control: dict[str, str], changed: set[str], selected: str = ""
) -> Picture:
    """The map as a scenario's end shows it (refit.perimeters.scenario_control): each hex by
    the side controlling it after the scenario's recorded changes, the changed hexes marked."""
    left, top, right, bottom = hexmap.bounds(SIZE)

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] - left, 1), round(p[1] - top, 1))

    shapes = []
    for h in hexmap.sorted(hexmap.cells):
        name = hexmap.name(h)
        corners = tuple(point(c) for c in hexmap.corners(h, SIZE))
        shapes.append(
            HexShape(
                name=name,
                points=" ".join(f"{x},{y}" for x, y in corners),
                corners=corners,
                centre=point(hexmap.centre(h, SIZE)),
                status="water" if h in hexmap.water else control.get(name, ""),
                control="changed" if name in changed else "",
                fire=False,
                selected=name == selected,
            )
        )
    width, height = round(right - left, 1), round(bottom - top, 1)
    return Picture(
        width=width,
        height=height,
        view_box=f"0 0 {width} {height}",
        origin=(left, top),
        hexes=tuple(shapes),
        borders=(),
        arrows=(),
        units=(),
        areas=(),
        pockets=(),
    )
