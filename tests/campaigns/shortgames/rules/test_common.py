"""What the short games' rules share."""

from campaigns.shortgames.rules.common import count_hits


def test_count_hits():
    assert count_hits([1, 5, 6, 6], (6,)) == 2
    assert count_hits([1, 5, 6, 6], (5, 6)) == 3
    assert count_hits([], (6,)) == 0
