"""What a side's CG Roster row starts a new CG day (RF) or time frame (SaP) with (pure).

RF 11.6121 / SaP 11.6121: the RePh's new-day step starts the new CG day (time frame); the side's
current ELR and SAN are those it ended the previous one with — after that day's own SAN
adjustment (11.6122), ELR change (11.617) and Sniper RGs (M2). RF 11.6122 [L1293] and SaP
11.6122 [L1058]: 「SANが0の陣営は、自動的に2に上がる (CPP消費は不要)」 — a side whose SAN is 0
goes to 2 automatically, without spending CPP.

A value already on the new day's row was written there by a player or the referee: it is never
replaced by the carried one.
"""

from __future__ import annotations

from dataclasses import dataclass

SAN_RAISED_FROM = 0
SAN_RAISED_TO = 2


def san_at_new_day(san: int | None) -> int | None:
    """11.6122: a SAN of 0 rises to 2 (no CPP); any other SAN (or an unknown one) stays."""
    if san == SAN_RAISED_FROM:
        return SAN_RAISED_TO
    return san


@dataclass(frozen=True)
class Ratings:
    """A side's ELR and SAN on one CG day's roster row (None: not written)."""

    elr: int | None
    san: int | None


def carried(previous: Ratings, current: Ratings) -> dict[str, int]:
    """The fields the new day's row takes from the previous day's: each one still empty on the
    new day and known on the previous one; the SAN raised from 0 to 2 on the way (11.6122).
    Empty when there is nothing to carry."""
    fields: dict[str, int] = {}
    if current.elr is None and previous.elr is not None:
        fields["elr"] = previous.elr
    if current.san is None and previous.san is not None:
        fields["san"] = SAN_RAISED_TO if previous.san == SAN_RAISED_FROM else previous.san
    return fields
