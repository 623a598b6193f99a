"""A RePh roll's result booked onto the OB line it names, in the roll's transaction, and
taken back with the step's effects or from the history."""

import pytest

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, OrbatEntry
from campaigns.orbat import services as orbat
from refit.walker import automatic
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db


def add(campaign, people, side, box, text, statuses=()):
    return orbat.add_units(
        campaign, by=people[side], side=side, box=box, text=text, statuses=statuses
    )[0]


def roll(campaign, reph, people, side, step, table, *, line=None, faces=(1,), answers=None):
    walk_to(campaign, reph, people, step)
    with dice.use_roller(Loaded(*faces)):
        return automatic.roll(
            campaign,
            reph,
            side=side,
            step=step,
            table_id=table,
            answers=answers or {},
            by=people[side],
            line=line.pk if line is not None else None,
        )


@pytest.fixture
def after_scenario(campaign):
    return reph_at(campaign, "after_scenario", 0)


@pytest.fixture
def new_day(campaign):
    return reph_at(campaign, "new_day", 1)


def test_a_wounded_leader_rolling_3_is_eliminated_and_the_undo_brings_it_back(
    campaign, people, after_scenario
):
    leader = add(campaign, people, "german", "wounded", "2 × 9-1", statuses=["wounded"])
    rolled = roll(
        campaign,
        after_scenario,
        people,
        "german",
        "11.610",
        "rf.wounded-leader",
        line=leader,
        faces=(3,),
    )
    leader.refresh_from_db()
    assert leader.quantity == 1
    moved = OrbatEntry.objects.get(
        campaign=campaign, side="german", box="casualties", unit_type="9-1"
    )
    assert (moved.unit_type, moved.quantity) == ("9-1", 1)
    assert "leader eliminated" in rolled.booked
    # A public roll's note names the result, never the side's line.
    assert "9-1" not in DiceRoll.objects.get(pk=rolled.roll.pk).note
    event = CampaignEvent.objects.get(action="orbat.result")
    assert event.visibility == "german"
    assert event.data["line"] == leader.pk
    assert event.data["result"] == "leader_eliminated"
    assert event.data["refit_step"]["roll"] == rolled.roll.pk

    walker.undo_effects(campaign, after_scenario, side="german", rule="11.610", by=people["german"])
    assert not OrbatEntry.objects.filter(pk=moved.pk).exists()
    leader.refresh_from_db()
    assert (leader.box, leader.quantity) == ("wounded", 2)


def test_the_same_line_is_not_rolled_for_again_even_after_the_take_back(
    campaign, people, after_scenario
):
    leader = add(campaign, people, "german", "wounded", "8-0", statuses=["wounded"])
    roll(campaign, after_scenario, people, "german", "11.610", "rf.wounded-leader", line=leader)
    # A dr of 1: stays wounded where it is; nothing changes, but the roll is on record.
    assert OrbatEntry.objects.get(pk=leader.pk).box == "wounded"
    (stays,) = CampaignEvent.objects.filter(action="orbat.result")
    assert (stays.data["result"], stays.data["line"]) == ("leader_stays_wounded", leader.pk)
    with pytest.raises(automatic.AutomaticRollError, match="already rolled for"):
        roll(campaign, after_scenario, people, "german", "11.610", "rf.wounded-leader", line=leader)
    other = add(campaign, people, "german", "retained", "7-0", statuses=["wounded"])
    roll(campaign, after_scenario, people, "german", "11.610", "rf.wounded-leader", line=other)
    other.refresh_from_db()
    assert other.box == "wounded"
    history.undo(
        CampaignEvent.objects.get(action="orbat.result", data__line=other.pk), by=people["german"]
    )
    assert OrbatEntry.objects.get(pk=other.pk).box == "retained"
    count = DiceRoll.objects.count()
    with pytest.raises(automatic.AutomaticRollError, match="already rolled for"):
        roll(campaign, after_scenario, people, "german", "11.610", "rf.wounded-leader", line=other)
    assert DiceRoll.objects.count() == count  # refused: nothing was rolled


def test_a_roll_needs_one_of_the_sides_own_eligible_lines(campaign, people, after_scenario):
    soviet = add(campaign, people, "soviet", "wounded", "8-0", statuses=["wounded"])
    healthy = add(campaign, people, "german", "retained", "9-1")
    for line, message in (
        (None, "Choose the order-of-battle line"),
        (soviet, "Choose the"),
        (healthy, "wounded leaders"),
    ):
        with pytest.raises(automatic.AutomaticRollError, match=message):
            roll(
                campaign, after_scenario, people, "german", "11.610", "rf.wounded-leader", line=line
            )
    assert not DiceRoll.objects.exists()


def test_the_leader_the_table_names_battle_hardens_secretly(campaign, people, after_scenario):
    add(campaign, people, "german", "retained", "8-0")
    nine = add(campaign, people, "german", "retained", "9-1")
    # DR 2 + 2 = 4 → the 9-1 hardens to a 9-2.
    rolled = roll(
        campaign,
        after_scenario,
        people,
        "german",
        "11.611",
        "rf.leader-battle-hardening-german",
        faces=(2, 2),
        answers={"won": 0},
    )
    nine.refresh_from_db()
    assert nine.unit_type == "9-2"
    assert rolled.roll.visibility == "german"
    assert "9-2" not in rolled.booked or "9-1" in rolled.booked
    walker.undo_effects(campaign, after_scenario, side="german", rule="11.611", by=people["german"])
    nine.refresh_from_db()
    assert nine.unit_type == "9-1"


