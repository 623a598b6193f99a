"""Which CVP entries count for what (11.6031, 11.616, SSR CG13, CG18) and what they add up to:
per day and side, per scenario, per completed day; as plain Python, then read from the
database in one query."""

import pytest

from campaigns.records import services as records
from campaigns.records.cvp_counts import (
    SAP_RULES,
    CvpLine,
    CvpSums,
    counts_for_cpp_drm,
    counts_for_tally,
    counts_for_victory,
    cvp_days,
    cvp_lines,
    lost,
    rules_for,
    scenario_cvp,
)


def line(side="german", index=0, cvp=1, **fields):
    return CvpLine(side=side, index=index, phase=fields.pop("phase", "scenario"), cvp=cvp, **fields)


# --- which entries count -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "victory", "cpp_drm", "tally"),
    [
        ({}, True, True, True),
        ({"phase": "reph_before_vc"}, True, True, True),
        ({"phase": "reph_after_vc"}, False, True, True),  # after victory determination (11.6031)
        ({"exited_uncontrolled": True}, True, False, True),  # CG13
        ({"exited_uncontrolled": True, "phase": "reph_after_vc"}, False, False, True),
        ({"no_cvp": True}, False, False, False),  # CG18
        ({"no_cvp": True, "phase": "reph_before_vc"}, False, False, False),
    ],
)
def test_each_rule_counts_its_own_entries(fields, victory, cpp_drm, tally):
    entry = line(**fields)
    assert (counts_for_victory(entry), counts_for_cpp_drm(entry), counts_for_tally(entry)) == (
        victory,
        cpp_drm,
        tally,
    )


# --- per day and side ----------------------------------------------------------------------


def test_the_sums_follow_the_rules():
    days, totals = cvp_days(
        [
            line("german", 0, 10),
            line("german", 0, 4, phase="reph_before_vc"),
            line("german", 0, 6, phase="reph_after_vc"),  # CPP DRM only (11.6031)
            line("german", 0, 3, exited_uncontrolled=True),  # victory only (CG13)
            line("german", 0, 8, no_cvp=True),  # neither (CG18)
            line("soviet", 0, 5),
            line("german", 2, 1),
        ],
        ["german", "soviet"],
    )
    assert [index for index, _sums in days] == [0, 2]
    assert days[0][1] == [
        CvpSums(for_victory=17, for_cpp_drm=20, tally=23, running=23),
        CvpSums(for_victory=5, for_cpp_drm=5, tally=5, running=5),
    ]
    assert days[1][1] == [
        CvpSums(for_victory=1, for_cpp_drm=1, tally=1, running=24),
        CvpSums(running=5),
    ]
    assert totals == [
        CvpSums(for_victory=18, for_cpp_drm=21, tally=24, running=24),
        CvpSums(for_victory=5, for_cpp_drm=5, tally=5, running=5),
    ]


def test_no_entries_no_days():
    assert cvp_days([], ["german", "soviet"]) == ([], [CvpSums(), CvpSums()])


def test_a_side_the_game_does_not_have_is_left_out():
    days, totals = cvp_days([line("italian", 0, 9), line("german", 0, 1)], ["german", "soviet"])
    assert days == [(0, [CvpSums(1, 1, 1, 1), CvpSums()])]
    assert totals == [CvpSums(1, 1, 1, 1), CvpSums()]


def test_lost_counts_one_side_on_one_day_by_the_rule_asked():
    entries = [
        line("german", 3, 10),
        line("german", 3, 6, phase="reph_after_vc"),
        line("german", 3, 3, exited_uncontrolled=True),
        line("german", 3, 8, no_cvp=True),
        line("soviet", 3, 5),  # another side
        line("german", 2, 7),  # another day
    ]
    assert lost(entries, counts_for_cpp_drm, side="german", index=3) == 16
    assert lost(entries, counts_for_victory, side="german", index=3) == 13
    assert lost(entries, counts_for_tally, side="german", index=3) == 19
    assert lost(entries, counts_for_cpp_drm, side="german", index=4) == 0
    assert lost([], counts_for_cpp_drm, side="german", index=3) == 0


# --- per scenario --------------------------------------------------------------------------


