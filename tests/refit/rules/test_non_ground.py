"""11.6057: the non-ground pockets the perimeter's data decide (rules.perimeter.non_ground)."""

from refit.rules.perimeter.board import MMC, SMC, VEHICLE, NonGroundPocket, Unit
from refit.rules.perimeter.non_ground import derived_pockets, level_label

H, J, K = (0, 0), (1, 0), (2, 0)


def test_the_rules_example_levels_1_and_2_under_enemy_ground_form_one_pocket():
    units = [Unit("4-6-7", "german", MMC, H, 1), Unit("2-4-7", "german", MMC, H, 2)]
    assert derived_pockets({H: "soviet"}, set(), units) == (NonGroundPocket("german", (H,), "1-2"),)


def test_friendly_or_unmarked_ground_is_no_pocket_a_fire_is():
    unit = Unit("4-6-7", "german", MMC, H, 1)
    assert derived_pockets({H: "german"}, set(), [unit]) == ()
    assert derived_pockets({}, set(), [unit]) == ()
    assert derived_pockets({H: "german"}, {H}, [unit]) == (NonGroundPocket("german", (H,), "1"),)


def test_only_mmc_off_ground_level_and_cellars_apart_from_upper_levels():
    units = [
        Unit("9-1", "german", SMC, H, 1),
        Unit("PzIV", "german", VEHICLE, J, 0),
        Unit("4-6-7", "german", MMC, K, 0),
        Unit("cellar", "german", MMC, K, -1),
        Unit("upstairs", "german", MMC, K, 1),
    ]
    assert derived_pockets({H: "soviet", J: "soviet", K: "soviet"}, set(), units) == (
        NonGroundPocket("german", (K,), "-1"),
        NonGroundPocket("german", (K,), "1"),
    )


def test_a_pocket_the_players_entered_is_not_derived_again():
    unit = Unit("4-6-7", "german", MMC, H, 1)
    entered = [NonGroundPocket("german", (H,), "1-2")]
    assert derived_pockets({H: "soviet"}, set(), [unit], entered) == ()


def test_level_labels():
    assert level_label([1]) == "1"
    assert level_label([2, 1, 2]) == "1-2"
    assert level_label([-1]) == "-1"
