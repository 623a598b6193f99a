"""RF 11.623: chits chosen in secret, revealed together, the matrix deciding the day."""

import pytest

from campaigns.models import CampaignEvent, Scenario, SideDay
from refit.walker import initiative
from refit.walker import services as walker
from refit.walker.initiative import InitiativeError
from tests.refit.builders import finish_phase, mark_past, reph_at

pytestmark = pytest.mark.django_db


def test_a_chit_is_kept_secret_until_both_have_chosen(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    assert (
        initiative.choose(campaign, reph, side="german", chit="attack", by=people["german"]) is None
    )
    event = CampaignEvent.objects.filter(action="side_day.updated").latest("pk")
    assert event.visibility == "german"
    assert initiative.revealed(campaign, 1) is None
    # Until the other side chooses, the German may change his mind.
    initiative.choose(campaign, reph, side="german", chit="idle", by=people["german"])
    revealed = initiative.choose(campaign, reph, side="soviet", chit="idle", by=people["soviet"])
    assert revealed.chits == {"german": "idle", "soviet": "idle"}
    assert revealed.cell["result"] == "idle_day" and revealed.scenario is None
    public = CampaignEvent.objects.get(action="initiative.revealed")
    assert public.visibility == "public"
    assert public.data["chits"] == {"german": "idle", "soviet": "idle"}
    with pytest.raises(InitiativeError, match="already revealed"):
        initiative.choose(campaign, reph, side="german", chit="attack", by=people["german"])


@pytest.mark.parametrize(
    "german, soviet, kind, attacker, sets_up_first, moves_first",
    [
        ("attack", "idle", "assault", "german", "soviet", "german"),
        ("idle", "attack", "assault", "soviet", "german", "soviet"),
        ("attack", "attack", "dual_attack", "", "", ""),
    ],
)
def test_a_generated_scenario_is_recorded_with_its_type_and_order(
    campaign, people, german, soviet, kind, attacker, sets_up_first, moves_first
):
    reph = reph_at(campaign, "new_day", 1)
    initiative.choose(campaign, reph, side="german", chit=german, by=people["german"])
    revealed = initiative.choose(campaign, reph, side="soviet", chit=soviet, by=people["soviet"])
    scenario = Scenario.objects.get(campaign=campaign, index=1)
    assert revealed.scenario == scenario
    assert (scenario.scenario_type, scenario.attacker) == (kind, attacker)
    assert (scenario.sets_up_first, scenario.moves_first) == (sets_up_first, moves_first)


def test_the_soviet_attack_limit_refuses_a_second_attack_too_soon(campaign, people):
    # RB CG I: a Soviet Attack on 18 Oct (day 2) → the next is allowed on 21 Oct (day 5).
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(
        initiative_chit="attack"
    )
    reph = reph_at(campaign, "new_day", 2)
    assert initiative.allowed_chits(campaign, "soviet", 2)["attack"].startswith("At most one")
    with pytest.raises(InitiativeError, match="one Attack chit per 4 CG days"):
        initiative.choose(campaign, reph, side="soviet", chit="attack", by=people["soviet"])
    assert initiative.allowed_chits(campaign, "soviet", 4) == {"attack": "", "idle": ""}
    # The German has no limit in RB CG I.
    assert initiative.allowed_chits(campaign, "german", 2) == {"attack": "", "idle": ""}


def test_marking_the_step_done_needs_a_chit_and_the_chits_decide_the_day(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    for step in walker.steps(campaign, reph)[:-1]:
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    with pytest.raises(walker.WalkerError, match="initiative chit"):
        mark_past(campaign, reph, "german", "11.623", people)
    for side, chit in (("german", "attack"), ("soviet", "idle")):
        initiative.choose(campaign, reph, side=side, chit=chit, by=people[side])
        mark_past(campaign, reph, side, "11.623", people)
    # No question: the revealed chits generated a German Assault.
    following = finish_phase(campaign, reph, by=people["referee"], scenario_generated=False)
    assert (following.kind, following.index) == ("scenario_day", 1)


def test_undoing_the_steps_effects_takes_the_chit_back_before_the_reveal(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    for step in walker.steps(campaign, reph)[:-1]:
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    initiative.choose(campaign, reph, side="german", chit="attack", by=people["german"])
    walker.undo_effects(campaign, reph, side="german", rule="11.623", by=people["german"])
    assert SideDay.objects.get(campaign=campaign, index=1, side="german").initiative_chit == ""
