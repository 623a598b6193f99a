"""QA findings on the Refit Phase walker (branch fixa): each reproduced, then kept."""

import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from refit.walker import automatic
from refit.walker import services as walker
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db


def url(campaign, side, rule):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def walk_to(campaign, reph, people, side, rule):
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            return
        mark_past(campaign, reph, side, step.rule, people)


def walk_both_to(campaign, reph, people, sides, rule):
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            return
        for side in sides:
            mark_past(campaign, reph, side, step.rule, people)


def tables_on(html):
    return re.findall(r'<article class="dice-table" data-table="([^"]+)"', html)


# 1. A side is offered only its own side's tables.


def test_the_german_11_620_page_offers_no_soviet_table(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_to(campaign, reph, people, "german", "11.620")
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    shown = tables_on(html)
    assert "rf.oba-german" in shown and "rf.leaders-german" in shown
    assert "rf.oba-soviet" not in shown and "rf.leaders-soviet" not in shown
    assert 'value="rf.oba-soviet"' not in html


def test_the_soviet_page_offers_no_german_table(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_to(campaign, reph, people, "soviet", "11.620")
    html = client_as("soviet").get(url(campaign, "soviet", "11.620")).content.decode()
    shown = tables_on(html)
    assert "rf.oba-soviet" in shown and "rf.oba-german" not in shown


def test_the_service_refuses_a_roll_of_the_other_sides_table(campaign, people):
    reph = walker.open_reph(campaign)
    walk_to(campaign, reph, people, "german", "11.620")
    with pytest.raises(automatic.AutomaticRollError):
        automatic.check_roll(
            campaign, reph, side="german", step="11.620", table_id="rf.leaders-soviet"
        )
    # its own table is allowed (the check passes)
    automatic.check_roll(campaign, reph, side="german", step="11.620", table_id="rf.leaders-german")


# 6. A DRM of one side only is not asked of the other (SaP 11.620's Stealthy, SaP16).


def test_sap_recon_asks_stealthy_of_the_russian_only(sap_campaign, client_as, people):
    campaign = sap_campaign
    reph = walker.open_reph(campaign)
    walk_both_to(campaign, reph, people, ("german", "russian"), "11.620")
    german = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    russian = client_as("soviet").get(url(campaign, "russian", "11.620")).content.decode()
    assert "sap.recon" in tables_on(german) and "sap.recon" in tables_on(russian)
    assert "Stealthy" in russian
    assert "Stealthy" not in german


# 4. 11.612: with a SAN below 4 there is no roll; the page shows no DRM list as if there were.


def article(html, table_id):
    match = re.search(
        rf'<article class="dice-table" data-table="{re.escape(table_id)}"[^>]*>(.*?)</article>',
        html,
        re.DOTALL,
    )
    assert match, table_id
    return match.group(1)


def test_no_san_roll_below_4_shows_no_drm_and_says_why(campaign, client_as, people):
    from campaigns.models import SideDay
    from tests.refit.builders import reph_at

    reph = reph_at(campaign, "new_day", 1)
    SideDay.objects.filter(campaign=campaign, index=1).update(san=3)
    walk_both_to(campaign, reph, people, ("german", "soviet"), "11.612")
    html = client_as("german").get(url(campaign, "german", "11.612")).content.decode()
    body = article(html, "rf.san-adjustment")
    assert "Current SAN" not in body
    assert "DRMs from the campaign" not in body
    assert "roll-form" not in body
    assert "SAN is 4 or more" in body and "nothing to roll" in body


# 5. Once 11.623 is done, its Dual Attack dr says what happened, not "roll while current".


def test_a_step_over_says_its_table_was_not_rolled(campaign, client_as, people):
    from refit.walker import initiative
    from tests.refit.builders import reph_at

    reph = reph_at(campaign, "new_day", 1)
    walk_both_to(campaign, reph, people, ("german", "soviet"), "11.623")
    initiative.choose(campaign, reph, side="german", chit="attack", by=people["german"])
    initiative.choose(campaign, reph, side="soviet", chit="idle", by=people["soviet"])
    for side in ("german", "soviet"):
        mark_past(campaign, reph, side, "11.623", people)
    for persona in ("german", "referee"):
        html = client_as(persona).get(url(campaign, "german", "11.623")).content.decode()
        body = article(html, "rf.dual-attack-setup-order")
        assert "current step" not in body
        assert "Not rolled: the step is over" in body


# 2. 11.611: the leader table's "own side won" DRM comes from the recorded scenario, as the
# MMC table's does; it is asked only when the winner is not recorded.


def test_the_leader_won_drm_is_read_from_the_recorded_winner(campaign, client_as, people):
    from campaigns.models import Scenario
    from tests.refit.builders import reph_at

    scenario = Scenario.objects.create(
        campaign=campaign, index=0, sequence=1, scenario_type="assault", winner="german"
    )
    reph = reph_at(campaign, "after_scenario", 0)
    german = automatic.plan(campaign, reph, "german", "rf.leader-battle-hardening-german")
    assert [d.value for d in german.drms] == [-2] and german.resolution.questions == ()
    soviet = automatic.plan(campaign, reph, "soviet", "rf.leader-battle-hardening-soviet")
    assert soviet.drms == () and soviet.resolution.questions == ()

    walk_both_to(campaign, reph, people, ("german", "soviet"), "11.611")
    body = article(
        client_as("german").get(url(campaign, "german", "11.611")).content.decode(),
        "rf.leader-battle-hardening-german",
    )
    assert "<strong>−2</strong>" in body or "<strong>-2</strong>" in body
    assert 'name="q_won"' not in body and "<select" not in body

    scenario.winner = ""
    scenario.save(update_fields=["winner"])
    unknown = automatic.plan(campaign, reph, "german", "rf.leader-battle-hardening-german")
    assert unknown.drms == () and [q.id for q in unknown.resolution.questions] == ["won"]


# 3. The Leader Table's result in an RB campaign game is the RB column's only.


def test_an_rb_leader_roll_keeps_the_rb_column_only(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_to(campaign, reph, people, "german", "11.620")
    with dice.use_roller(3):
        rolled = automatic.roll(
            campaign,
            reph,
            side="german",
            step="11.620",
            table_id="rf.leaders-german",
            answers={},
            by=people["german"],
        )
    assert list(rolled.roll.result) == ["RB"]
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    rows = re.findall(r'<td class="result">(.*?)</td>', html, re.DOTALL)
    assert rows and "RB" in rows[0] and "RO" not in rows[0]


def test_map_group_results_narrow_to_the_rolls_groups():
    from campaigns.games.map_groups import result_for

    both = {"RB": ["10-3"], "RO": ["9-2"]}
    assert result_for(both, ("RB",), ("RB", "RO")) == {"RB": ["10-3"]}
    assert result_for(both, ("RO",), ("RB", "RO")) == {"RO": ["9-2"]}
    assert result_for(both, (), ("RB", "RO")) == both  # RF CG I, group unknown: both
    assert result_for(both, ("RB", "RO"), ("RB", "RO")) == both
    other = {"ammo": "F", "RB": 1}
    assert result_for(other, ("RB",), ("RB", "RO")) == other
