"""RO CG I SSR I.6: the RePh between 23 Oct's two scenarios has its own initiative chits (11.623),
kept apart from the first scenario's; SSR I.6 deems them German Attack, Soviet Idle."""

import re

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, Scenario, SideDay
from campaigns.transfer import services as transfer
from refit.walker import facts, initiative
from refit.walker import services as walker
from refit.walker.initiative import InitiativeError
from tests.conftest import red_factories_campaign
from tests.refit.builders import finish_phase, mark_past, reph_at
from tests.refit.walker.test_transfer import export_as, round_trip

pytestmark = pytest.mark.django_db

DEEMED_REFUSAL = "SSR I.6: for the second scenario of this day"


@pytest.fixture
def ro(people):
    """RO CG I (23 Oct – 31 Oct), created by the German player; the others invited."""
    return red_factories_campaign(people, "ro-cg-1", "Red October, club night")


@pytest.fixture
def first_recorded(ro):
    """The first scenario's chits as the roster records them (the deemed ones of 11.5)."""
    for side, chit in (("german", "attack"), ("soviet", "idle")):
        SideDay.objects.filter(campaign=ro, index=0, side=side).update(
            initiative_chit=chit, chit_revealed=True
        )
    Scenario.objects.create(campaign=ro, index=0, sequence=1, scenario_type="assault")
    return ro


def day0(campaign, side):
    return SideDay.objects.get(campaign=campaign, index=0, side=side)


# ---------------------------------------------------------------------------- pure choices


def test_only_the_second_scenario_has_deemed_chits(ro, campaign):
    assert initiative.deemed_chits(ro, 2) == {"german": "attack", "soviet": "idle"}
    assert initiative.deemed_chits(ro, 1) == {}
    assert initiative.deemed_chits(campaign, 2) == {}  # RB CG I has no SSR I.6
    assert initiative.chit_fields(1) == ("initiative_chit", "chit_revealed")
    assert initiative.chit_fields(2) == ("second_chit", "second_chit_revealed")


def test_the_second_rephs_offers_each_side_its_deemed_chit_only(ro):
    german = initiative.allowed_chits(ro, "german", 0, 2)
    soviet = initiative.allowed_chits(ro, "soviet", 0, 2)
    assert german["attack"] == "" and german["idle"].startswith(DEEMED_REFUSAL)
    assert soviet["idle"] == "" and soviet["attack"].startswith(DEEMED_REFUSAL)
    # An ordinary RePh of the CG chooses freely (day 2, no Attack yet).
    assert initiative.allowed_chits(ro, "soviet", 1) == {"attack": "", "idle": ""}


# -------------------------------------------------------------------------------- service


def test_the_second_chits_are_chosen_in_secret_revealed_together_and_leave_the_first(
    first_recorded, people
):
    ro = first_recorded
    reph = reph_at(ro, "new_day", 0, sequence=2)
    assert initiative.revealed(ro, 0, 2) is None  # the first scenario's are not the second's
    with pytest.raises(InitiativeError, match="SSR I.6"):
        initiative.choose(ro, reph, side="german", chit="idle", by=people["german"])
    assert initiative.choose(ro, reph, side="german", chit="attack", by=people["german"]) is None
    secret = CampaignEvent.objects.filter(action="side_day.updated").latest("pk")
    assert secret.visibility == "german"
    assert day0(ro, "german").second_chit == "attack"
    revealed = initiative.choose(ro, reph, side="soviet", chit="idle", by=people["soviet"])
    assert revealed.chits == {"german": "attack", "soviet": "idle"}
    assert revealed.cell["result"] == "german_assault"
    second = Scenario.objects.get(campaign=ro, index=0, sequence=2)
    assert revealed.scenario == second
    assert (second.attacker, second.sets_up_first, second.moves_first) == (
        "german",
        "soviet",
        "german",
    )
    # The first scenario's chits and record stand as they were.
    for side, chit in (("german", "attack"), ("soviet", "idle")):
        row = day0(ro, side)
        assert (row.initiative_chit, row.chit_revealed, row.second_chit_revealed) == (
            chit,
            True,
            True,
        )
    assert initiative.revealed(ro, 0, 1).scenario.sequence == 1
    assert initiative.revealed(ro, 0, 2).scenario == second
    event = CampaignEvent.objects.get(action="initiative.revealed")
    assert (event.visibility, event.data["sequence"]) == ("public", 2)
    assert history.describe(event).startswith("Initiative chits for the second scenario of")
    with pytest.raises(InitiativeError, match="already revealed"):
        initiative.choose(ro, reph, side="german", chit="attack", by=people["german"])


