"""Cherkassy Pocket: the stacking warnings (8.0)."""

from campaigns.shortgames.rules.cherkassy.stacking import StackUnit, stacking_warnings


def test_three_non_artillery_units(game):
    three = [StackUnit("german") for _ in range(3)]
    assert stacking_warnings(three, game) == []
    warnings = stacking_warnings([*three, StackUnit("german")], game)
    assert [(w.code, w.rule) for w in warnings] == [("over_stacked", "8.1")]


def test_artillery_never_stacks(game):
    assert stacking_warnings([StackUnit("soviet", artillery=True)], game) == []
    warnings = stacking_warnings([StackUnit("soviet", artillery=True), StackUnit("soviet")], game)
    assert [(w.code, w.rule) for w in warnings] == [("artillery_stacked", "8.4")]
