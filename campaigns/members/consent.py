"""Who must agree before a seat sees a side's secrets — pure rules over plain data.

A seat *sees* a side when it is that side's player seat or the referee's (who sees every side).
Nobody can give themselves sight of the other side, not even through a second account or a
member they move: a seat that would see a side it does not see yet opens only once a seated
player of that side (someone else than the member asking) has agreed. A side without a seated
player has nobody to ask and no secrets kept from anyone yet; whoever joins it later sees on the
members page who already sees it, and since when.

See docs/decisions.md ("A seat that sees a side opens with that side's consent").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

PLAYER = "player"
REFEREE = "referee"


@dataclass(frozen=True)
class Seat:
    """A member's current (open) seat: their user id, role and side ("" unless a player)."""

    user: int
    role: str
    side: str = ""


def sides_seen(role: str, side: str, sides: Iterable[str]) -> frozenset[str]:
    """The sides whose secrets a seat sees: the referee every side, a player their own."""
    if role == REFEREE:
        return frozenset(sides)
    if role == PLAYER and side:
        return frozenset({side})
    return frozenset()


def consenters(side: str, seats: Iterable[Seat], *, applicant: int) -> frozenset[int]:
    """Who may agree for ``side``: its seated players, never the member asking."""
    return frozenset(
        seat.user
        for seat in seats
        if seat.role == PLAYER and seat.side == side and seat.user != applicant
    )


def consent_needed(
    applicant: Seat, role: str, side: str, seats: Iterable[Seat], sides: Iterable[str]
) -> frozenset[str]:
    """The sides that must agree before ``applicant`` takes the seat (``role``, ``side``): each
    side the new seat sees and the applicant's current seat does not, when someone else plays
    it. Empty: the seat opens at once."""
    seats = list(seats)
    new = sides_seen(role, side, sides) - sides_seen(applicant.role, applicant.side, sides)
    return frozenset(s for s in new if consenters(s, seats, applicant=applicant.user))


def consent_missing(
    needed: Iterable[str], consents: Mapping[str, int], seats: Iterable[Seat], *, applicant: int
) -> frozenset[str]:
    """The sides of ``needed`` without an agreement from one of their current consenters (an
    agreement lapses when the one who gave it no longer plays that side)."""
    seats = list(seats)
    return frozenset(
        side
        for side in needed
        if consents.get(side) not in consenters(side, seats, applicant=applicant)
    )


def unseat_refused(actor: Seat, member: Seat, sides: Iterable[str]) -> frozenset[str]:
    """The sides whose consent ``actor`` lacks to remove ``member`` or change their role: each
    side ``member``'s seat sees and ``actor``'s does not. Empty: ``actor`` may do it alone.

    Otherwise someone who does not see a side could empty it of its players (remove or move the
    other side's last player) and then seat a second account there with nobody left to ask. Only
    that side decides: the member leaves themselves (their leaving is their consent), or a
    teammate — someone who sees the side — moves or removes them. The referee sees every side,
    so he may move or remove anyone (it shows him nothing he does not see already)."""
    return sides_seen(member.role, member.side, sides) - sides_seen(actor.role, actor.side, sides)
