"""How a table's result changes a value on the CG Roster (pure)."""

from __future__ import annotations


def changed_within(current: int, change: int, low: int | None, high: int | None) -> int:
    """``current`` moved by ``change``, held within [low, high] (None: no limit) — e.g. RF 11.617:
    ELR +1 to at most 4, −1 to at least 0. A value already beyond a limit is not pulled back
    by a change that does not move it."""
    new = current + change
    if change > 0 and high is not None:
        new = min(new, max(high, current))
    if change < 0 and low is not None:
        new = max(new, min(low, current))
    return new
