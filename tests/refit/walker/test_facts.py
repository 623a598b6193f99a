"""The facts a RePh's DRMs are worked out from, read from the campaign state."""

import pytest

from campaigns.models import ReinforcementGroup, SideDay
from campaigns.records import services as records
from refit.walker import automatic, facts
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


def test_the_battle_hardening_cvp_are_those_up_to_victory_determination(campaign, people):
    # Issue 15: the day's 46 CVP (11.616) against the 44 the scenario's VC count (11.6031),
    # which the MMC Battle Hardening DRM (11.6112) reads.
    for cvp, phase in ((40, "scenario"), (4, "reph_before_vc"), (2, "reph_after_vc")):
        records.add_cvp(
            campaign, by=people["referee"], side="german", index=0, phase=phase, what="x", cvp=cvp
        )
    german = facts.for_side(campaign, reph_at(campaign, "new_day", 1), "german")
    assert (german["cvp_completed"], german["cvp_scenario"]) == (46, 44)


# --- 11.617: RGs bought the previous CG day ---------------------------------------------


def bought(campaign, side, rg_id, index, number, source="purchased"):
    return ReinforcementGroup.objects.create(
        campaign=campaign, side=side, rg_id=rg_id, number=number, index=index, source=source
    )


def test_the_elr_counts_come_from_the_rgs_bought_the_previous_day(campaign, people):
    # RB CG I's initial OB gives the German RGs of its own (not bought: not counted).
    for rg_id, index, number in (
        ("I3", 0, 11),  # Assault Coy: Elite
        ("I4", 0, 11),  # Pioneer Coy: Elite
        ("I1", 0, 11),  # Rifle Coy: 1st Line
        ("A6", 0, 11),  # Pz IV F1 Pltn: an AFV platoon
        ("A9", 0, 11),  # SPW Pltn: not counted (11.617's exception)
        ("I2", 0, 11),  # 2nd Line: not counted
        ("I3", 1, 12),  # bought on 18 Oct itself: not the previous day
    ):
        bought(campaign, "german", rg_id, index, number)
    bought(campaign, "german", "I3", 0, 13, source="initial")
    bought(campaign, "soviet", "I1", 0, 11)
    reph = reph_at(campaign, "new_day", 1)
    german = facts.for_side(campaign, reph, "german")
    soviet = facts.for_side(campaign, reph, "soviet")
    assert (german["elite_companies_previous_day"], german["first_line_previous_day"]) == (2, 2)
    assert (soviet["elite_companies_previous_day"], soviet["first_line_previous_day"]) == (1, 0)


def test_the_elr_roll_works_them_out_instead_of_asking(campaign, people):
    bought(campaign, "soviet", "I1", 0, 11)  # Guards Rifle Coy: Elite, −2
    bought(campaign, "soviet", "I3", 0, 11)  # Rifle Coy: 1st Line, −1
    bought(campaign, "soviet", "A3", 0, 11)  # T-34 M41 Pltn: −1
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=3, hist_drm=0)
    reph = reph_at(campaign, "new_day", 1)
    plan = automatic.plan(campaign, reph, "soviet", "rf.elr-change")
    assert {q.id for q in plan.resolution.questions} & {"elite-coy", "first-line"} == set()
    assert plan.shown() == [
        (-2, "Elite infantry companies bought the previous CG day × 1"),
        (-2, "1st Line infantry companies and AFV platoons bought the previous CG day × 2"),
    ]


def test_nothing_bought_gives_no_elr_drm_and_asks_nothing(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=3, hist_drm=0)
    reph = reph_at(campaign, "new_day", 1)
    plan = automatic.plan(campaign, reph, "soviet", "rf.elr-change")
    assert plan.shown() == []
    assert {q.id for q in plan.resolution.questions} & {"elite-coy", "first-line"} == set()


def test_between_two_scenarios_of_one_day_the_days_earlier_purchases_count(campaign, people):
    # RO CG I SSR I.6: the RePh between 23 Oct's scenarios is run as if the second scenario were
    # the next CG day; what was bought before the first one is "the previous CG day's".
    bought(campaign, "german", "I3", 0, 11)
    second = reph_at(campaign, "new_day", 0, sequence=2)
    assert facts.purchase_day(second) == 0
    assert facts.for_side(campaign, second, "german")["elite_companies_previous_day"] == 1
    first_day = reph_at(campaign, "before_initial", 0)
    assert "elite_companies_previous_day" not in facts.for_side(campaign, first_day, "german")
