"""Cherkassy Pocket: which attacks the combat helper may count (11.1, 11.3, 11.18–11.24, 11.28)."""

import pytest

from campaigns.shortgames.rules.cherkassy.attack import (
    Fighter,
    armor_superiority_refusals,
    artillery_refusals,
    attack_refusals,
    formation_refusals,
    is_independent,
    participation_refusals,
    regiment_equivalents,
    side_refusals,
)


def codes(reasons):
    return [reason.code for reason in reasons]


def soviet(name, formation="27 A", unit_type="infantry", size="regiment", hex_="2222", **kw):
    return Fighter(name, "soviet", unit_type, formation, size, hex_, **kw)


def german(name, unit_type="infantry", **kw):
    return Fighter(name, "german", unit_type, "72 ID", "battalion", "2121", **kw)


# --- sides (11.1) ------------------------------------------------------------------------------


def test_a_german_unit_is_no_soviet_attacker():
    (reason,) = side_refusals("soviet", [german("I/105")], [german("II/105")])
    assert (reason.code, reason.rule, reason.params["units"]) == (
        "attacker_of_other_side",
        "11.1",
        "I/105",
    )


def test_ones_own_unit_is_no_defender():
    assert codes(side_refusals("soviet", [soviet("a")], [soviet("b")])) == ["defender_of_own_side"]
    assert side_refusals("soviet", [soviet("a")], [german("b")]) == []


# --- one formation, four independents (11.18, 11.19) -------------------------------------------


def test_one_formation_with_four_independents_may_attack(game):
    attackers = [soviet("a"), soviet("b", "27 A", hex_="2223")] + [
        soviet(f"i{n}", "5 GTC I", size="brigade", hex_=f"23{n}0") for n in range(4)
    ]
    assert formation_refusals("soviet", attackers, game) == []


def test_a_fifth_independent_is_refused(game):
    attackers = [soviet(f"i{n}", "I", size="brigade", hex_=f"23{n}0") for n in range(5)]
    (reason,) = formation_refusals("soviet", attackers, game)
    assert (reason.code, reason.rule, reason.params["count"]) == (
        "too_many_independents",
        "11.19",
        5,
    )


def test_two_formations_never_attack_together(game):
    (reason,) = formation_refusals("soviet", [soviet("a", "27 A"), soviet("b", "4 GA")], game)
    assert (reason.code, reason.rule) == ("several_formations", "11.18")


def test_artillery_is_independent_and_germans_and_unknown(game):
    artillery = soviet("art", "27 A", unit_type="artillery")
    assert is_independent(artillery)
    assert formation_refusals("soviet", [soviet("a", "27 A"), artillery], game) == []
    assert formation_refusals("german", [german("a"), german("b")], game) == []
    assert codes(formation_refusals("soviet", [soviet("a", "")], game)) == ["formation_unknown"]


# --- two regiment equivalents a Soviet hex (11.3) ----------------------------------------------


def test_the_seeds_example_one_regiment_and_two_half_units_fight_together(game):
    # 11.3: all three units of a stack take part only if it holds one infantry regiment.
    stack = [soviet("r"), soviet("b", size="brigade"), soviet("t", unit_type="tank")]
    assert [regiment_equivalents(f, game) for f in stack] == [1, 0.5, 0.5]
    assert participation_refusals(stack, [], game) == []


def test_two_regiments_and_a_brigade_are_one_over(game):
    stack = [soviet("r1"), soviet("r2"), soviet("b", size="brigade")]
    (reason,) = participation_refusals(stack, [], game)
    assert (reason.code, reason.rule, reason.params["count"]) == ("over_participation", "11.3", 2.5)
    assert codes(participation_refusals([], stack, game)) == ["over_participation"]  # defence too
    # Two regiments in different hexes are two stacks.
    assert (
        participation_refusals([soviet("r1"), soviet("r2"), soviet("r3", hex_="2223")], [], game)
        == []
    )


# --- artillery (11.20, 11.24) ------------------------------------------------------------------


def artillery(n, **kw):
    return soviet(f"art{n}", "I", unit_type=kw.pop("unit_type", "artillery"), hex_=f"30{n}0", **kw)


def test_three_artillery_support_an_attack_and_four_are_refused(game):
    assert artillery_refusals([soviet("a"), *[artillery(n) for n in range(3)]], [], game) == []
    reasons = artillery_refusals([soviet("a"), *[artillery(n) for n in range(4)]], [], game)
    assert codes(reasons) == ["too_much_artillery"] and reasons[0].rule == "11.24"


def test_one_artillery_supports_a_defence_and_two_are_refused(game):
    assert artillery_refusals([], [soviet("d"), artillery(1)], game) == []
    assert codes(artillery_refusals([], [soviet("d"), artillery(1), artillery(2)], game)) == [
        "too_much_artillery"
    ]


def test_artillery_never_attacks_alone_nor_rockets_defend_nor_act_fires(game):
    assert codes(artillery_refusals([artillery(1)], [], game)) == ["artillery_alone"]
    rocket = artillery(1, unit_type="rocket_artillery")
    assert codes(artillery_refusals([], [soviet("d"), rocket], game)) == ["rocket_defending"]
    used = artillery(2, artillery_used=True)
    assert codes(artillery_refusals([soviet("a"), used], [], game)) == ["artillery_unusable"]


