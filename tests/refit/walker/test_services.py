"""Walking both sides through a Refit Phase."""

import pytest

from campaigns.models import CampaignEvent, RefitPhase
from refit.walker import initiative
from refit.walker import services as walker
from refit.walker.services import WalkerError
from tests.refit.builders import finish_phase, mark_past

pytestmark = pytest.mark.django_db


def walk_all(campaign, reph, people, sides=("german", "soviet"), chits=None):
    """Mark every step of the RePh done for both sides, alternating as players would. The
    initiative step chooses ``chits`` ({side: chit}) in the app, or is skipped (chits played
    at the table) without them."""
    for step in walker.steps(campaign, reph):
        for side in sides:
            if initiative.is_initiative_step(campaign, step.tables):
                if chits is None:
                    walker.mark(
                        campaign,
                        reph,
                        side=side,
                        rule=step.rule,
                        by=people[side],
                        skipped=True,
                        reason="chits played at the table",
                    )
                    continue
                initiative.choose(campaign, reph, side=side, chit=chits[side], by=people[side])
            mark_past(campaign, reph, side, step.rule, people)


def statuses(campaign, reph, side):
    marks = list(reph.progress.all())
    return [(s.step.rule, s.status) for s in walker.side_states(campaign, reph, side, marks)]


def test_a_new_rf_campaign_starts_with_the_steps_before_the_initial_scenario(campaign):
    reph = walker.open_reph(campaign)
    assert (reph.kind, reph.index) == ("before_initial", 0)
    assert statuses(campaign, reph, "german") == [
        ("11.619", "current"),
        ("11.620", "todo"),
        ("11.621", "todo"),
        ("11.622", "todo"),
    ]


def test_each_side_walks_at_its_own_pace(campaign, people):
    reph = walker.open_reph(campaign)
    mark_past(campaign, reph, "german", "11.619", people)
    mark_past(campaign, reph, "german", "11.620", people)
    assert statuses(campaign, reph, "german")[2] == ("11.621", "current")
    assert statuses(campaign, reph, "soviet")[0] == ("11.619", "current")


def test_steps_are_marked_in_order(campaign, people):
    reph = walker.open_reph(campaign)
    with pytest.raises(WalkerError, match="11.620 is not your current step"):
        mark_past(campaign, reph, "german", "11.620", people)


def test_a_skip_needs_a_reason_and_keeps_it(campaign, people):
    reph = walker.open_reph(campaign)
    with pytest.raises(WalkerError, match="why"):
        walker.mark(campaign, reph, side="german", rule="11.619", by=people["german"], skipped=True)
    mark = walker.mark(
        campaign,
        reph,
        side="german",
        rule="11.619",
        by=people["german"],
        skipped=True,
        reason="no CPP to spend",
    )
    assert (mark.status, mark.reason) == ("skipped", "no CPP to spend")


def test_a_secret_steps_mark_is_recorded_for_that_side_only(campaign, people):
    reph = walker.open_reph(campaign)
    mark_past(campaign, reph, "soviet", "11.619", people)
    event = CampaignEvent.objects.get(action="refit.step_marked")
    assert event.visibility == "soviet"  # 11.619 (RG purchase) is secret


def test_a_mark_can_be_taken_back_until_a_later_step_is_started(campaign, people):
    reph = walker.open_reph(campaign)
    for rule in ("11.619", "11.620"):
        mark_past(campaign, reph, "german", rule, people)
    with pytest.raises(WalkerError, match="later step"):
        walker.unmark(campaign, reph, side="german", rule="11.619", by=people["german"])
    walker.unmark(campaign, reph, side="german", rule="11.620", by=people["german"])
    assert statuses(campaign, reph, "german")[1] == ("11.620", "current")


def test_a_step_for_both_sides_waits_for_both(campaign, people):
    # After the initial scenario: 11.601 Melee completion is done by both sides together.
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    assert after.kind == "after_scenario"
    mark_past(campaign, after, "german", "11.601", people)
    german = statuses(campaign, after, "german")
    assert german[0] == ("11.601", "done") and german[1] == ("11.602", "waiting")
    with pytest.raises(WalkerError, match="Waiting for the other side"):
        mark_past(campaign, after, "german", "11.602", people)
    mark_past(campaign, after, "soviet", "11.601", people)
    assert statuses(campaign, after, "german")[1] == ("11.602", "current")


def test_a_reph_finishes_only_when_both_sides_are_through(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people, sides=("german",))
    with pytest.raises(WalkerError, match="Both sides"):
        finish_phase(campaign, reph, by=people["referee"])


def test_an_idle_day_leads_to_the_next_days_steps_and_moves_the_calendar(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    assert (new_day.kind, new_day.index) == ("new_day", 1)
    campaign.refresh_from_db()
    assert campaign.current_period.key == "1942-10-18"
    walk_all(campaign, new_day, people)
    with pytest.raises(WalkerError, match="11.623"):
        finish_phase(campaign, new_day, by=people["referee"])
    idle = finish_phase(campaign, new_day, by=people["referee"], scenario_generated=False)
    assert (idle.kind, idle.index) == ("new_day", 2)
    assert RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).count() == 1


def test_a_finished_reph_cannot_be_marked(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    finish_phase(campaign, reph, by=people["referee"])
    with pytest.raises(WalkerError, match="over"):
        mark_past(campaign, reph, "german", "11.619", people)
