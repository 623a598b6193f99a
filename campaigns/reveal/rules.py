"""The campaign's end and its reveal — pure rules over plain data (issue 22).

At the CG's end the referee reveals the campaign; without a referee a seated player of each
side agrees, and the campaign is revealed once every side has (the agree pattern of
``campaigns.members.consent``: an agreement counts while the one who gave it still plays that
side). From then on ``campaigns.access`` opens both sides to every member and the campaign is
read-only except for notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.members.consent import Seat

PLAYER = "player"


def cg_over(
    *,
    has_refit: bool,
    phases: int,
    open_phases: int,
    turn: int,
    turns: int,
    last_day_won: bool = False,
) -> bool:
    """Is the campaign game over? The one reading of "the CG is over", used by the reveal and by
    the CG victory page (campaigns.records.cg_victory_page).

    A Refit-Phase game (RF, SaP) is over once no Refit Phase (or scenario phase) is open and
    either it has had phases and the step engine opened nothing after the last one finished
    (finishing the last CG day's, or one with CG victory recorded, opens nothing:
    ``campaigns.games.step_engine.next_position``; a last day that was an Idle Day included),
    or the last CG day's scenario has its winner recorded (``last_day_won``: a campaign kept
    without the Refit Phase walker). A short game, whose turns simply stop, is over when its
    last turn is reached (its players call the end there)."""
    if has_refit:
        if open_phases:
            return False
        return phases > 0 or last_day_won
    return turn >= turns - 1


def sides_missing(
    sides: Iterable[str], consents: Mapping[str, int], seats: Iterable[Seat]
) -> frozenset[str]:
    """Without a referee: the sides whose agreement to the reveal is still missing — a side
    with seated players and no agreement from one of them who still plays it. A side nobody
    plays has nobody to ask."""
    seats = list(seats)
    missing = set()
    for side in sides:
        players = {seat.user for seat in seats if seat.role == PLAYER and seat.side == side}
        if players and consents.get(side) not in players:
            missing.add(side)
    return frozenset(missing)
