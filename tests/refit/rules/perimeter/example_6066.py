"""The 11.6066 example (RB south-west corner, the shown edges treated as the real ones) as data.

Columns A–M; odd columns (A, C, …) run from row 38, even ones (B, D, …) sit half a hex lower and
run from row 37; every column ends at row 45. What the example's figure shows is restated from
its text: the control markers that anchor each marker, the units and the two upper-level pockets.
"""

from refit.rules.hexgrid import HexMap, Section
from refit.rules.perimeter.board import (
    MAIN,
    MMC,
    POCKET,
    SMC,
    VEHICLE,
    Board,
    Marker,
    NonGroundPocket,
    Unit,
)

GERMAN, SOVIET = "german", "soviet"

MAP = HexMap(
    key="rb-6066",
    sections=(
        Section(
            prefix="RB",
            first_column=1,
            last_column=13,
            lower_columns="even",
            rows_higher=(38, 45),
            rows_lower=(37, 45),
        ),
    ),
)


def hexes(text: str) -> list:
    return MAP.parse_list(text)


def h(name: str):
    return MAP.hex(name)


def control() -> dict:
    marks = {}
    german = "A41-A45 A45-B45-M45 M44 L43 J41 G42 F42 B42 J38 G43"
    soviet = "A38-A40 A38-B37-M38 M39-M43 K41 G41 C41 C42 I44"
    for cell in hexes(german):
        marks[cell] = GERMAN
    for cell in hexes(soviet):
        marks[cell] = SOVIET
    return marks


UNITS = (
    Unit("4-6-7 A", GERMAN, MMC, h("H41")),
    Unit("T-70", SOVIET, VEHICLE, h("H42")),
    Unit("4-4-7 C", SOVIET, MMC, h("H44")),
    Unit("5-2-7 D", SOVIET, MMC, h("G43"), level=1),
    Unit("4-4-7 T", SOVIET, MMC, h("H41"), level=1),
    Unit("9-0 commissar", SOVIET, SMC, h("I45")),
)


def board() -> Board:
    return Board(
        map=MAP,
        sides=(GERMAN, SOVIET),
        control=control(),
        units=UNITS,
        non_ground_pockets=(
            NonGroundPocket(SOVIET, (h("G43"),), "1"),
            NonGroundPocket(SOVIET, (h("H41"),), "1"),
        ),
    )


def marker(side: str, notation: str, kind: str = MAIN) -> Marker:
    """ "G42 – H41 → J41" or "L43 → M44"."""
    start, target = (part.strip() for part in notation.split("→"))
    via = None
    if "–" in start:
        start, via = (part.strip() for part in start.split("–"))
    return Marker(side, h(start), h(target), h(via) if via else None, kind=kind)


GERMAN_MARKERS = [
    marker(GERMAN, text)
    for text in (
        "L43 → M44",
        "J41 – K42 → L43",
        "G42 – H41 → J41",
        "F42 → G42",
        "B42 – C43 → F42",
        "B42 – B41 → A41",
    )
]
SOVIET_MARKERS = [
    marker(SOVIET, text)
    for text in (
        "K41 – L41 → M43",
        "G41 – H40 → K41",
        "C41 – D41 → G41",
        "C42 → C41",
        "C42 – B41 → A40",
    )
]
POCKET_MARKERS = [
    marker(SOVIET, "H42 – H43 → I44", POCKET),
    marker(SOVIET, "I44 – H43 → H42", POCKET),
    marker(SOVIET, "H44 → I44", POCKET),
]
ILLEGAL_POCKET_MARKERS = [
    marker(SOVIET, "H44 → H42", POCKET),
    marker(SOVIET, "I41 – I42 → H42", POCKET),
]
