"""RF 11.32 CG Scenario Balance, tested at every boundary of its wording.

Seed 003 L514: 3回以上 … 勝利が1/3以下 → −1; L516: 4回以上 … 1/4以下 → −2 ("以上" ≥, "以下" ≤).
"""

import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.records.balance import scenario_balance_drm, win_loss


def record(played: int, soviet_wins: int) -> list[str]:
    """``played`` completed scenarios, the Soviet winning ``soviet_wins`` of them."""
    return ["soviet"] * soviet_wins + ["german"] * (played - soviet_wins)


@pytest.mark.parametrize(
    ("played", "wins", "drm"),
    [
        # Fewer than 3 completed: never a DRM, however badly it goes.
        (0, 0, 0),
        (1, 0, 0),
        (2, 0, 0),
        (2, 1, 0),
        (2, 2, 0),
        # 3 completed: 1/3 or less → −1 (there is no −2 below 4 scenarios).
        (3, 0, -1),
        (3, 1, -1),  # exactly 1/3 counts ("以下")
        (3, 2, 0),
        # 4 completed: 1/4 or less → −2.
        (4, 0, -2),
        (4, 1, -2),  # exactly 1/4 counts
        (4, 2, 0),  # 1/2
        # 5 completed.
        (5, 0, -2),
        (5, 1, -2),  # 1/5
        (5, 2, 0),  # 2/5 is more than 1/3
        # 6 and 7 completed: the −1 tier with 4 or more played.
        (6, 1, -2),
        (6, 2, -1),  # exactly 1/3, more than 1/4
        (7, 2, -1),  # 2/7
        (7, 3, 0),
        # 8 completed.
        (8, 0, -2),
        (8, 1, -2),
        (8, 2, -2),  # exactly 1/4
        (8, 3, 0),  # 3/8 is more than 1/3
        # 9 and 12 completed: the thirds and quarters once more.
        (9, 3, -1),
        (9, 4, 0),
        (12, 3, -2),
        (12, 4, -1),
        (12, 5, 0),
    ],
)
def test_the_drm_follows_the_win_loss_record(played, wins, drm):
    assert scenario_balance_drm(record(played, wins), "soviet") == drm


def test_each_side_is_judged_on_its_own_record():
    winners = record(4, 1)
    assert scenario_balance_drm(winners, "soviet") == -2
    assert scenario_balance_drm(winners, "german") == 0


def test_only_scenarios_with_a_winner_count_as_completed():
    # Two decided, two still open: fewer than 3 completed.
    assert scenario_balance_drm(["german", "german", "", ""], "soviet") == 0
    # Three decided and one open: the −1 tier, not yet −2.
    assert scenario_balance_drm(["german", "german", "german", ""], "soviet") == -1


def test_the_order_of_the_results_does_not_matter():
    assert scenario_balance_drm(["soviet", "german", "german"], "soviet") == -1
    assert scenario_balance_drm(["german", "german", "soviet"], "soviet") == -1


def test_win_loss_counts_only_decided_scenarios():
    assert win_loss(["german", "", "soviet", "german"], "german") == (2, 1)
    assert win_loss(["german", "", "soviet", "german"], "soviet") == (1, 2)
    assert win_loss([], "german") == (0, 0)


def test_the_rule_needs_no_django():
    code = (
        "import sys, campaigns.records.balance as b; "
        "assert b.scenario_balance_drm(['german'] * 4, 'soviet') == -2; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[3])