def test_the_other_sides_hardening_table_is_not_this_sides(campaign, people, after_scenario):
    the_plan = automatic.plan(
        campaign, after_scenario, "german", "rf.leader-battle-hardening-soviet"
    )
    assert "Soviet player rolls" in the_plan.refused


def test_an_unrepaired_support_weapon_is_eliminated(campaign, people, new_day):
    lmg = add(campaign, people, "soviet", "pending", "2 × LMG", statuses=["malfunctioned"])
    roll(
        campaign,
        new_day,
        people,
        "soviet",
        "11.613",
        "rf.weapon-repair",
        line=lmg,
        faces=(6,),
    )
    lmg.refresh_from_db()
    assert lmg.quantity == 1
    assert OrbatEntry.objects.filter(campaign=campaign, box="casualties", unit_type="LMG").exists()


def test_a_withdrawn_platoon_goes_to_the_eliminated_box(campaign, people, new_day):
    stugs = add(campaign, people, "german", "retained", "3 × StuG III B from A1#2")
    leader = add(campaign, people, "german", "retained", "+1 armor leader from A1#2")
    other = add(campaign, people, "german", "retained", "2 × StuG III B from A1#3")
    roll(
        campaign,
        new_day,
        people,
        "german",
        "11.614",
        "rf.afv-withdrawal",
        line=stugs,
        faces=(6,),
    )
    mine = [stugs.pk, leader.pk, other.pk]
    boxes = dict(OrbatEntry.objects.filter(pk__in=mine).values_list("pk", "box"))
    assert boxes == {stugs.pk: "casualties", leader.pk: "casualties", other.pk: "retained"}


def test_a_removed_fortification_leaves_and_comes_back_with_the_undo(campaign, people, new_day):
    wire = add(campaign, people, "soviet", "fortifications", "wire")
    roll(
        campaign,
        new_day,
        people,
        "soviet",
        "11.615",
        "rf.fortification-removal",
        line=wire,
        faces=(1,),
    )
    assert not OrbatEntry.objects.filter(pk=wire.pk).exists()
    walker.undo_effects(campaign, new_day, side="soviet", rule="11.615", by=people["soviet"])
    assert OrbatEntry.objects.get(pk=wire.pk).unit_type == "wire"


def test_an_export_names_the_line_by_its_file_id_and_the_copy_by_its_own(
    campaign, people, after_scenario
):
    # OB lines have file ids in the export (the scenario end's CVP entries name them too): the
    # booking's line reference is written as one, never as a database id, and an import points
    # it at the copy's line.
    from campaigns.access import viewer_for
    from campaigns.transfer import services as transfer

    leader = add(campaign, people, "german", "wounded", "2 × 9-1", statuses=["wounded"])
    roll(
        campaign,
        after_scenario,
        people,
        "german",
        "11.610",
        "rf.wounded-leader",
        line=leader,
        faces=(3,),
    )
    exported = transfer.build_export(viewer_for(people["referee"], campaign.pk))
    (booked,) = [e for e in exported["history"] if e["action"] == "orbat.result"]
    assert booked["data"]["result"] == "leader_eliminated"
    file_ids = {row["id"]: row for row in exported["orbat"]}
    assert file_ids[booked["data"]["line"]]["unit_type"] == "9-1"
    parsed = transfer.parse_export(transfer.dumps(exported).encode())
    copy = transfer.load(parsed, user=people["outsider"])
    event = CampaignEvent.objects.get(campaign=copy, action="orbat.result")
    assert event.data["units"] == ["1 × 9-1"]
    assert OrbatEntry.objects.filter(campaign=copy, unit_type="9-1", box="casualties").exists()
    line = OrbatEntry.objects.get(pk=event.data["line"])
    assert (line.campaign_id, line.unit_type, line.box) == (copy.pk, "9-1", "wounded")


def sap_walk_to(campaign, reph, people, rule):
    marked = {(mark.side, mark.rule) for mark in reph.progress.all()}
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            return
        for side in ("german", "russian"):
            if (side, step.rule) not in marked:
                person = people["soviet" if side == "russian" else side]
                walker.mark(campaign, reph, side=side, rule=step.rule, by=person)


def test_slaughter_at_ponyri_books_its_own_tables(sap_campaign, people):
    campaign = sap_campaign
    reph = reph_at(campaign, "daytime", 1)
    sap_walk_to(campaign, reph, people, "11.611")
    leader = orbat.add_units(
        campaign,
        by=people["soviet"],
        side="russian",
        box="wounded",
        text="8-1",
        statuses=["wounded"],
    )[0]
    with dice.use_roller(Loaded(4)):
        automatic.roll(
            campaign,
            reph,
            side="russian",
            step="11.611",
            table_id="sap.wounded-leader",
            answers={},
            by=people["soviet"],
            line=leader.pk,
        )
    assert OrbatEntry.objects.get(pk=leader.pk).box == "casualties"
    event = CampaignEvent.objects.get(action="orbat.result")
    assert (event.visibility, event.data["result"]) == ("russian", "leader_eliminated")
    the_plan = automatic.plan(campaign, reph, "german", "sap.leader-battle-hardening-russian")
    assert "rolls this" in the_plan.refused
