"""Cherkassy Pocket: odds, columns and shifts, the CRT (11.6-11.9)."""

import pytest

from campaigns.shortgames.rules.cherkassy.combat import column_shift, crt_result, odds, odds_column


def test_odds_examples():
    assert odds(26, 7) == "3:1"  # 11.6 [L377]
    assert odds(5, 11) == "1:3"  # [L381]
    assert odds(7, 7) == "1:1"
    assert odds(6, 7) == "1:2"


def test_odds_column_clamps_and_shifts(game):
    assert odds_column(10, 2, 2, game) == "7:1"  # 11.8 [L383]: 5:1, R3 L1 → 7:1
    assert odds_column(20, 2, -1, game) == "6:1"  # 10:1 → 7:1, then one left
    assert odds_column(1, 9, 1, game) == "1:3"  # 1:9 → 1:4, then one right
    assert odds_column(1, 9, -2, game) == "1:4"
    with pytest.raises(ValueError):
        odds(0, 3)


def test_column_shifts(tables):
    assert column_shift(["prepared_attack", "air"], tables)[0] == 2
    net, rules = column_shift(["stream", "fortified_line", "fortified_line_and_stream"], tables)
    assert (net, rules) == (-2, ("11.15",))
    with pytest.raises(ValueError, match="terrain"):
        column_shift(["terrain"], tables)


def test_crt_only_the_printed_cell_without_the_referee(game):
    assert crt_result("2:1", 4, {}, game) == {"attacker_steps": 1, "defender_steps": 1}
    assert crt_result("2:1", 3, {}, game) is None
    crt = {"3:1": {"2": {"attacker_steps": 0, "defender_steps": 2}}}
    assert crt_result("3:1", 2, {"cp.crt": crt}, game) == {
        "attacker_steps": 0,
        "defender_steps": 2,
    }


def test_the_prepared_attack_shift_follows_the_declared_order():
    from campaigns.shortgames.rules.cherkassy.combat import prepared_attack

    # 11.27: combat first gives every attack of the segment one column right, ticked or not.
    assert prepared_attack("combat_first", False, 1) == (True, None)
    assert prepared_attack("combat_first", True, 1) == (True, None)
    # Movement first (or nothing declared): no shift, and a tick is refused naming 11.27.
    assert prepared_attack("move_first", False, 2) == (False, None)
    applies, refused = prepared_attack("move_first", True, 2)
    assert not applies and refused.rule == "11.27"
    assert "activation segment 2" in refused.in_language("en")
    assert prepared_attack("", True, 1)[1] is not None
    # At no activation segment the player's tick stands.
    assert prepared_attack(None, True) == (True, None)
    assert prepared_attack(None, False) == (False, None)
