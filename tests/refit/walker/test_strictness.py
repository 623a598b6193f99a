"""The walker's services enforce the Refit Phase's rules on rolls themselves (issue 15): a step
is not marked without its mandatory rolls or its RG rolls (the referee may, with a written
reason), a table is rolled only by the side and when the rules say, the Dual Attack set-up dr
is public, and 11.625 tells both sides' ELR and SAN once both have marked it."""

import pytest

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import (
    CampaignDay,
    CampaignEvent,
    DiceRoll,
    LedgerEntry,
    LedgerKind,
    ReinforcementGroup,
    SideDay,
    StepProgress,
)
from campaigns.roster import services as roster
from refit.purchases import receipt
from refit.walker import automatic, initiative, strictness
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import booby_traps, mark_past, reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db


def roll(campaign, reph, people, *, step, table, side="german", faces=(3,)):
    player = people[side] if side in people else people["soviet"]
    with dice.use_roller(Loaded(*faces)):
        return automatic.roll(
            campaign, reph, side=side, step=step, table_id=table, answers={}, by=player
        )


def mark(campaign, reph, people, side, rule, by=None, **kwargs):
    return walker.mark(campaign, reph, side=side, rule=rule, by=people[by or side], **kwargs)


@pytest.fixture
def new_day(campaign):
    """18 Oct's new CG day, Historical DRM 0, SAN 4 for both sides: 11.612 is current."""
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0, san=4, elr=3)
    return reph_at(campaign, "new_day", 1)


# --- mandatory rolls -----------------------------------------------------------------------


def test_11_612_is_not_marked_done_nor_skipped_without_the_san_roll(campaign, people, new_day):
    for kwargs in ({}, {"skipped": True, "reason": "no sniper activity"}):
        with pytest.raises(walker.WalkerError) as refused:
            mark(campaign, new_day, people, "german", "11.612", **kwargs)
        assert str(refused.value) == (
            "11.612 cannot be marked without the roll the rules require: SAN Adjustment "
            "(11.6122). The referee may mark the step all the same, with a written reason."
        )
    assert not StepProgress.objects.exists()
    roll(campaign, new_day, people, step="11.612", table="rf.san-adjustment")
    assert mark(campaign, new_day, people, "german", "11.612").status == "done"


def test_a_side_below_san_4_marks_11_612_without_rolling(campaign, people, new_day):
    SideDay.objects.filter(campaign=campaign, index=1, side="german").update(san=3)
    assert mark(campaign, new_day, people, "german", "11.612").status == "done"
    assert not DiceRoll.objects.exists()


def test_a_voided_roll_does_not_count(campaign, people, new_day):
    made = roll(campaign, new_day, people, step="11.612", table="rf.san-adjustment").roll
    dice.void(made, by=people["referee"], reason="rolled off the table")
    with pytest.raises(walker.WalkerError, match="SAN Adjustment"):
        mark(campaign, new_day, people, "german", "11.612")


def test_the_referee_marks_it_without_the_roll_with_a_reason_kept_in_history(
    campaign, people, new_day
):
    progress = mark(
        campaign, new_day, people, "german", "11.612", by="referee", overrule="dice lost"
    )
    assert progress.status == "done"
    event = CampaignEvent.objects.filter(action="refit.step_marked").latest("pk")
    assert event.data["overruled"] == "dice lost"
    assert event.data["missing"] == ["rf.san-adjustment"]
    assert history.describe(event) == (
        "German finished 11.612 without what the rules require (referee: dice lost)."
    )


@pytest.mark.parametrize("persona", ["german", "soviet"])
def test_a_player_cannot_overrule(campaign, people, new_day, persona):
    with pytest.raises(walker.WalkerError, match="Only the referee may mark a step"):
        walker.mark(
            campaign, new_day, side="german", rule="11.612", by=people[persona], overrule="why"
        )
    assert not StepProgress.objects.exists()


def test_a_reason_given_when_nothing_is_missing_is_not_an_overrule(campaign, people, new_day):
    SideDay.objects.filter(campaign=campaign, index=1, side="german").update(san=2)
    mark(campaign, new_day, people, "german", "11.612", overrule="just in case")
    event = CampaignEvent.objects.filter(action="refit.step_marked").latest("pk")
    assert "overruled" not in event.data