def test_an_entry_linked_to_a_scenario_counts_for_it_by_the_victory_rule():
    entries = [
        line("german", 6, 10, scenario_id=1),
        line("german", 6, 4, phase="reph_before_vc", scenario_id=1),
        line("german", 6, 50, phase="reph_after_vc", scenario_id=1),  # after 11.6031
        line("german", 6, 60, no_cvp=True, scenario_id=1),  # CG18
        line("german", 6, 3, exited_uncontrolled=True, scenario_id=1),  # counts (CG13)
        line("soviet", 6, 7, scenario_id=2),
    ]
    assert scenario_cvp(entries, {1: 6, 2: 6}) == {1: {"german": 17}, 2: {"soviet": 7}}


def test_an_unlinked_entry_counts_for_its_days_only_scenario():
    entries = [line("soviet", 7, 9), line("soviet", 7, 2, phase="reph_before_vc")]
    assert scenario_cvp(entries, {3: 7}) == {3: {"soviet": 11}}


def test_an_unlinked_entry_on_a_day_with_two_scenarios_counts_for_neither():
    entries = [line("soviet", 6, 100), line("soviet", 6, 7, scenario_id=2)]
    assert scenario_cvp(entries, {1: 6, 2: 6}) == {1: {}, 2: {"soviet": 7}}


def test_an_unlinked_entry_on_a_day_without_a_scenario_counts_for_none():
    assert scenario_cvp([line("german", 4, 5)], {1: 6}) == {1: {}}


def test_an_unlinked_entry_after_victory_determination_counts_for_no_scenario():
    entries = [line("soviet", 7, 9, phase="reph_after_vc"), line("soviet", 7, 9, no_cvp=True)]
    assert scenario_cvp(entries, {3: 7}) == {3: {}}


def test_an_entry_of_a_scenario_not_asked_about_is_left_out():
    assert scenario_cvp([line("german", 6, 5, scenario_id=9)], {1: 6}) == {1: {}}


def test_no_scenarios_no_sums():
    assert scenario_cvp([line("german", 6, 5)], {}) == {}


# --- read from the database ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_campaigns_entries_are_read_as_plain_lines_in_one_query(
    campaign, people, django_assert_num_queries
):
    scenario = records.save_scenario(
        campaign, by=people["referee"], index=1, scenario_type="dual_attack"
    )
    for side, index, cvp, fields in (
        ("german", 1, 4, {"scenario": scenario}),
        ("soviet", 1, 2, {"phase": "reph_after_vc", "no_cvp": True}),
        ("german", 0, 3, {"exited_uncontrolled": True}),
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
    with django_assert_num_queries(1):
        every = cvp_lines(campaign)
    assert every == [
        CvpLine("german", 0, "scenario", 3, exited_uncontrolled=True),
        CvpLine("german", 1, "scenario", 4, scenario_id=scenario.pk),
        CvpLine("soviet", 1, "reph_after_vc", 2, no_cvp=True),
    ]
    assert cvp_lines(campaign, side="german") == every[:2]
    assert cvp_lines(campaign, index=1) == every[1:]
    assert cvp_lines(campaign, side="soviet", index=0) == []


# --- Slaughter at Ponyri: an exit from an uncontrolled hex adds no CVP (SaP CG11) ----------


@pytest.mark.parametrize("phase", ["scenario", "reph_before_vc", "reph_after_vc"])
def test_sap_counts_an_uncontrolled_exit_for_nothing(phase):
    entry = line(exited_uncontrolled=True, phase=phase)
    rules = rules_for("slaughter_at_ponyri")
    assert (rules.for_victory(entry), rules.for_cpp_drm(entry), rules.for_tally(entry)) == (
        False,
        False,
        False,
    )
    # Red Factories counts it for victory and the tally (CG13), as before.
    rf = rules_for("red_factories")
    assert rf.for_tally(entry) and rf.for_victory(entry) == (phase != "reph_after_vc")


def test_sap_sums_leave_the_uncontrolled_exits_out():
    entries = [line("russian", 0, 10), line("russian", 0, 6, exited_uncontrolled=True)]
    _days, (totals,) = cvp_days(entries, ["russian"], rules_for("slaughter_at_ponyri"))
    assert (totals.for_victory, totals.for_cpp_drm, totals.tally) == (10, 10, 10)
    _days, (rf_totals,) = cvp_days(entries, ["russian"])
    assert (rf_totals.for_victory, rf_totals.for_cpp_drm, rf_totals.tally) == (16, 10, 16)
    by_scenario = scenario_cvp(
        [CvpLine("russian", 0, "scenario", 6, True, False, 1)], {1: 0}, SAP_RULES
    )
    assert by_scenario == {1: {}}
