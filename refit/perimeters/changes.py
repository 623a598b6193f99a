"""The players' changes to the perimeter (11.605–11.6057): control markers, water, fires,
perimeter markers, proposals and non-ground pockets, each with its history event (the units
are in ``units``).

Everything a change needs is read and worked out first; the write is one short transaction
that locks the row, refuses a form older than the row (``StaleEdit``) and records the event.
On SQLite a write transaction holds the whole database, so nothing slow runs inside one: a
proposal searches before its transaction opens and writes only if what it read is unchanged.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer
from campaigns.history import services as history
from campaigns.models import Campaign
from campaigns.state import StaleEdit, StateError
from refit.models import MapTerrain, PerimeterState, PerimeterUnits
from refit.perimeters.state import (
    base_map,
    board,
    hex_map,
    notation,
    parse_hexes,
    read_versions,
    terrain_of,
    unit_rows,
    visible_units,
)
from refit.rules.hexgrid import HexError, HexMap
from refit.rules.perimeter import proposal
from refit.rules.perimeter.board import MAIN, POCKET


def check_version(obj: Any, version: int) -> None:
    if obj.version != version:
        raise StaleEdit


def lock_unchanged(viewer: Viewer | None, state: PerimeterState, read: tuple) -> PerimeterState:
    """Inside a write transaction, after a computation that ran outside it: the state, the
    campaign's terrain and the unit rows locked, and StaleEdit if anything the computation read
    (``read_versions``) changed meanwhile."""
    locked = PerimeterState.objects.select_for_update(of=("self",)).get(pk=state.pk)
    terrain = (
        MapTerrain.objects.select_for_update(of=("self",))
        .filter(campaign_id=locked.campaign_id)
        .first()
    )
    rows = PerimeterUnits.objects.select_for_update(of=("self",)).filter(state=locked)
    if read_versions(viewer, locked, terrain, {row.side: row for row in rows}) != read:
        raise StaleEdit
    return locked


def write_state(
    locked: PerimeterState,
    by: AbstractBaseUser,
    action: str,
    fields: dict[str, Any],
    *,
    visibility: str = PUBLIC,
    **data: Any,
) -> None:
    """Write the fields on a locked, checked state and record the event (in the caller's
    transaction)."""
    before = history.snapshot(locked)
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.version += 1
    locked.save()
    history.record_change(
        locked.campaign,
        by,
        action,
        visibility=visibility,
        changes=[(locked, before, history.snapshot(locked))],
        index=locked.index,
        **data,
    )


def save_state(
    state: PerimeterState,
    by: AbstractBaseUser,
    action: str,
    version: int,
    fields: dict[str, Any],
    *,
    visibility: str = PUBLIC,
    **data: Any,
) -> None:
    """One short transaction: lock the state, refuse a stale form, write, record."""
    with transaction.atomic():
        locked = PerimeterState.objects.select_for_update(of=("self",)).get(pk=state.pk)
        check_version(locked, version)
        write_state(locked, by, action, fields, visibility=visibility, **data)


def set_control(
    viewer: Viewer,
    state: PerimeterState,
    *,
    by: AbstractBaseUser,
    version: int,
    text: str,
    side: str,
) -> list[str]:
    """Control markers on the hexes (``side`` "" removes them). A player places and removes
    their own side's markers; the referee anyone's."""
    control, names = controlled(viewer, state, text=text, side=side)
    save_state(
        state, by, "perimeter.control", version, {"control": control}, side=side, hexes=names
    )
    return names


def controlled(
    viewer: Viewer, state: PerimeterState, *, text: str, side: str
) -> tuple[dict[str, str], list[str]]:
    """The control markers after this change and the hexes it names, nothing saved (what
    ``set_control`` saves, and what the initial control's preview shows)."""
    campaign = viewer.campaign
    hexmap = hex_map(campaign, terrain_of(campaign))
    names = parse_hexes(hexmap, text)
    if side and side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    if side and not viewer.can_act_for_side(side):
        raise StateError(_("A player places their own side's control markers."))
    control = dict(state.control)
    for name in names:
        owner = control.get(name, "")
        if not side and owner and not viewer.can_act_for_side(owner):
            raise StateError(_("Only the referee may remove the other side's control markers."))
        if side:
            control[name] = side
        else:
            control.pop(name, None)
    return control, names


def set_water(
    campaign: Campaign, *, by: AbstractBaseUser, version: int, text: str, water: bool
) -> list[str]:
    """Mark (or unmark) water-obstacle hexes: map data kept for every later Refit Phase."""
    names = parse_hexes(base_map(campaign), text)
    with transaction.atomic():
        terrain, created = MapTerrain.objects.select_for_update(of=("self",)).get_or_create(
            campaign=campaign
        )
        check_version(terrain, version)
        before = history.snapshot(terrain) if not created else None
        current = [n for n in terrain.water if n not in names]
        terrain.water = current + names if water else current
        terrain.version += 1
        terrain.save()
        history.record_change(
            campaign,
            by,
            "perimeter.water",
            visibility=PUBLIC,
            changes=[(terrain, before, history.snapshot(terrain))],
            hexes=names,
            water=water,
        )
    return names


def set_fires(
    state: PerimeterState, *, by: AbstractBaseUser, version: int, text: str, burning: bool
) -> list[str]:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    fires = [n for n in state.fires if n not in names] + (names if burning else [])
    save_state(
        state, by, "perimeter.fires", version, {"fires": fires}, hexes=names, burning=burning
    )
    return names


# --- perimeter markers and pockets -------------------------------------------------------------


def marker_entry(
    hexmap: HexMap, side: str, origin: str, via: str, target: str, kind: str
) -> dict[str, Any]:
    try:
        entry = {
            "side": side,
            "hex": hexmap.name(hexmap.hex(origin)),
            "via": hexmap.name(hexmap.hex(via)) if via.strip() else "",
            "target": hexmap.name(hexmap.hex(target)),
            "kind": kind if kind in (MAIN, POCKET) else MAIN,
        }
    except HexError as error:
        raise StateError(_("“%(text)s” is not a hex of this map.") % {"text": error.text}) from None
    return entry


def add_marker(
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    origin: str,
    via: str,
    target: str,
    kind: str,
) -> dict[str, Any]:
    """Place a marker even when illegal: the page says why at once and the players fix it."""
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    entry = marker_entry(hexmap, side, origin, via, target, kind)
    if entry in state.markers:
        raise StateError(_("That marker is already placed."))
    save_state(
        state,
        by,
        "perimeter.marker_added",
        version,
        {"markers": [*state.markers, entry]},
        side=side,
        marker=notation(entry),
    )
    return entry


def remove_marker(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, position: int
) -> None:
    entries = list(state.markers)
    if not 0 <= position < len(entries) or entries[position]["side"] != side:
        raise StateError(_("That marker is not there any more."))
    removed = entries.pop(position)
    save_state(
        state,
        by,
        "perimeter.marker_removed",
        version,
        {"markers": entries},
        side=side,
        marker=notation(removed),
    )


def propose_markers(
    viewer: Viewer, state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int
) -> int:
    """Replace the side's 11.6054 markers by a proposal (pocket markers stay).

    The search takes a while on a full map: it runs before the write transaction opens, on the
    state the form showed, and the proposal is written only if nothing it read changed since."""
    check_version(state, version)
    campaign = viewer.campaign
    terrain = terrain_of(campaign)
    rows = unit_rows(state)
    read = read_versions(viewer, state, terrain, rows)
    hexmap = hex_map(campaign, terrain)
    found = proposal.propose(board(campaign, state, hexmap, visible_units(viewer, rows)), side)
    entries = [
        {
            "side": side,
            "hex": hexmap.name(m.hex),
            "via": hexmap.name(m.via) if m.via else "",
            "target": hexmap.name(m.target),
            "kind": MAIN,
        }
        for m in found
        if m.target is not None
    ]
    with transaction.atomic():
        locked = lock_unchanged(viewer, state, read)
        kept = [m for m in locked.markers if m["side"] != side or m.get("kind") == POCKET]
        write_state(
            locked,
            by,
            "perimeter.proposed",
            {"markers": kept + entries},
            side=side,
            count=len(entries),
        )
    return len(entries)


def add_non_ground_pocket(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, text: str, label: str
) -> None:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    entry = {"side": side, "hexes": names, "label": label.strip() or "1"}
    save_state(
        state,
        by,
        "perimeter.pocket_added",
        version,
        {"non_ground": [*state.non_ground, entry]},
        side=side,
        hexes=names,
    )


def remove_non_ground_pocket(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, position: int
) -> None:
    entries = list(state.non_ground)
    if not 0 <= position < len(entries) or entries[position]["side"] != side:
        raise StateError(_("That pocket is not there any more."))
    removed = entries.pop(position)
    save_state(
        state,
        by,
        "perimeter.pocket_removed",
        version,
        {"non_ground": entries},
        side=side,
        hexes=removed["hexes"],
    )