def test_cpp_and_elr_must_be_rolled_before_their_steps_are_marked(campaign, people, new_day):
    walk_to(campaign, new_day, people, "11.616")
    with pytest.raises(walker.WalkerError, match=r"CPP Replenishment Table \(11\.616\)"):
        mark(campaign, new_day, people, "german", "11.616")
    roll(campaign, new_day, people, step="11.616", table="rf.cpp-replenishment", faces=(3, 4))
    mark(campaign, new_day, people, "german", "11.616")
    with pytest.raises(walker.WalkerError, match=r"11\.617 cannot be marked"):
        mark(campaign, new_day, people, "german", "11.617")


def test_a_replenishment_already_on_the_ledger_lets_11_616_be_marked(campaign, people, new_day):
    # Booked by hand (or imported): the roll would be refused as "already booked", so the step
    # must not wait for it; the other side's entry does not count for this one.
    walk_to(campaign, new_day, people, "11.616")
    roster.add_ledger_entry(
        campaign,
        by=people["soviet"],
        side="soviet",
        ledger=LedgerEntry.CPP,
        index=new_day.index,
        kind=LedgerKind.REPLENISHMENT,
        amount=7,
    )
    with pytest.raises(walker.WalkerError, match=r"CPP Replenishment Table \(11\.616\)"):
        mark(campaign, new_day, people, "german", "11.616")
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger=LedgerEntry.CPP,
        index=new_day.index,
        kind=LedgerKind.REPLENISHMENT,
        amount=6,
    )
    assert mark(campaign, new_day, people, "german", "11.616").status == "done"
    assert not DiceRoll.objects.filter(table_id="rf.cpp-replenishment").exists()


def test_the_weather_is_the_soviets_to_roll_before_11_618(campaign, people, new_day):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Clear", ec="Moist")
    walk_to(campaign, new_day, people, "11.618")
    mark(campaign, new_day, people, "german", "11.618")  # the German rolls no weather
    with pytest.raises(walker.WalkerError) as refused:
        mark(campaign, new_day, people, "soviet", "11.618")
    assert "Weather" in str(refused.value) and "EC" in str(refused.value)
    roll(campaign, new_day, people, step="11.618", table="rf.weather", side="soviet", faces=(3, 4))
    roll(campaign, new_day, people, step="11.618", table="rf.ec", side="soviet", faces=(4,))
    mark(campaign, new_day, people, "soviet", "11.618")


def test_11_611_needs_the_mmc_dr_and_the_leader_dr_or_11_6114_instead(campaign, people):
    after = reph_at(campaign, "after_scenario", 0)
    walk_to(campaign, after, people, "11.611")
    with pytest.raises(walker.WalkerError) as refused:
        mark(campaign, after, people, "german", "11.611")
    assert "Or mark it done with 11.6114 chosen instead." in str(refused.value)
    roll(campaign, after, people, step="11.611", table="rf.mmc-battle-hardening", faces=(3, 4))
    with pytest.raises(walker.WalkerError, match="Leader Battle Hardening"):
        mark(campaign, after, people, "german", "11.611")
    # Skipping with the box ticked is still a skip: 11.6114 replaces the roll, not the step.
    with pytest.raises(walker.WalkerError, match="Leader Battle Hardening"):
        mark(campaign, after, people, "german", "11.611", skipped=True, reason="x", instead=True)
    mark(campaign, after, people, "german", "11.611", instead=True)
    event = CampaignEvent.objects.filter(action="refit.step_marked").latest("pk")
    assert event.data["instead"] == "11.6114"
    assert history.describe(event) == (
        "German finished 11.611, choosing 11.6114 instead of a roll."
    )


def test_a_second_battle_hardening_dr_and_the_other_sides_table_are_refused(campaign, people):
    after = reph_at(campaign, "after_scenario", 0)
    walk_to(campaign, after, people, "11.611")
    roll(campaign, after, people, step="11.611", table="rf.mmc-battle-hardening", faces=(3, 4))
    with pytest.raises(automatic.AutomaticRollError, match="Already rolled"):
        roll(campaign, after, people, step="11.611", table="rf.mmc-battle-hardening")
    with pytest.raises(automatic.AutomaticRollError, match="Only the Soviet player rolls this"):
        roll(campaign, after, people, step="11.611", table="rf.leader-battle-hardening-soviet")
    assert DiceRoll.objects.count() == 1


# --- the RG rolls of 11.620 ----------------------------------------------------------------