def test_the_second_rephs_step_needs_its_own_chit_and_its_chits_decide(ro, people):
    # The roster's first-scenario chit does not stand in for the second RePh's.
    SideDay.objects.filter(campaign=ro, index=0).update(initiative_chit="attack")
    reph = reph_at(ro, "new_day", 0, sequence=2)
    for step in walker.steps(ro, reph)[:-1]:
        for side in ("german", "soviet"):
            mark_past(ro, reph, side, step.rule, people)
    with pytest.raises(walker.WalkerError, match="initiative chit"):
        mark_past(ro, reph, "german", "11.623", people)
    for side, chit in (("german", "attack"), ("soviet", "idle")):
        initiative.choose(ro, reph, side=side, chit=chit, by=people[side])
        mark_past(ro, reph, side, "11.623", people)
    following = finish_phase(ro, reph, by=people["referee"], scenario_generated=False)
    assert (following.kind, following.index, following.sequence) == ("scenario_day", 0, 2)


def test_undo_of_the_reveal_hides_the_second_chits_and_removes_the_second_scenario(ro, people):
    reph = reph_at(ro, "new_day", 0, sequence=2)
    initiative.choose(ro, reph, side="german", chit="attack", by=people["german"])
    initiative.choose(ro, reph, side="soviet", chit="idle", by=people["soviet"])
    event = CampaignEvent.objects.get(action="initiative.revealed")
    history.undo(event, by=people["referee"], reason="chosen too early")
    assert not Scenario.objects.filter(campaign=ro, index=0, sequence=2).exists()
    assert [day0(ro, s).second_chit_revealed for s in ("german", "soviet")] == [False, False]
    assert [day0(ro, s).second_chit for s in ("german", "soviet")] == ["attack", "idle"]
    assert initiative.revealed(ro, 0, 2) is None


# ------------------------------------------------------------------ 11.6231, 11.616, 11.617


def test_the_second_chits_count_on_23_oct_for_the_attack_limits(ro):
    # Spec Q19: the day number stays 1; a (referee-entered) Soviet Attack before the second
    # scenario counts as one chosen on 23 Oct, so on 24 Oct (day 2) none is allowed.
    SideDay.objects.filter(campaign=ro, index=0, side="soviet").update(second_chit="attack")
    assert initiative.attacks_before(ro, "soviet", 0) == 0
    assert initiative.attacks_before(ro, "soviet", 1) == 1
    assert initiative.allowed_chits(ro, "soviet", 1)["attack"].startswith("At most one")
    assert initiative.allowed_chits(ro, "soviet", 4)["attack"] == ""  # 27 Oct, day 5
    # The deemed Soviet Idle counts for nothing; the German has no limit in RO CG I.
    SideDay.objects.filter(campaign=ro, index=0).update(second_chit="")
    SideDay.objects.filter(campaign=ro, index=0, side="german").update(second_chit="attack")
    assert initiative.allowed_chits(ro, "soviet", 1) == {"attack": "", "idle": ""}
    assert initiative.allowed_chits(ro, "german", 1) == {"attack": "", "idle": ""}


