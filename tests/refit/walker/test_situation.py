"""The walker pages' situations: one function each builds what the overview and a step page
show, for the viewer asking."""

import pytest

from campaigns.access import viewer_for
from refit.walker import services as walker
from refit.walker import situation
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def step_of(campaign, people, persona, side, rule):
    reph = situation.with_marks(walker.open_reph(campaign))
    step = situation.step_def(campaign, rule)
    return situation.step_situation(viewer_for(people[persona], campaign.pk), reph, side, step)


def test_the_purchase_step_of_the_german_side(campaign, people):
    page = step_of(campaign, people, "german", "german", "11.619")
    assert (page.state.status, page.at.step.rule, page.next_state.step.rule) == (
        "current",
        "11.619",
        "11.620",
    )
    assert page.can_act and page.may_roll and page.sees_side
    assert page.buys_rgs and not page.buys_fortifications and not page.draws_perimeters
    assert page.rolls == [] and page.effects == [] and page.chit is None


def test_the_referee_acts_an_observer_only_reads_the_next_step(campaign, people):
    referee = step_of(campaign, people, "referee", "german", "11.620")
    assert referee.state.status == "todo" and referee.can_act and not referee.may_roll
    observer = step_of(campaign, people, "observer", "soviet", "11.621")
    assert not observer.can_act and not observer.sees_side
    assert not observer.buys_fortifications  # the fortification page is the side's secret
    soviet = step_of(campaign, people, "soviet", "soviet", "11.621")
    assert soviet.buys_fortifications
    assert all(table.plan is None for table in soviet.tables)  # not the current step


def test_waiting_for_the_other_side_names_it(campaign, people):
    # After the initial scenario: 11.601 Melee completion is done by both sides together.
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    mark_past(campaign, after, "german", "11.601", people)
    page = step_of(campaign, people, "german", "german", "11.602")
    assert page.state.status == "waiting" and not page.may_roll
    assert page.blocker.rule == "11.601"
    assert [side.key for side in page.waiting_for] == ["soviet"]


def test_the_overview_situation(campaign, people):
    reph = situation.with_marks(walker.open_reph(campaign))
    page = situation.overview_situation(viewer_for(people["observer"], campaign.pk), reph)
    assert [row.side.key for row in page.sides] == ["german", "soviet"]
    assert all(not row.full and not row.can_act for row in page.sides)
    assert [row.at.step.rule for row in page.sides] == ["11.619", "11.619"]
    assert not page.complete and not page.may_finish and page.question == ""