def test_11_620_waits_for_the_rg_rolls_of_this_refit_phase(campaign, people, known_hist_drm):
    reph = walker.open_reph(campaign)
    mark(campaign, reph, people, "german", "11.619")
    pending = receipt.pending(campaign, reph, "german")
    assert pending  # the initial OB's RGs (11.6201)
    with pytest.raises(walker.WalkerError) as refused:
        mark(campaign, reph, people, "german", "11.620")
    assert str(refused.value).startswith(
        f"Roll for every RG bought in this Refit Phase first ({pending[0].label}"
    )
    assert "11.620 is where their strength, SW and leaders are rolled" in str(refused.value)
    with pytest.raises(walker.WalkerError, match="Roll for every RG"):
        mark(campaign, reph, people, "german", "11.620", skipped=True, reason="later")
    with dice.use_roller(7):
        for rg in pending:
            receipt.receive(campaign, rg, people["german"])
    assert receipt.pending(campaign, reph, "german") == []
    assert mark(campaign, reph, people, "german", "11.620").status == "done"


def test_the_referee_may_pass_11_620_with_a_reason(campaign, people):
    reph = walker.open_reph(campaign)
    mark(campaign, reph, people, "german", "11.619")
    pending = [rg.label for rg in receipt.pending(campaign, reph, "german")]
    mark(campaign, reph, people, "german", "11.620", by="referee", overrule="rolled on paper")
    event = CampaignEvent.objects.filter(action="refit.step_marked").latest("pk")
    assert event.data["missing"] == ["rg_rolls:" + ",".join(pending)]
    assert event.visibility == "german"  # the RGs are the German's secret
    assert ReinforcementGroup.objects.filter(campaign=campaign, side="german").exists()


