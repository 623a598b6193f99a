"""Defiant Russia: the stacking warnings (6.2)."""

from campaigns.shortgames.rules.defiant_russia.stacking import StackUnit, stacking_warnings


def codes(game, units):
    return [warning.code for warning in stacking_warnings(units, game)]


def test_two_units_per_hex(game):
    two = [StackUnit("axis", "german", "infantry"), StackUnit("axis", "german", "armor")]
    assert codes(game, two) == []
    assert codes(game, [*two, StackUnit("axis", "german", "infantry")]) == ["over_stacked"]


def test_leaders_blue_division_and_fleets_do_not_count(game):
    two = [StackUnit("axis", "german", "infantry"), StackUnit("axis", "german", "armor")]
    assert codes(game, [*two, StackUnit("axis", "german", "leader", "guderian")]) == []
    assert codes(game, [*two, StackUnit("axis", "spanish", "infantry", "blue_division")]) == []
    soviet = [
        StackUnit("soviet", "soviet", "tank_corps"),
        StackUnit("soviet", "soviet", "cavalry_corps"),
    ]
    assert codes(game, [*soviet, StackUnit("soviet", "soviet", "fleet", "black_sea_fleet")]) == []


def test_one_soviet_army_per_hex_unless_with_stalin(game):
    armies = [
        StackUnit("soviet", "soviet", "infantry_army"),
        StackUnit("soviet", "soviet", "shock_army"),
    ]
    warnings = stacking_warnings(armies, game)
    assert [(w.code, w.rule) for w in warnings] == [("soviet_armies", "6.21")]
    assert codes(game, [*armies, StackUnit("soviet", "soviet", "leader", "stalin")]) == []
    army_and_corps = [
        StackUnit("soviet", "soviet", "infantry_army"),
        StackUnit("soviet", "soviet", "tank_corps"),
    ]
    assert codes(game, army_and_corps) == []


def test_hungarians_and_romanians_never_together(game):
    units = [StackUnit("axis", "hungarian", "infantry"), StackUnit("axis", "romanian", "infantry")]
    warnings = stacking_warnings(units, game)
    assert [(w.code, w.rule) for w in warnings] == [("hungarian_romanian", "6.23")]
    assert "ルーマニア" in warnings[0].text.ja
