"""The perimeter map as shapes: hexes with their status, each side's drawn hexsides (11.6066),
marker arrows, control and unit marks, isolated-area letters and non-ground pocket circles.
Plain Python; the page draws it as SVG, rosters.perimeter_pdf on paper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from refit.rules.hexgrid import Hex, HexMap
from refit.rules.perimeter.board import ISOLATED, NML, Marker, Result
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


def _geometry(
    hexmap: HexMap,
) -> tuple[tuple[Hex, str, str, tuple[tuple[float, float], ...], tuple[float, float]], ...]:
    """Each hex in the map's order with its name, SVG points, corners and centre in drawing
    units: the same for every state of the map, worked out once per map and process."""
    found = hexmap.shared.get(("drawing", SIZE))
    if found is None:
        left, top, _right, _bottom = hexmap.bounds(SIZE)

        def point(p: tuple[float, float]) -> tuple[float, float]:
            return (round(p[0] - left, 1), round(p[1] - top, 1))

        made = []
        for h in hexmap.sorted(hexmap.cells):
            corners = tuple(point(c) for c in hexmap.corners(h, SIZE))
            points = " ".join(f"{x},{y}" for x, y in corners)
            made.append((h, hexmap.name(h), points, corners, point(hexmap.centre(h, SIZE))))
        found = hexmap.shared[("drawing", SIZE)] = tuple(made)
    return found


def picture(
    hexmap: HexMap,
    result: Result,
    markers: list[Marker],
    fires: set[Hex],
    selected: Hex | None = None,
) -> Picture:
    left, top, right, bottom = hexmap.bounds(SIZE)
    control = result.board.control
    isolated, nml, after = result.isolated, result.nml, result.control

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] - left, 1), round(p[1] - top, 1))

    shapes = []
    for h, name, points, corners, centre in _geometry(hexmap):
        if h in hexmap.water:
            status = "water"
        elif h in isolated:  # as Result.status, its sets read once
            status = ISOLATED
        elif h in nml:
            status = NML
        else:
            status = after.get(h, "")
        shapes.append(
            HexShape(
                name=name,
                points=points,
                corners=corners,
                centre=centre,
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
    shapes = []
    for h, name, points, corners, centre in _geometry(hexmap):
        shapes.append(
            HexShape(
                name=name,
                points=points,
                corners=corners,
                centre=centre,
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


def svg_shapes(
    drawing: Picture,
    side_keys: Sequence[str],
    zoom: int = 1,
    href: str = "",
    changed: bool = False,
) -> str:
    """The picture's shapes as the page's SVG markup (inside its ``<svg>``): each hex a link
    choosing it, then the marker arrows, the drawn front lines, unit ids, isolated-area letters
    and non-ground pocket circles. Written here, not in a template loop: a full map has
    1,700–2,900 hexes, and the template engine took ~0.5 s to draw them. ``href`` is what the
    hex links add after ``?hex=NAME`` (e.g. ``&zoom=2``). Only hex names, unit ids and
    labels are text: all escaped. With ``changed`` (``control_picture``'s map) a hex whose
    ``control`` says so is classed "changed" instead of carrying a control mark."""

    def side_class(prefix: str, side: str) -> str:
        return f"{prefix}-0" if side == side_keys[0] else f"{prefix}-1"

    out: list[str] = []
    add = out.append
    first = side_keys[0] if side_keys else None
    second = side_keys[1] if len(side_keys) > 1 else None
    for cell in drawing.hexes:
        name = escape(cell.name)
        status = cell.status
        if status == first:
            status = "side-0"
        elif status == second:
            status = "side-1"
        else:
            status = escape(status)
        link = f"?hex={name}{href}"
        add(
            f'<a aria-label="{name}" href="{link}" hx-get="{link}" hx-target="#selection" '
            f'hx-swap="outerHTML"><polygon id="h-{name}" class="hex {status}'
            f'{" changed" if changed and cell.control else ""}" '
            f'points="{cell.points}"><title>{name}</title></polygon></a>'
        )
        if changed:
            add("\n")
            continue
        x, y = cell.centre
        if zoom > 1:
            # Whole units, as the template's |add filter drew them.
            add(f'<text class="hex-name" x="{x}" y="{int(y) - 5}">{name}</text>')
        if cell.control:
            add(
                f'<rect class="{side_class("ctl", cell.control)}" x="{int(x) - 2}" '
                f'y="{int(y) - 2}" width="4" height="4"/>'
            )
        if cell.fire:
            add(f'<circle class="fire" cx="{int(x) + 4}" cy="{y}" r="1.5"/>')
        add("\n")
    for kind, lines in (("arrow", drawing.arrows), ("border", drawing.borders)):
        for line in lines:
            add(
                f'<line class="{side_class(kind, line.side)}" x1="{line.x1}" y1="{line.y1}" '
                f'x2="{line.x2}" y2="{line.y2}"/>'
            )
    for label in drawing.units:
        add(
            f'<text class="unit {side_class("unit", label.side)}" x="{label.x}" y="{label.y}">'
            f"{escape(label.text)}</text>"
        )
    for label in drawing.areas:
        add(f'<text class="area-type" x="{label.x}" y="{label.y}">{escape(label.text)}</text>')
    for label in drawing.pockets:
        add(
            f'<circle cx="{label.x}" cy="{label.y}" r="2.5" fill="none" stroke="#555" '
            f'stroke-width=".4"/><text class="hex-name" x="{label.x}" y="{int(label.y) + 1}">'
            f"{escape(label.text)}</text>"
        )
    return "".join(out)
