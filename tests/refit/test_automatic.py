"""11.616 rolled with the DRMs the campaign state gives, and booked in the ledger."""

import pytest

from campaigns import state
from campaigns.ledger import Movement, cpp_days
from campaigns.models import LedgerEntry, SideDay
from refit import automatic, dice
from tests.refit.test_dice import Loaded

pytestmark = pytest.mark.django_db


def german_cpp(campaign):
    rows = LedgerEntry.objects.filter(campaign=campaign, side="german", ledger="cpp")
    return cpp_days(13, [Movement(r.index, r.kind, r.amount, r.rg) for r in rows])


def test_the_rules_example_on_18_oct(campaign, people):
    # 11.6162: German Original DR 10 on 18 Oct, Historical DRM −2, 44 CVP lost on 17 Oct → −2.
    # The rule also gives +1 for the Attack chit deemed used on the first day (11.5), which the
    # example leaves out: final 7 → +15 CPP (the example, without it: 6 → +16).
    for what, cvp in (("11 × 4-6-7", 22), ("Pz III L (wreck)", 22)):
        state.add_cvp(
            campaign,
            by=people["referee"],
            side="german",
            index=0,
            phase="scenario",
            what=what,
            cvp=cvp,
        )
    state.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-13,
        rg="I1",
    )
    with dice.use_roller(Loaded(4, 6)):
        roll = automatic.roll_cpp_replenishment(
            campaign, side="german", index=1, by=people["german"]
        )
    assert [(m["value"], m["reason"]) for m in roll.modifiers] == [
        (-2, "Historical DRM (11.6161)"),
        (-2, "44 CVP suffered: −1 per 20 (11.616)"),
        (1, "Attack chit on the previous CG day (11.616)"),
    ]
    assert (roll.original, roll.final, roll.result) == (10, 7, {"cpp": 15})
    assert (roll.visibility, roll.side) == ("german", "german")
    day = german_cpp(campaign)[1]
    assert (day.start, day.repl, day.total) == (2, 15, 17)


def test_the_soviet_gets_no_attack_chit_on_the_first_day_and_needs_a_known_hist_drm(
    campaign, people
):
    with pytest.raises(automatic.AutomaticRollError, match="Historical DRM"):
        automatic.roll_cpp_replenishment(campaign, side="soviet", index=1, by=people["soviet"])
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(hist_drm=0)
    modifiers = automatic.cpp_replenishment_modifiers(campaign, "soviet", 1)
    assert modifiers == []


def test_it_is_booked_once(campaign, people):
    with dice.use_roller(3):
        automatic.roll_cpp_replenishment(campaign, side="german", index=1, by=people["german"])
    with pytest.raises(automatic.AutomaticRollError, match="already booked"):
        automatic.roll_cpp_replenishment(campaign, side="german", index=1, by=people["german"])


def test_there_is_none_on_the_first_day(campaign, people):
    with pytest.raises(automatic.AutomaticRollError, match="first CG day"):
        automatic.roll_cpp_replenishment(campaign, side="german", index=0, by=people["german"])


def test_a_losing_side_gets_the_balance_drm_and_its_own_chit(campaign, people):
    for index in range(3):
        state.save_scenario(
            campaign, by=people["referee"], index=index, scenario_type="assault", winner="soviet"
        )
    for index in (2, 3):
        SideDay.objects.filter(campaign=campaign, index=index, side="german").update(hist_drm=0)
    SideDay.objects.filter(campaign=campaign, index=2, side="german").update(
        initiative_chit="attack"
    )
    reasons = [m.reason for m in automatic.cpp_replenishment_modifiers(campaign, "german", 3)]
    assert reasons == ["Attack chit on the previous CG day (11.616)", "CG Scenario Balance (11.32)"]
    values = [m.value for m in automatic.cpp_replenishment_modifiers(campaign, "german", 3)]
    assert values == [1, -1]
