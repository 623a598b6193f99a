"""RGs move on in their life cycle as the walker finishes Refit Phases and scenarios
(refit.walker.lifecycle, called by walker.services.finish)."""

import pytest

from campaigns.dice import services as dice
from campaigns.games.step_engine import Position
from campaigns.history import services as history
from campaigns.models import CampaignEvent, OrbatEntry, RefitPhase, ReinforcementGroup, SideDay
from refit.walker import lifecycle
from tests.refit.campaign_states import _receive, buy_rgs, walk

pytestmark = pytest.mark.django_db


def status(campaign, side, rg_id, source="purchased"):
    return ReinforcementGroup.objects.get(
        campaign=campaign, side=side, rg_id=rg_id, source=source
    ).status


def test_rolls_then_the_refit_phase_then_the_scenario_move_an_rg_on(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    with dice.use_roller(1942):
        walk(
            campaign,
            people,
            before={"11.619": buy_rgs(campaign, people), "11.620": _receive(campaign, people)},
            upto="11.621",
        )
    assert status(campaign, "german", "I3") == "rolled"  # 11.620 made
    assert status(campaign, "german", "I5") == "bought"  # not rolled for
    with dice.use_roller(1942):
        walk(campaign, people)  # the first RePh finishes into the initial scenario
    rg = ReinforcementGroup.objects.get(
        campaign=campaign, side="german", rg_id="I3", source="purchased"
    )
    assert (rg.status, rg.entered) == ("on_map", True)
    assert status(campaign, "german", "I5") == "bought"  # never rolled: not in the scenario
    rg_box = list(OrbatEntry.objects.filter(group=rg).values_list("unit_type", "quantity"))
    assert rg_box  # what the rolls gave is in the RG's box
    walk(campaign, people)  # the initial scenario is over
    assert status(campaign, "german", "I3") == "retained"  # survived (CG10, 11.6244)
    # Its lines went into the divider's Retained box, each naming the RG (11.15).
    assert not OrbatEntry.objects.filter(group=rg).exists()
    retained = OrbatEntry.objects.filter(campaign=campaign, box="retained", origin_rg=rg.label)
    assert sorted(retained.values_list("unit_type", "quantity")) == sorted(rg_box)
    event = CampaignEvent.objects.get(
        campaign=campaign, action="rg.statuses_moved", data__cause="scenario_finished"
    )
    assert history.describe(event).endswith(f"{len(rg_box)} OB lines into the Retained box.")
    history.undo(event, by=people["referee"], reason="the scenario is replayed")
    assert OrbatEntry.objects.filter(group=rg).count() == len(rg_box)
    assert status(campaign, "german", "I3") == "on_map"


def test_each_side_hears_only_of_its_own_rgs(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    with dice.use_roller(1942):
        walk(
            campaign,
            people,
            before={"11.619": buy_rgs(campaign, people), "11.620": _receive(campaign, people)},
        )
    (event,) = CampaignEvent.objects.filter(campaign=campaign, action="rg.statuses_moved")
    assert event.visibility == "german"
    # The initial OB's offboard observer has nothing to roll; the rolled I3 goes in too.
    assert event.data["rgs"] == ["O5#1:on_map", "I3#2:on_map"]
    assert history.describe(event) == (
        "German RGs as the Refit Phase finished: O5#1 → in the scenario, I3#2 → in the scenario."
    )
    # The referee may take the move back (with a reason, the phase being over).
    history.undo(event, by=people["referee"], reason="set up off board")
    assert status(campaign, "german", "I3") == "rolled"


def stuka(campaign, index, status_):
    return ReinforcementGroup.objects.create(
        campaign=campaign,
        side="german",
        rg_id="S1",
        number=1,
        index=index,
        source=ReinforcementGroup.Source.PURCHASED,
        status=status_,
    )


def test_a_stuka_bought_for_an_idle_day_is_expended(campaign, people):
    rg = stuka(campaign, 1, "bought")  # nothing to roll for a Stuka
    reph = RefitPhase(campaign=campaign, kind="new_day", index=1)
    lifecycle.after_finish(campaign, reph, Position("new_day", 2), by=people["referee"])
    rg.refresh_from_db()
    assert rg.status == "expended"


def test_a_stuka_waits_for_its_days_scenario_then_is_expended(campaign, people):
    rg = stuka(campaign, 1, "bought")
    lifecycle.after_finish(
        campaign,
        RefitPhase(campaign=campaign, kind="new_day", index=1),
        Position("scenario_day", 1),
        by=people["referee"],
    )
    rg.refresh_from_db()
    assert rg.status == "awaiting_entry"
    lifecycle.after_finish(
        campaign,
        RefitPhase(campaign=campaign, kind="scenario_day", index=1),
        Position("scenario", 1),
        by=people["referee"],
    )
    rg.refresh_from_db()
    assert rg.status == "on_map"
    lifecycle.after_finish(
        campaign,
        RefitPhase(campaign=campaign, kind="scenario", index=1),
        Position("after_scenario", 1),
        by=people["referee"],
    )
    rg.refresh_from_db()
    assert rg.status == "expended"


def test_rgs_that_ended_stay_ended(campaign, people):
    rg = ReinforcementGroup.objects.create(
        campaign=campaign,
        side="soviet",
        rg_id="A3",
        number=9,
        index=0,
        source=ReinforcementGroup.Source.PURCHASED,
        status="withdrawn",
        entered=True,
    )
    lifecycle.after_finish(
        campaign,
        RefitPhase(campaign=campaign, kind="scenario_day", index=1),
        Position("scenario", 1),
        by=people["referee"],
    )
    rg.refresh_from_db()
    assert rg.status == "withdrawn"
