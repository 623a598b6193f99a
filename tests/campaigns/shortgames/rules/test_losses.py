"""Steps lost by a change of a unit's state (campaigns.shortgames.rules.losses)."""

import pytest

from campaigns.shortgames.rules.losses import Loss, step_loss, strength


def test_a_full_two_step_unit_reduced_loses_one_step():
    assert step_loss(2, "full", "reduced") == Loss(steps=1, eliminated=False)


def test_a_full_two_step_unit_eliminated_loses_both_steps():
    # The limit: all a unit has.
    assert step_loss(2, "full", "eliminated") == Loss(steps=2, eliminated=True)


def test_a_reduced_unit_eliminated_loses_its_last_step():
    assert step_loss(2, "reduced", "eliminated_oos") == Loss(steps=1, eliminated=True)


def test_a_one_step_unit_loses_one_step_at_most():
    # One over: a one-step unit "reduced" has nothing more to lose than its one step.
    assert step_loss(1, "full", "eliminated") == Loss(steps=1, eliminated=True)
    assert strength(1, "reduced") == 1
    assert step_loss(1, "full", "reduced") is None


@pytest.mark.parametrize("box", ["recovery_1", "recovery_2", "reconstitution"])
def test_a_cherkassy_box_is_a_loss_off_the_map(box):
    assert step_loss(2, "reduced", box) == Loss(steps=1, eliminated=True)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("reduced", "full"),  # a restore
        ("eliminated", "reduced"),  # a rebuild
        ("awaiting", "full"),  # an arrival
        ("full", "removed"),  # a withdrawal
        ("full", "awaiting"),
        ("eliminated", "eliminated_oos"),  # already off the map
        ("full", "full"),
    ],
)
def test_gains_withdrawals_and_no_change_lose_nothing(before, after):
    assert step_loss(2, before, after) is None
