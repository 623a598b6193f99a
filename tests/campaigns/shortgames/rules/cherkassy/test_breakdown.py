"""Cherkassy Pocket: the tank breakdown roll (10.3)."""

import pytest

from campaigns.shortgames.rules.cherkassy.breakdown import breakdown_result, tank_breakdown
from campaigns.shortgames.rules.common import dice_table, lookup


@pytest.mark.parametrize(
    ("side", "unit_type", "kwargs", "required"),
    [
        ("soviet", "tank", {}, True),
        ("soviet", "mech_infantry", {}, True),
        ("soviet", "motorized_infantry", {}, False),
        ("german", "tank", {}, False),
        ("soviet", "tank", {"advance_after_combat": True}, False),
        ("soviet", "tank", {"moved": False}, False),
    ],
)
def test_who_rolls_for_breakdown(side, unit_type, kwargs, required):
    answer = tank_breakdown(side, unit_type, **kwargs)
    assert answer.required == required
    assert (answer.table_id, answer.fails_on) == ("cp.tank-breakdown", (1,))


def test_breakdown_results(tables):
    table = dice_table(tables, "cp.tank-breakdown")
    for face in range(1, 7):
        assert breakdown_result(face, True, False).step_lost == (
            lookup(table, face)["effect"] == "maintenance_step_loss"
        )
    full = breakdown_result(1, True, False)
    assert (full.step_lost, full.to_box, full.place_msl) == (True, None, True)
    assert breakdown_result(1, False, True).to_box == "recovery_2"
    assert breakdown_result(1, False, False).to_box == "recovery_1"
    assert not breakdown_result(2, False, True).step_lost
