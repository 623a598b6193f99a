"""11.6057 non-ground pockets where the perimeter's own data decide them.

RF 11.6057 (spec L1187) and SaP 11.6057 (spec §8.5): an MMC on an upper building level (or in
an RF cellar) is in a pocket when it cannot reach ground level in its building hex but through
an enemy-controlled Location or one with a fire (Blaze), or when no usable stairs exist. The
app knows each hex's ground-level control marker and its fire, not stairwells nor who holds
the other upper Locations nor how far a building reaches. So the one case it decides is the
rules' own example ("one side controls the ground level, the other holds levels 1 and 2 with an
MMC → levels 1+2 form one pocket"): a side's MMC off ground level in a hex whose ground level
the other side controls, or that burns. Its Locations in that hex form one pocket; upper levels
and the cellar are separate pockets (ground level lies between them). Every other case stays
the players' entry (one action per unit on the page)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from refit.rules.hexgrid import Hex
from refit.rules.perimeter.board import MMC, NonGroundPocket, Unit


def level_label(levels: Iterable[int]) -> str:
    """The circled number on the reduced map: "1", "1-2", "-1"."""
    found = sorted(set(levels))
    if len(found) == 1:
        return str(found[0])
    return f"{found[0]}-{found[-1]}"


def derived_pockets(
    control: Mapping[Hex, str],
    fires: Collection[Hex],
    units: Iterable[Unit],
    entered: Iterable[NonGroundPocket] = (),
) -> tuple[NonGroundPocket, ...]:
    """The non-ground pockets the data decide (see the module), in hex order of appearance;
    none where the players entered a pocket for that side in that hex already."""
    taken = {(p.side, h) for p in entered for h in p.hexes}
    found: dict[tuple[str, Hex, bool], set[int]] = {}
    for unit in units:
        if unit.kind != MMC or unit.level == 0 or (unit.side, unit.hex) in taken:
            continue
        ground = control.get(unit.hex, "")
        if unit.hex in fires or (ground and ground != unit.side):
            found.setdefault((unit.side, unit.hex, unit.level > 0), set()).add(unit.level)
    return tuple(
        NonGroundPocket(side, (h,), level_label(levels))
        for (side, h, _upper), levels in found.items()
    )
