"""RF 11.32 CG Scenario Balance: an automatic DRM for a side that keeps losing scenarios.

The rule [seed 003, L512–L516], restated:

* if 3 or more CG scenarios have been completed and a side has won 1/3 or less of them, it
  applies −1 to every CPP Replenishment DR (11.616) and every RG strength DR (11.6201–.6204);
* or, if 4 or more CG scenarios have been completed and it has won 1/4 or less of them, −2.

"以下" in the seed is "or less" (≤) and "以上" "or more" (≥). The two tiers are alternatives: −2
when the second holds, else −1 when the first does (spec §4.2). A scenario counts as completed
once it has a winner; the initial scenario is a CG scenario too.

Fractions are compared in integers (wins × 3 ≤ completed) so that 2 of 6 is exactly 1/3.
"""

from __future__ import annotations

from collections.abc import Sequence


def completed(winners: Sequence[str]) -> list[str]:
    """The winners of the completed scenarios: those that have one (blank = not decided)."""
    return [winner for winner in winners if winner]


def win_loss(winners: Sequence[str], side: str) -> tuple[int, int]:
    """(scenarios won, scenarios lost) by ``side`` among the completed ones."""
    done = completed(winners)
    wins = sum(1 for winner in done if winner == side)
    return wins, len(done) - wins


def scenario_balance_drm(winners: Sequence[str], side: str) -> int:
    """The 11.32 DRM for ``side`` (0, −1 or −2) given every scenario's winner so far."""
    wins, losses = win_loss(winners, side)
    played = wins + losses
    if played >= 4 and wins * 4 <= played:
        return -2
    if played >= 3 and wins * 3 <= played:
        return -1
    return 0
