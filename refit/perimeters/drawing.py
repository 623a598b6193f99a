"""The perimeter map as shapes: hexes with their status, each side's drawn hexsides (11.6066),
marker arrows, control and unit marks, isolated-area letters and non-ground pocket circles.
Plain Python; the page draws it as SVG, rosters.perimeter_pdf on paper."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
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


def statuses(hexmap: HexMap, result: Result) -> dict[Hex, str]:
    """Each hex's status as the map shows it (``HexShape.status``): water first, then the
    isolated areas, No Man's Land, then the side controlling it after 11.6059/11.6062
    (``Result.status``); a hex not listed has none ("")."""
    found = dict(result.control)
    found.update(dict.fromkeys(result.nml, NML))
    found.update(dict.fromkeys(result.isolated, ISOLATED))
    found.update(dict.fromkeys(hexmap.water, "water"))
    return found


def picture(
    hexmap: HexMap,
    result: Result,
    markers: list[Marker],
    fires: set[Hex],
    selected: Hex | None = None,
    with_hexes: bool = True,
) -> Picture:
    """The whole picture (the reduced map's PDF); without ``with_hexes`` only the lines and
    labels drawn over the hexes (the page writes its hexes with ``svg_map``)."""
    left, top, right, bottom = hexmap.bounds(SIZE)
    control = result.board.control

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] - left, 1), round(p[1] - top, 1))

    shapes = []
    if with_hexes:
        status = statuses(hexmap, result)
        for h, name, points, corners, centre in _geometry(hexmap):
            shapes.append(
                HexShape(
                    name=name,
                    points=points,
                    corners=corners,
                    centre=centre,
                    status=status.get(h, ""),
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


def control_statuses(hexmap: HexMap, control: Mapping[str, str]) -> dict[Hex, str]:
    """The map as a scenario's end shows it (refit.perimeters.scenario_control): each hex by
    the side controlling it after the scenario's recorded changes (``control`` by hex name),
    water first."""
    found = {h: control[name] for h, name, *_ in _geometry(hexmap) if name in control}
    found.update(dict.fromkeys(hexmap.water, "water"))
    return found


def view_box(hexmap: HexMap) -> str:
    left, top, right, bottom = hexmap.bounds(SIZE)
    return f"0 0 {round(right - left, 1)} {round(bottom - top, 1)}"


def _num(value: float) -> str:
    """A drawing coordinate to one decimal, without a trailing ".0" (nor a "-0")."""
    text = f"{value + 0.0:.1f}"
    return text[:-2] if text.endswith(".0") else text


# A hex's outline from its west corner, clockwise, in relative moves: every hex of a map has
# the same shape, so only the corner differs from hex to hex (a full map's outlines are most of
# the page, and what the page's gzip spends its time on).
_RISE = f"{SIZE * math.sqrt(3) / 2:.2f}"
_HALF, _WHOLE = _num(SIZE / 2), _num(SIZE)
_OUTLINE = f"l{_HALF}-{_RISE}h{_WHOLE}l{_HALF},{_RISE}-{_HALF},{_RISE}h-{_WHOLE}z"


@dataclass(frozen=True)
class _HexMarkup:
    """A map's hexes as markup, in the map's order: what the hexes' links and outlines are for
    a zoom and link suffix, the same for every state of the map."""

    hexes: tuple[Hex, ...]
    heads: tuple[str, ...]  # the link and the outline up to its class
    tails: tuple[str, ...]  # from after the class to the end of the link (and the name)
    marks: dict[Hex, str]  # the control mark's square as a path's subpath
    fires: dict[Hex, str]  # the fire mark


_KEPT = 8  # link suffixes (zoom, the perimeter read after the CG's end) kept per map


def _markup(hexmap: HexMap, zoom: int, href: str, names: bool) -> _HexMarkup:
    """Worked out once per map, zoom, link suffix and process (the last few kept)."""
    kept = hexmap.shared.setdefault(("svg", SIZE), {})
    key = (zoom, href, names)
    found = kept.get(key)
    if found is not None:
        return found
    hexes, heads, tails, marks, fires = [], [], [], {}, {}
    for h, name, _points, corners, centre in _geometry(hexmap):
        name = escape(name)
        link = f"?hex={name}{href}"
        x, y = centre
        hexes.append(h)
        heads.append(f'<a href="{link}"><title>{name}</title><path id="h-{name}" class="hex ')
        west = f"{_num(corners[0][0])},{_num(corners[0][1])}"
        tail = f'" d="M{west}{_OUTLINE}"/></a>'
        if names and zoom > 1:
            tail += f'<text class="hex-name" x="{_num(x)}" y="{int(y) - 5}">{name}</text>'
        tails.append(tail)
        marks[h] = f"M{int(x) - 2} {int(y) - 2}h4v4h-4z"
        fires[h] = f'<circle class="fire" cx="{int(x) + 4}" cy="{_num(y)}" r="1.5"/>'
    found = _HexMarkup(tuple(hexes), tuple(heads), tuple(tails), marks, fires)
    while len(kept) >= _KEPT:
        kept.pop(next(iter(kept), None), None)  # the oldest (another thread may race us)
    kept[key] = found
    return found


def svg_map(
    hexmap: HexMap,
    status: Mapping[Hex, str],
    side_keys: Sequence[str],
    *,
    control: Mapping[Hex, str] | None = None,
    fires: Iterable[Hex] = (),
    overlay: Picture | None = None,
    zoom: int = 1,
    href: str = "",
    changed: Collection[Hex] | None = None,
) -> str:
    """The map as the page's SVG markup (inside its ``<svg>``): each hex a link choosing it
    (its outline classed by its ``status``: a side, "nml", "isolated", "water" or none), then
    each side's control marks (``control``: one path a side), fires, and the ``overlay``'s
    marker arrows, drawn front lines, unit ids, isolated-area letters and non-ground pocket
    circles. ``href`` is what the hex links add after ``?hex=NAME`` (e.g. ``&amp;zoom=2``); at a
    zoom above 1 each hex shows its name. With ``changed`` (a scenario end's map) only the
    hexes are drawn, those changed classed "changed".

    Written here, not in a template loop (a full map has 1,700–2,900 hexes); what is the same
    for every state of a map (the links, outlines, names) is kept per map and process as
    finished text, and a hex outline is a corner and the same relative moves; a link's name
    (and tooltip) is its ``<title>``. Only hex names, unit ids and labels are text: all
    escaped."""
    first = side_keys[0] if side_keys else None
    second = side_keys[1] if len(side_keys) > 1 else None
    markup = _markup(hexmap, zoom, href, changed is None)
    css = {key: escape(key) for key in set(status.values())}
    css.update({first: "side-0", second: "side-1", "": ""})
    get = status.get
    out = ['<g hx-target="#selection" hx-swap="outerHTML">']
    if changed is None:
        out += [
            f"{head}{css[get(h, '')]}{tail}"
            for h, head, tail in zip(markup.hexes, markup.heads, markup.tails, strict=True)
        ]
    else:
        out += [
            f"{head}{css[get(h, '')]}{' changed' if h in changed else ''}{tail}"
            for h, head, tail in zip(markup.hexes, markup.heads, markup.tails, strict=True)
        ]
    out.append("</g>\n")

    def side_class(prefix: str, side: str) -> str:
        return f"{prefix}-0" if side == first else f"{prefix}-1"

    if control:
        squares: dict[str, list[str]] = {side: [] for side in set(control.values()) if side}
        get = control.get
        for h, mark in markup.marks.items():  # in the map's order
            side = get(h)
            if side:
                squares[side].append(mark)
        # The first side's marks, then the other's (any other side key is drawn as the second).
        for side, marks in sorted(squares.items(), key=lambda item: item[0] != first):
            if marks:
                out.append(f'<path class="{side_class("ctl", side)}" d="{"".join(marks)}"/>\n')
    out += [markup.fires[h] for h in hexmap.sorted(set(fires)) if h in markup.fires]
    if overlay is None:
        return "".join(out)
    add = out.append
    for kind, lines in (("arrow", overlay.arrows), ("border", overlay.borders)):
        for line in lines:
            add(
                f'<line class="{side_class(kind, line.side)}" x1="{line.x1}" y1="{line.y1}" '
                f'x2="{line.x2}" y2="{line.y2}"/>'
            )
    for label in overlay.units:
        add(
            f'<text class="unit {side_class("unit", label.side)}" x="{label.x}" y="{label.y}">'
            f"{escape(label.text)}</text>"
        )
    for label in overlay.areas:
        add(f'<text class="area-type" x="{label.x}" y="{label.y}">{escape(label.text)}</text>')
    for label in overlay.pockets:
        add(
            f'<circle cx="{label.x}" cy="{label.y}" r="2.5" fill="none" stroke="#555" '
            f'stroke-width=".4"/><text class="hex-name" x="{label.x}" y="{int(label.y) + 1}">'
            f"{escape(label.text)}</text>"
        )
    return "".join(out)
