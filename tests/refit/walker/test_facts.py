"""The facts a RePh's DRMs are worked out from, read from the campaign state."""

import pytest

from campaigns.records import services as records
from refit.walker import facts
from tests.refit.builders import reph_at

pytestmark = pytest.mark.django_db


def test_the_cvp_of_the_completed_day_are_counted_as_11_616_counts_them(campaign, people):
    # 11.616: every phase of the day (after victory determination too), but not uncontrolled
    # exits (CG13) nor CG18 "no CVP" losses; another side's or another day's never.
    for side, index, cvp, fields in (
        ("german", 0, 10, {}),
        ("german", 0, 4, {"phase": "reph_before_vc"}),
        ("german", 0, 6, {"phase": "reph_after_vc"}),
        ("german", 0, 3, {"exited_uncontrolled": True}),
        ("german", 0, 8, {"no_cvp": True}),
        ("soviet", 0, 5, {}),
        ("german", 1, 7, {}),
    ):
        records.add_cvp(
            campaign,
            by=people["referee"],
            side=side,
            index=index,
            phase=fields.pop("phase", "scenario"),
            what="squad",
            cvp=cvp,
            **fields,
        )
    reph = reph_at(campaign, "new_day", 1)  # follows CG day 0
    assert facts.for_side(campaign, reph, "german")["cvp_completed"] == 20
    assert facts.for_side(campaign, reph, "soviet")["cvp_completed"] == 5
    after_scenario = reph_at(campaign, "after_scenario", 1)  # RF: dated the scenario's day
    assert facts.for_side(campaign, after_scenario, "german")["cvp_completed"] == 7