# --- armour superiority (11.28) ----------------------------------------------------------------


def test_armor_superiority_needs_a_tank_and_no_tank_or_mech_defending():
    tank = german("Wiking", unit_type="tank")
    assert armor_superiority_refusals(["armor_superiority"], [tank], [soviet("r")]) == []
    (reason,) = armor_superiority_refusals(
        ["armor_superiority"], [tank], [soviet("t", unit_type="tank")]
    )
    assert (reason.code, reason.rule) == ("armor_defending", "11.28")
    assert codes(
        armor_superiority_refusals(
            ["armor_superiority"], [tank], [soviet("m", unit_type="mech_infantry")]
        )
    ) == ["armor_defending"]
    # A mechanized infantry attacker does not earn it; no units chosen cannot be judged.
    mech = german("PzG", unit_type="mech_infantry")
    assert codes(armor_superiority_refusals(["armor_superiority"], [mech], [])) == ["armor_no_tank"]
    assert armor_superiority_refusals(["air"], [], []) == []


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_a_legal_attack_has_no_refusal(game, side):
    if side == "german":
        attackers, defenders = [german("a"), german("b")], [soviet("d")]
    else:
        attackers, defenders = [soviet("a"), soviet("b", hex_="2223")], [german("d")]
    assert attack_refusals(side, attackers, defenders, [], game) == []


def test_every_refusal_is_worded_in_both_languages(game):
    five = [soviet(f"i{n}", "I", size="brigade", hex_=f"23{n}0") for n in range(5)]
    reasons = side_refusals("soviet", [german("a")], [soviet("b")])
    reasons += formation_refusals(
        "soviet", [soviet("x", ""), soviet("y", "27 A"), soviet("z", "4 GA"), *five], game
    )
    reasons += participation_refusals([soviet("r1"), soviet("r2"), soviet("r3")], [], game)
    reasons += artillery_refusals(
        [artillery(n, artillery_used=True) for n in range(4)],
        [artillery(5, unit_type="rocket_artillery"), artillery(6)],
        game,
    )
    reasons += armor_superiority_refusals(["armor_superiority"], [], [])
    reasons += armor_superiority_refusals(
        ["armor_superiority"], [german("t", unit_type="tank")], [soviet("t", unit_type="tank")]
    )
    assert len({r.code for r in reasons}) == 12 and len(reasons) == 13  # every code
    for reason in reasons:
        assert reason.text is not None and reason.text.en and reason.text.ja, reason.code
        assert reason.code not in reason.in_language("ja")


# --- the 5 MC exception of 11.18's design note (seed 002 L442) --------------------------------


def five_mc(name="233 TBde", **kw):
    return soviet(name, "5 MC", unit_type="tank", size="brigade", **kw)


def test_a_5mc_tank_brigade_that_started_with_5gtc_attacks_with_it(game):
    gtc = soviet("21 GTBde", "5 GTC", unit_type="tank", size="brigade")
    assert formation_refusals("soviet", [gtc, five_mc(with_5gtc=True)], game) == []
    # "5GTC" written without the space is the same formation.
    other = soviet("6 GMRBde", "5GTC", size="brigade")
    assert formation_refusals("soviet", [gtc, other, five_mc(with_5gtc=True)], game) == []
    # Alone it is still one formation.
    assert formation_refusals("soviet", [five_mc(with_5gtc=True)], game) == []


def test_without_the_set_up_fact_5mc_and_5gtc_are_two_formations(game):
    gtc = soviet("21 GTBde", "5 GTC", unit_type="tank", size="brigade")
    (reason,) = formation_refusals("soviet", [gtc, five_mc()], game)
    assert (reason.code, reason.rule) == ("several_formations", "11.18")


def test_the_exception_is_for_5mc_tank_brigades_only(game):
    from campaigns.shortgames.rules.cherkassy.attack import with_5gtc_refusals

    gtc = soviet("21 GTBde", "5 GTC", unit_type="tank", size="brigade")
    infantry = soviet("5 MC MRBde", "5 MC", size="brigade", with_5gtc=True)
    assert codes(formation_refusals("soviet", [gtc, infantry], game)) == ["several_formations"]
    assert codes(with_5gtc_refusals(infantry)) == ["not_a_5mc_tank_brigade"]
    not_5mc = soviet("110 TBde", "18 TC", unit_type="tank", size="brigade", with_5gtc=True)
    assert codes(with_5gtc_refusals(not_5mc)) == ["not_a_5mc_tank_brigade"]
    assert with_5gtc_refusals(five_mc(with_5gtc=True)) == []
    assert with_5gtc_refusals(five_mc()) == []
    # A third formation still breaks the attack.
    third = soviet("a", "27 A")
    (reason,) = formation_refusals("soviet", [gtc, five_mc(with_5gtc=True), third], game)
    assert reason.code == "several_formations"
