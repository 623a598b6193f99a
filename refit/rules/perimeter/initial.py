"""Control at the start of a campaign game, from its initial SSRs (RB CG I/III SSR I.4, RB CG II
II.2, RO CG I I.2, RO CG II II.2, RO CG III III.2; SaP CG-1.1). Plain data in (``maps.json``
``initial_control``), every hex's controller out.

Two shapes:

* ``edge``: the map-edge hexes from ``from`` to ``to`` (the stretch of the edge ring through
  ``via``) belong to ``side``; every other land hex to ``others`` (RB CG I I.4: "all map-edge hexes
  of the German entry area are German-controlled; every other hex is Soviet-controlled").
* ``line``: the perimeter line through the hexes listed ("W1", "W5", … — a name in brackets,
  "(W18)", is the first step of the alternate hexrow to the next hex, as in the 11.6066
  example) and everything on the ``seed`` hex's side of it belong to ``side``; the rest to
  ``others`` (RB CG II II.2: "the Soviet Perimeter Area is every Location east of the German
  perimeter line. There is no NML").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refit.rules.hexgrid import Hex, HexError, HexMap, flood, hexrow


def initial_control(hexmap: HexMap, spec: Mapping[str, Any]) -> dict[Hex, str]:
    """Every land hex's controller at the CG start; HexError when the data names a hex or a
    hexrow this map does not have."""
    side, others = spec["side"], spec["others"]
    if spec["kind"] == "edge":
        own = set(edge_stretch(hexmap, spec["from"], spec["via"], spec["to"]))
    elif spec["kind"] == "line":
        line = line_hexes(hexmap, spec["line"])
        own = line | flood(hexmap.land - line, [hexmap.hex(spec["seed"])])
        if own >= hexmap.land:
            raise HexError("line_open", " – ".join(spec["line"]))  # it cuts the map nowhere
    else:
        raise ValueError(spec["kind"])
    return {h: side if h in own else others for h in hexmap.land}


def edge_stretch(hexmap: HexMap, first: str, via: str, last: str) -> list[Hex]:
    """The map-edge hexes from ``first`` to ``last`` along the edge ring, the way through
    ``via``."""
    a, b, through = hexmap.hex(first), hexmap.hex(via), hexmap.hex(last)
    b, through = through, b
    for ring in hexmap.rings:
        if a not in ring or b not in ring:
            continue
        n = len(ring)
        i, j = ring.index(a), ring.index(b)
        forward = [ring[(i + k) % n] for k in range((j - i) % n + 1)]
        if through in forward:
            return forward
        backward = [ring[(i - k) % n] for k in range((i - j) % n + 1)]
        if through in backward:
            return backward
    raise HexError("not_on_edge", f"{first}–{via}–{last}")


def line_hexes(hexmap: HexMap, names: list[str]) -> set[Hex]:
    """The hexes of a perimeter line: hexrows between the hexes named, a bracketed name being
    the first step of the alternate hexrow that follows."""
    hexes: set[Hex] = set()
    current: Hex | None = None
    via: Hex | None = None
    for name in names:
        if name.startswith("("):
            via = hexmap.hex(name.strip("()"))
            continue
        h = hexmap.hex(name)
        if current is not None:
            path = hexrow(current, h, via)
            if path is None or any(p not in hexmap.cells for p in path):
                raise HexError("bad_range", f"{hexmap.name(current)}–{name}")
            hexes |= set(path)
        hexes.add(h)
        current, via = h, None
    return hexes
