"""Defiant Russia: which attacks the dice helper may count (2.0, 6.6, 11.7, 11.61)."""

import pytest

from campaigns.shortgames.rules.defiant_russia.attack import (
    air_point_refusals,
    breakthrough_refusals,
    side_refusals,
    unit_class,
)
from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit


def codes(reasons):
    return [reason.code for reason in reasons]


# --- sides (2.0) -------------------------------------------------------------------------------


def test_a_german_unit_is_no_soviet_attacker():
    (reason,) = side_refusals("soviet", "german")
    assert (reason.code, reason.rule) == ("wrong_side", "2.0")
    assert "german" in reason.text.en


@pytest.mark.parametrize(
    ("side", "nationality"),
    [("soviet", "soviet"), ("soviet", ""), ("axis", "german"), ("axis", "romanian")],
)
def test_a_sides_own_nationalities_fight_for_it(side, nationality):
    assert side_refusals(side, nationality) == []


def test_a_soviet_unit_is_no_axis_attacker():
    assert codes(side_refusals("axis", "soviet")) == ["wrong_side"]


# --- air points (11.7) -------------------------------------------------------------------------


def air(game, points, **kwargs):
    kwargs.setdefault("role", "attacker")
    kwargs.setdefault("side", "axis")
    kwargs.setdefault("nationality", "german")
    kwargs.setdefault("breakthrough", False)
    kwargs.setdefault("points_left", 9)
    return air_point_refusals(points, game=game, **kwargs)


def test_three_air_points_is_the_limit_and_four_is_refused(game):
    assert air(game, 3) == []
    (reason,) = air(game, 4)
    assert (reason.code, reason.rule) == ("air_over_limit", "11.7")


def test_no_air_points_in_breakthrough_combat(game):
    assert codes(air(game, 1, breakthrough=True)) == ["air_breakthrough"]
    assert air(game, 0, breakthrough=True) == []


def test_axis_air_points_need_a_german_attacker(game):
    assert codes(air(game, 1, nationality="romanian")) == ["air_needs_german"]
    assert air(game, 1, side="soviet", nationality="soviet") == []


def test_only_the_attacker_uses_air_points(game):
    assert codes(air(game, 1, role="defender")) == ["air_defender"]


def test_no_more_air_points_than_the_side_has_left(game):
    assert air(game, 2, points_left=2) == []
    (reason,) = air(game, 3, points_left=2)
    assert (reason.code, reason.params["left"]) == ("air_not_enough", 2)
    assert air(game, 3, points_left=None) == []  # not judged


# --- breakthrough combat (6.6) -----------------------------------------------------------------


def breakthrough(game, tables, units, **kwargs):
    kwargs.setdefault("side", "axis")
    kwargs.setdefault("leaders", ())
    kwargs.setdefault("turn", 4)
    kwargs.setdefault("weather", "light_mud")
    kwargs.setdefault("options", ())
    return breakthrough_refusals(units, game=game, tables=tables, **kwargs)


GERMAN_ARMOR = CombatUnit(6, armor=True, nationality="german")
GERMAN_INFANTRY = CombatUnit(4, nationality="german")


def test_light_mud_german_armor_with_guderian_may_attack(game, tables):
    # The seed's example of 11.61: the only Axis units that move and attack in light mud.
    assert breakthrough(game, tables, [GERMAN_ARMOR, GERMAN_ARMOR], leaders=["guderian"]) == []


def test_light_mud_armor_without_guderian_is_refused(game, tables):
    (reason,) = breakthrough(game, tables, [GERMAN_ARMOR])
    assert (reason.code, reason.rule) == ("breakthrough_needs_guderian", "6.6.3")


def test_light_mud_infantry_is_refused_even_with_guderian(game, tables):
    reasons = breakthrough(game, tables, [GERMAN_ARMOR, GERMAN_INFANTRY], leaders=["guderian"])
    assert codes(reasons) == ["breakthrough_unit_not_allowed"]
    assert reasons[0].params["unit"] == 2


def test_no_soviet_breakthrough_combat_in_light_mud(game, tables):
    reasons = breakthrough(
        game, tables, [CombatUnit(3, armor=True, nationality="soviet")], side="soviet"
    )
    assert codes(reasons) == ["no_breakthrough_phase"]


def test_no_breakthrough_combat_in_mud_or_on_turn_1(game, tables):
    assert codes(breakthrough(game, tables, [GERMAN_ARMOR], weather="mud", turn=5)) == [
        "no_breakthrough_phase"
    ]
    assert codes(breakthrough(game, tables, [GERMAN_ARMOR], weather="clear", turn=1)) == [
        "no_breakthrough_phase"
    ]
    # Early Invasion (12.1) gives the Axis its breakthrough phases on turn 1.
    assert (
        breakthrough(
            game, tables, [GERMAN_ARMOR], weather="clear", turn=1, options=["early_invasion"]
        )
        == []
    )


def test_no_breakthrough_while_the_weather_is_not_known(game, tables):
    reasons = breakthrough(game, tables, [GERMAN_ARMOR], leaders=["guderian"], weather=None)
    assert codes(reasons) == ["no_breakthrough_phase"]
    assert "not known" in reasons[0].text.en


def test_clear_weather_classes(game, tables):
    clear = {"weather": "clear", "turn": 2}
    assert breakthrough(game, tables, [GERMAN_ARMOR, GERMAN_INFANTRY], **clear) == []
    hungarian = CombatUnit(3, nationality="hungarian")
    assert codes(breakthrough(game, tables, [hungarian], **clear)) == [
        "breakthrough_unit_not_allowed"
    ]
    soviet = {"side": "soviet", **clear}
    infantry = CombatUnit(4, nationality="soviet")
    shock = CombatUnit(5, nationality="soviet", shock=True)
    assert breakthrough(game, tables, [shock], **soviet) == []
    assert codes(breakthrough(game, tables, [infantry], **soviet)) == [
        "breakthrough_unit_not_allowed"
    ]


def test_an_axis_unit_without_nationality_cannot_be_judged(game, tables):
    reasons = breakthrough(game, tables, [CombatUnit(6, armor=True)], weather="clear", turn=2)
    assert codes(reasons) == ["breakthrough_unknown_unit"]


@pytest.mark.parametrize(
    ("unit", "side", "key"),
    [
        (CombatUnit(2, nationality="romanian", cavalry=True), "axis", "romanian_cavalry"),
        (CombatUnit(2, nationality="romanian"), "axis", "romanian_infantry"),
        (CombatUnit(2, nationality="italian"), "axis", "italian"),
        (CombatUnit(2, cavalry=True), "soviet", "soviet_cavalry"),
    ],
)
def test_unit_classes(unit, side, key):
    assert unit_class(unit, side) == key


def test_every_refusal_is_worded_in_both_languages(game, tables):
    reasons = side_refusals("soviet", "german")
    reasons += air(
        game, 9, role="defender", nationality="romanian", breakthrough=True, points_left=0
    )
    reasons += breakthrough(game, tables, [GERMAN_ARMOR, GERMAN_INFANTRY, CombatUnit(1)])
    reasons += breakthrough(game, tables, [GERMAN_ARMOR], weather="mud", turn=5)
    assert len({r.code for r in reasons}) == len(reasons) == 10  # every code
    for reason in reasons:
        assert reason.text is not None and reason.text.en and reason.text.ja, reason.code
        assert reason.code not in reason.in_language("ja")