def test_sap_11_618_waits_for_the_rg_rolls_too(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    for side in ("german", "russian"):
        mark_past(sap_campaign, reph, side, "11.617", people)
    with pytest.raises(walker.WalkerError, match=r"11\.618 is where"):
        walker.mark(sap_campaign, reph, side="russian", rule="11.618", by=people["soviet"])


# --- who rolls what, when ------------------------------------------------------------------


def test_the_german_is_not_offered_nor_allowed_the_booby_trap_reduction(campaign, people, new_day):
    booby_traps(campaign)  # level B from 18 Oct
    with pytest.raises(automatic.AutomaticRollError) as refused:
        roll(campaign, new_day, people, step="11.612", table="rf.booby-trap-reduction")
    assert str(refused.value) == "Only the Soviet player rolls this (11.6123)."
    step = next(s for s in walker.steps(campaign, new_day) if s.rule == "11.612")
    plan = automatic.plan(campaign, new_day, "german", "rf.booby-trap-reduction", step=step)
    assert plan.refused == "Only the Soviet player rolls this (11.6123)."
    assert not DiceRoll.objects.exists()


def test_the_soviet_rolls_the_booby_trap_reduction_at_a_or_b_only_and_must(
    campaign, people, new_day
):
    with pytest.raises(automatic.AutomaticRollError) as refused:
        roll(
            campaign, new_day, people, step="11.612", table="rf.booby-trap-reduction", side="soviet"
        )
    assert str(refused.value) == (
        "Rolled only while the booby-trap level is A or B; it is C (11.6123)."
    )
    booby_traps(campaign)  # level B from 18 Oct
    roll(campaign, new_day, people, step="11.612", table="rf.san-adjustment", side="soviet")
    with pytest.raises(walker.WalkerError, match=r"Booby Trap .*\(11\.6123\)"):
        mark(campaign, new_day, people, "soviet", "11.612")
    roll(campaign, new_day, people, step="11.612", table="rf.booby-trap-reduction", side="soviet")
    with pytest.raises(automatic.AutomaticRollError, match="Already rolled"):
        roll(
            campaign, new_day, people, step="11.612", table="rf.booby-trap-reduction", side="soviet"
        )
    mark(campaign, new_day, people, "soviet", "11.612")


def test_sap_booby_trap_decay_is_the_russians_only(sap_campaign, people):
    booby_traps(sap_campaign, side="russian", levels=2)
    reph = reph_at(sap_campaign, "full", 2)
    SideDay.objects.filter(campaign=sap_campaign, index=2).update(san=2)
    walk_to_sap(sap_campaign, reph, people, "11.612")
    with pytest.raises(automatic.AutomaticRollError, match="Only the Russian player"):
        roll(sap_campaign, reph, people, step="11.612", table="sap.booby-trap-decay")
    roll(sap_campaign, reph, people, step="11.612", table="sap.booby-trap-decay", side="russian")


def walk_to_sap(campaign, reph, people, rule):
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            return
        for side in campaign.game.side_keys:
            mark_past(campaign, reph, side, step.rule, people)


@pytest.mark.parametrize(
    "table, rule",
    [("sap.immobilization-repair", "11.6131e"), ("sap.recall-wreck-repair", "11.6131f")],
)
def test_sap_immobilisation_and_wreck_repair_wait_for_the_full_reph(
    sap_campaign, people, table, rule
):
    daytime = reph_at(sap_campaign, "daytime", 1)
    walk_to_sap(sap_campaign, daytime, people, "11.613")
    with pytest.raises(automatic.AutomaticRollError) as refused:
        roll(sap_campaign, daytime, people, step="11.613", table=table)
    assert str(refused.value) == f"Not rolled in a Daytime RePh ({rule})."
    roll(sap_campaign, daytime, people, step="11.613", table="sap.salvage")  # d) is rolled
    full = reph_at(sap_campaign, "full", 2)
    walk_to_sap(sap_campaign, full, people, "11.613")
    roll(sap_campaign, full, people, step="11.613", table=table)


# --- secrecy and announcements -------------------------------------------------------------


def test_the_dual_attack_set_up_dr_is_public_inside_the_secret_initiative_step(campaign, new_day):
    step = next(s for s in walker.steps(campaign, new_day) if s.rule == "11.623")
    assert step.secret
    assert automatic.is_secret_roll(campaign, step, "rf.dual-attack-setup-order") is False
    assert automatic.is_secret_roll(campaign, step, "rf.initiative-matrix") is True


def test_a_dual_attack_is_not_marked_before_its_public_set_up_dr(campaign, people, new_day):
    walk_to(campaign, new_day, people, "11.623")
    for side in ("german", "soviet"):
        initiative.choose(campaign, new_day, side=side, chit="attack", by=people[side])
    with pytest.raises(walker.WalkerError, match=r"11\.623 cannot be marked .*\(11\.6233\)"):
        mark(campaign, new_day, people, "german", "11.623")
    made = roll(campaign, new_day, people, step="11.623", table="rf.dual-attack-setup-order")
    assert made.roll.visibility == "public"
    mark(campaign, new_day, people, "german", "11.623")
    mark(campaign, new_day, people, "soviet", "11.623")  # one roll for both sides


def test_11_625_tells_both_sides_elr_and_san_once_both_have_marked_it(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=3, san=4)
    day = reph_at(campaign, "scenario_day", 1)
    walk_to(campaign, day, people, "11.625")
    mark(campaign, day, people, "german", "11.625")
    assert not SideDay.objects.filter(campaign=campaign, index=1, elr_san_revealed=True).exists()
    assert not CampaignEvent.objects.filter(action="refit.announced").exists()
    mark(campaign, day, people, "soviet", "11.625")
    assert SideDay.objects.filter(campaign=campaign, index=1, elr_san_revealed=True).count() == 2
    event = CampaignEvent.objects.get(action="refit.announced")
    assert event.visibility == "public"
    assert history.describe(event) == (
        "11.625: the sides told each other their current figures "
        "(German ELR 3, SAN 4; Soviet ELR 3, SAN 4)."
    )
    history.undo(event, by=people["referee"])
    assert not SideDay.objects.filter(campaign=campaign, index=1, elr_san_revealed=True).exists()


def test_strictness_facts_include_the_booby_trap_level(campaign, new_day):
    booby_traps(campaign, levels=2)
    assert strictness.facts_for(campaign, new_day, "soviet")["booby_trap_level"] == "A"


def test_sap_11_622_announces_the_san_once_both_sides_have_marked_it(sap_campaign, people):
    SideDay.objects.filter(campaign=sap_campaign, index=1).update(san=3, elr_san_revealed=False)
    daytime = reph_at(sap_campaign, "daytime", 1)
    walk_to_sap(sap_campaign, daytime, people, "11.622")
    mark_past(sap_campaign, daytime, "russian", "11.622", people)
    assert not SideDay.objects.filter(campaign=sap_campaign, index=1, elr_san_revealed=True)
    mark_past(sap_campaign, daytime, "german", "11.622", people)
    assert SideDay.objects.filter(
        campaign=sap_campaign, index=1, elr_san_revealed=True
    ).count() == len(sap_campaign.game.side_keys)
    event = CampaignEvent.objects.get(action="refit.announced")
    assert event.data["what"] == ["san"]
    assert "Russian SAN 3" in history.describe(event)
