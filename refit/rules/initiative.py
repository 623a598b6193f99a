"""RF 11.623 initiative: which chits a side may choose, and what the two chits give (pure)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


def attack_allowed(
    limits: Mapping[str, Any], *, side: str, campaign_game: str, day_number: int, attacks: int
) -> tuple[bool, str]:
    """May ``side`` choose Attack on CG day ``day_number`` (1-based) having chosen ``attacks``
    Attack chits before? (11.6231; the Soviet's cumulative reading, spec Q22.) Returns the
    answer and, when refused, which limit: "per_days" or "per_cg"."""
    side_limits = limits.get(side) or {}
    maximum = (side_limits.get("max_per_cg") or {}).get(campaign_game)
    if campaign_game in (side_limits.get("max_per_cg") or {}) and maximum is None:
        return True, ""  # this CG lifts the limit (RO CG III for the Soviet)
    if maximum is not None and attacks >= maximum:
        return False, "per_cg"
    per_days = side_limits.get("per_cg_days")
    if per_days and attacks >= math.ceil(day_number / per_days):
        return False, "per_days"
    return True, ""


def matrix_cell(matrix: Mapping[str, Any], chits: Mapping[str, str]) -> Mapping[str, Any]:
    """The Initiative Matrix cell for both sides' chits (11.6232)."""
    names = matrix.get("chits") or ()
    for cell in matrix["cells"]:
        # Every side the cell names must be matched: a missing chit matches no cell.
        cell_chits = {side: chit for side, chit in cell.items() if chit in names}
        if cell_chits == dict(chits):
            return cell
    raise ValueError(f"no Initiative Matrix cell for {dict(chits)}")
