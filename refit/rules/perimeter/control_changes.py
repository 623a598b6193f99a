"""A scenario's control changes (11.605): the next Refit Phase's perimeter starts from the last
perimeter's control changed by what the scenarios since recorded, and the hexes along the front
where such changes happen. Plain data: control is ``{hex name: side}`` (a hex without a control
marker is absent), a change ``{"hex", "from", "to"}`` with "" for no control marker."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from refit.rules.hexgrid import HexError, HexMap


def apply_changes(control: Mapping[str, str], changes: Iterable[Mapping[str, str]]) -> dict:
    """``control`` after the changes, in order (a later change of a hex wins)."""
    result = dict(control)
    for change in changes:
        if change["to"]:
            result[change["hex"]] = change["to"]
        else:
            result.pop(change["hex"], None)
    return result


def front_hexes(hexmap: HexMap, control: Mapping[str, str]) -> list[str]:
    """The hexes along the front, in map order: a controlled hex next to a hex the other side
    controls, and a hex without a marker next to hexes of both sides. Where a scenario changes
    control it is almost always here, so the scenario's end offers these to choose from."""
    owner = {}
    for name, side in control.items():
        try:
            owner[hexmap.hex(name)] = side
        except HexError:  # a stored name the configured map no longer has
            continue
    front = []
    for h, around in hexmap.adjacency.items():
        mine = owner.get(h, "")
        sides = {owner[n] for n in around if n in owner}
        if (mine and sides - {mine}) or (not mine and len(sides) >= 2):
            front.append(h)
    return hexmap.names(hexmap.sorted(front))


def change_list(
    entries: list[Mapping[str, str]], base: Mapping[str, str], names: list[str], side: str
) -> list[dict[str, str]]:
    """The record's entries once ``names`` are set to ``side`` ("" no marker): one entry per
    hex, "from" the control before the scenario; a hex set back to it leaves the record."""
    kept = {e["hex"]: dict(e) for e in entries}
    for name in names:
        before = base.get(name, "")
        if side == before:
            kept.pop(name, None)
        else:
            kept[name] = {"hex": name, "from": before, "to": side}
    return list(kept.values())
