"""Cherkassy Pocket: the boxes of eliminated units and reconstitution (11.10, 12.1)."""

import pytest

from campaigns.shortgames.rules.cherkassy.data import BOXES
from campaigns.shortgames.rules.cherkassy.losses import BoxUnit, elimination_box, reconstitution


@pytest.mark.parametrize(
    ("args", "kwargs", "box"),
    [
        (("german", "infantry"), {"divisional": True}, "reconstitution"),
        (("german", "infantry"), {"divisional": True, "division_reconstituted": True}, "permanent"),
        (("german", "infantry"), {"divisional": False}, "permanent"),
        (("soviet", "tank"), {"divisional": True, "has_msl": True}, "recovery_1"),
        (("soviet", "tank"), {"divisional": True}, "permanent"),
        (
            ("soviet", "tank"),
            {"divisional": True, "has_msl": True, "by_breakdown": True},
            "recovery_2",
        ),
        (("soviet", "mech_infantry"), {"divisional": True, "by_breakdown": True}, "recovery_1"),
    ],
)
def test_elimination_box(tables, args, kwargs, box):
    assert elimination_box(*args, **kwargs) == box
    routing = next(c for c in tables["charts"] if c["id"] == "cp.elimination-routing")
    assert BOXES[box] in {b["id"] for b in routing["boxes"]}


def battalions(division, count, stemmermann=False):
    return [BoxUnit(f"{division}-{i}", division, "battalion", stemmermann) for i in range(count)]


def test_reconstitution_three_battalions_return_one():
    options = {o.division: o for o in reconstitution(battalions("88", 3) + battalions("72", 2), ())}
    assert (options["88"].battalions, options["88"].returns) == (3, 1)
    assert (options["72"].battalions, options["72"].returns) == (2, 0)
    assert reconstitution(battalions("88", 6), ())[0].returns == 1  # one unit, only once


def test_reconstitution_once_per_division_regiments_never_and_groups_apart():
    assert reconstitution(battalions("88", 3), ("88",))[0].returns == 0
    regiments = [BoxUnit(f"r{i}", "88", "regiment") for i in range(3)]
    assert reconstitution(regiments, ()) == []
    mixed = reconstitution(battalions("88", 2) + battalions("88", 2, stemmermann=True), ())
    assert [o.returns for o in mixed] == [0, 0]
    assert reconstitution(battalions("88", 3), (), divisions_on_map=("72",))[0].returns == 0
