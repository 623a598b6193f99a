"""Where each side's units stand for the perimeter (11.605): entered by hand, secret to their
side and the referee until the side declares them; every change with its history event."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.history import services as history
from campaigns.state import StateError
from refit.models import PerimeterState, PerimeterUnits
from refit.perimeters.changes import check_version
from refit.perimeters.state import hex_map, parse_hexes, terrain_of
from refit.rules.perimeter.board import MMC, SMC, TRUCK, UNIT_KINDS, VEHICLE


def _locked_unit_row(state: PerimeterState, side: str) -> PerimeterUnits:
    row, _created = PerimeterUnits.objects.select_for_update(of=("self",)).get_or_create(
        state=state, side=side, defaults={"campaign": state.campaign}
    )
    return row


def _save_units(
    state: PerimeterState,
    row: PerimeterUnits,
    by: AbstractBaseUser,
    version: int,
    action: str,
    fields: dict[str, Any],
    **data: Any,
) -> None:
    check_version(row, version)
    # Secret to the side until declared; the declaring itself is public.
    visibility = PUBLIC if row.declared or fields.get("declared") else row.side
    before = history.snapshot(row)
    for name, value in fields.items():
        setattr(row, name, value)
    row.version += 1
    row.save()
    history.record_change(
        state.campaign,
        by,
        action,
        visibility=visibility,
        changes=[(row, before, history.snapshot(row))],
        side=row.side,
        index=state.index,
        **data,
    )


DEFAULT_LABELS = {MMC: "MMC", VEHICLE: "AFV", SMC: "SMC", TRUCK: "truck"}


def add_units(
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    text: str,
    kind: str,
    label: str,
    level: int,
) -> list[str]:
    if kind not in UNIT_KINDS:
        raise StateError(_("Choose what kind of unit it is."))
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    label = label.strip() or DEFAULT_LABELS[kind]
    with transaction.atomic():
        row = _locked_unit_row(state, side)
        taken = {u["id"] for u in row.units}
        units = list(row.units)
        for name in names:
            unit_id = f"{label} {name}" if f"{label} {name}" not in taken else f"{label} {name}'"
            taken.add(unit_id)
            units.append({"id": unit_id, "kind": kind, "hex": name, "level": level})
        _save_units(state, row, by, version, "perimeter.units", {"units": units}, hexes=names)
    return names


def remove_units(
    state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int, text: str
) -> list[str]:
    hexmap = hex_map(state.campaign, terrain_of(state.campaign))
    names = parse_hexes(hexmap, text)
    with transaction.atomic():
        row = _locked_unit_row(state, side)
        units = [u for u in row.units if u["hex"] not in names]
        _save_units(
            state, row, by, version, "perimeter.units_removed", {"units": units}, hexes=names
        )
    return names


@transaction.atomic
def declare_units(state: PerimeterState, side: str, *, by: AbstractBaseUser, version: int) -> None:
    """Make the side's entered units public (they are on the map; hidden ones are not entered)."""
    row = _locked_unit_row(state, side)
    if row.declared:
        raise StateError(_("These units are already declared."))
    _save_units(state, row, by, version, "perimeter.declared", {"declared": True})
