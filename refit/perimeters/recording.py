"""This Refit Phase's perimeter kept in the campaign history (11.6066): the public result
(declared units only), whose control is where the next Refit Phase starts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from campaigns.access import Viewer
from refit.models import PerimeterState
from refit.perimeters.changes import check_version, lock_unchanged, write_state
from refit.perimeters.state import Computation, compute, read_versions, terrain_of, unit_rows


def record(viewer: Viewer, state: PerimeterState, *, by: AbstractBaseUser, version: int) -> None:
    """Keep the public result in the history. It is computed before the write transaction
    opens and written only if nothing it read changed since."""
    check_version(state, version)
    terrain, rows = terrain_of(viewer.campaign), unit_rows(state)
    read = read_versions(None, state, terrain, rows)
    snapshot = public_snapshot(compute(None, state, terrain, rows))
    with transaction.atomic():
        locked = lock_unchanged(None, state, read)
        write_state(locked, by, "perimeter.recorded", {"recorded": snapshot}, **summary(snapshot))


def public_snapshot(computation: Computation) -> dict[str, Any]:
    hexmap, result = computation.hexmap, computation.result
    return {
        "control": {hexmap.name(h): s for h, s in result.control.items()},
        "perimeter_area": {
            side: hexmap.names(r.perimeter_area) for side, r in result.sides.items()
        },
        "front_line": {side: hexmap.names(r.front_line) for side, r in result.sides.items()},
        "nml": hexmap.names(result.nml),
        "isolated_areas": [
            {"type": a.type, "hexes": hexmap.names(a.hexes), "nml": a.became_nml}
            for a in result.isolated_areas
        ],
        "ammunition_shortage": [
            {"side": u.side, "id": u.id, "hex": hexmap.name(u.hex)}
            for u in result.ammunition_shortage
        ],
        "smc_eliminated": [
            {"side": u.side, "id": u.id, "hex": hexmap.name(u.hex)} for u in result.smc_eliminated
        ],
    }


def summary(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {
        "areas": {side: len(hexes) for side, hexes in snapshot["perimeter_area"].items()},
        "types": "".join(sorted(a["type"] for a in snapshot["isolated_areas"] if not a["nml"])),
    }
