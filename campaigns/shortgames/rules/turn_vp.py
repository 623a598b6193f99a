"""A turn's recorded VP stay true to the record (pure, no Django; issue 22).

The VP at a turn's end (``TurnVictoryPoints``) are the victory page's figures as the turn marker
advanced; they depend on the places, the units and the game's record at that moment, which no
later page can rebuild. So an undo may not change what a turn's recorded VP were computed
from: a change made before a turn ended, to the rows the victory page reads, is taken back only
after the turn marker's advance (and what came after it) is — the advance then takes its VP
with it. Which rows the victory page reads: ``campaigns.shortgames.pages.victory.victory_of``
(the units, the places' control, the game's own record: options, the pocket, the ticked
conditions); the turn number changes with the advance alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns.games.rules import Reason

# The rows (model labels, as the history's undo steps name them) the victory page reads.
VP_SOURCES = frozenset({"campaigns.gameunit", "campaigns.controlpoint", "campaigns.shortgame"})

RULE = ""  # the app's own rule: the report's figures equal the record (issue 22)


def undo_keeps_turn_vp(touched: Iterable[str], turns_ended_since: Iterable[int]) -> Reason | None:
    """Whether taking back a change that touched the rows ``touched`` leaves every recorded turn
    VP true: refused (the first and the last turn ended since, with VP recorded) when the change
    touched what the VP are computed from and a turn ended since with its VP recorded; None
    when the undo may go ahead."""
    if not VP_SOURCES.intersection(touched):
        return None
    ended = sorted(set(turns_ended_since))
    if not ended:
        return None
    return Reason("turn_vp_recorded", RULE, {"first": ended[0], "last": ended[-1]})