def test_the_previous_days_chit_for_11_616_and_11_617(ro):
    second = reph_at(ro, "new_day", 0, sequence=2)
    # Between the scenarios, the first scenario (its deemed chits, 11.5) is the previous day.
    assert facts.for_side(ro, second, "german")["attack_chit_previous_day"] is True
    assert facts.for_side(ro, second, "soviet")["attack_chit_previous_day"] is False
    # On 24 Oct the previous day's last chits are those before the second scenario.
    SideDay.objects.filter(campaign=ro, index=0, side="german").update(
        initiative_chit="attack", second_chit="idle"
    )
    next_day = reph_at(ro, "new_day", 1)
    assert facts.for_side(ro, next_day, "german")["attack_chit_previous_day"] is False


# ------------------------------------------------------------------------------ transfer


def test_the_second_chits_round_trip_and_stay_secret_in_a_sides_file(first_recorded, people):
    ro = first_recorded
    reph = reph_at(ro, "new_day", 0, sequence=2)
    initiative.choose(ro, reph, side="german", chit="attack", by=people["german"])
    first, imported, second = round_trip(ro, people["referee"], people["outsider"])
    rows = {(r["index"], r["side"]): r for r in first["side_days"]}
    assert rows[(0, "german")]["second_chit"] == "attack"
    assert rows[(0, "german")]["second_chit_revealed"] is False
    assert first["side_days"] == second["side_days"]
    copy_ = SideDay.objects.get(campaign=imported, index=0, side="german")
    assert (copy_.initiative_chit, copy_.second_chit) == ("attack", "attack")
    # The Soviet's export holds no German row, so not his secret second chit.
    soviet_file = export_as(ro, people["soviet"])
    assert all(r["side"] == "soviet" for r in soviet_file["side_days"])


def test_an_older_file_without_the_second_chits_imports_them_blank(ro, people):
    data = export_as(ro, people["referee"])
    for row in data["side_days"]:
        del row["second_chit"], row["second_chit_revealed"]
    imported = transfer.load(transfer.parse_export(transfer.dumps(data)), user=people["outsider"])
    assert {(d.second_chit, d.second_chit_revealed) for d in imported.side_days.all()} == {
        ("", False)
    }


# ------------------------------------------------------------------------------- secrecy


def step_url(campaign, side):
    return reverse("refit:step", args=[campaign.pk, side, "11.623"])


@pytest.fixture
def at_chits(ro, people):
    reph = reph_at(ro, "new_day", 0, sequence=2)
    for step in walker.steps(ro, reph)[:-1]:
        for side in ("german", "soviet"):
            mark_past(ro, reph, side, step.rule, people)
    return reph


def test_the_second_chit_is_seen_by_its_side_and_the_referee_only_until_revealed(
    ro, client_as, people, at_chits
):
    initiative.choose(ro, at_chits, side="german", chit="attack", by=people["german"])
    for persona in ("german", "referee"):
        html = client_as(persona).get(step_url(ro, "german")).content.decode()
        assert "Your chit, in secret: Attack" in html, persona
    html = client_as("soviet").get(step_url(ro, "soviet")).content.decode()
    section = re.search(r'<section id="initiative".*?</section>', html, re.DOTALL).group(0)
    assert "Attack</strong>" not in section and "Your chit, in secret" not in section
    assert DEEMED_REFUSAL in html and 'value="attack"' not in html
    for persona, side in (("soviet", "german"), ("observer", "german"), ("observer", "soviet")):
        assert client_as(persona).get(step_url(ro, side)).status_code == 404
    assert client_as("outsider").get(step_url(ro, "german")).status_code == 404
    initiative.choose(ro, at_chits, side="soviet", chit="idle", by=people["soviet"])
    for persona, side in (("german", "german"), ("soviet", "soviet"), ("referee", "soviet")):
        html = client_as(persona).get(step_url(ro, side)).content.decode()
        text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
        assert "German: Attack · Soviet: Idle → German Assault" in text, persona
