"""One step of the Refit Phase for one side: what to do, its tables, its rolls, its marks."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.dice import services as dice
from campaigns.games.rules import Drm
from campaigns.models import DiceRoll, SideDay
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def url(campaign, side="german", rule="11.620"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def block(html, element_id):
    match = re.search(rf'<section id="{element_id}".*?</section>', html, re.DOTALL)
    assert match, element_id
    return match.group(0)


def rolls_html(html):
    match = re.search(r'<section id="rolls">(.*?)</section>', html, re.DOTALL)
    assert match, "no rolls section"
    return match.group(1)


@pytest.fixture
def after(campaign, people):
    """The RePh after the initial scenario (public steps 11.601 …)."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


@pytest.fixture
def new_day(campaign, people, after):
    walk_all(campaign, after, people)
    return finish_phase(campaign, after, by=people["referee"])


def roll(
    campaign,
    people,
    *,
    step="11.620",
    table="rf.rg-strength",
    side="german",
    faces=(3, 4),
    index=0,
    visibility=None,
    modifiers=(),
    note="",
):
    class Loaded:
        def __init__(self):
            self.faces = list(faces)

        def randint(self, a, b):
            return self.faces.pop(0)

    dice_table = campaign.game.dice_table(table)
    with dice.use_roller(Loaded()):
        return dice.roll(
            campaign,
            by=people[side],
            kind="DR" if dice_table.roll == "DR" else "dr",
            step=step,
            index=index,
            side=side,
            visibility=visibility or side,
            modifiers=modifiers,
            table=dice_table,
            note=note,
        )


# --- who may read ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, side, status",
    [
        ("german", "german", 200),
        ("german", "soviet", 404),
        ("soviet", "soviet", 200),
        ("soviet", "german", 404),
        ("referee", "german", 200),
        ("referee", "soviet", 200),
        ("observer", "german", 404),
        ("observer", "soviet", 404),
        ("outsider", "german", 404),
        ("outsider", "soviet", 404),
    ],
)
def test_a_secret_step_is_read_by_its_side_and_the_referee_only(
    campaign, client_as, persona, side, status
):
    assert client_as(persona).get(url(campaign, side, "11.619")).status_code == status


@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_a_public_step_is_read_by_every_member(campaign, client_as, after, persona, status):
    assert client_as(persona).get(url(campaign, "german", "11.601")).status_code == status


@pytest.mark.parametrize(
    "side, rule", [("prussian", "11.619"), ("german", "11.601"), ("german", "99.999")]
)
def test_a_side_or_step_outside_the_open_refit_phase_is_not_found(campaign, client_as, side, rule):
    assert client_as("referee").get(url(campaign, side, rule)).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


# --- what the page shows ---------------------------------------------------------------------


def test_the_page_shows_the_step_its_sub_steps_and_what_to_do(campaign, client_as):
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    page = text(html)
    assert "11.620 RG strength, weapons &amp; leaders · German" in page
    assert "Secret step." in page
    assert "What to do at the table" in page
    assert "Only for RGs bought this CG day (or given in the initial OB)." in page
    sub_steps = text(block(html, "sub-steps"))
    assert "11.6201 Infantry &amp; AFV RG strength" in sub_steps
    assert "11.6207 Armor leaders" in sub_steps
    assert "† *" in page


def test_each_dice_table_has_a_roll_form_and_a_chart_has_none(campaign, client_as):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=1)
    reph = walker.open_reph(campaign)
    html = client_as("german").get(url(campaign, "german", "11.619")).content.decode()
    assert "Earlier steps come first" not in html
    # 11.619 lists only charts (RG purchase limits, Historical DRM): nothing to roll.
    assert "roll-form" not in html
    assert "A chart: look it up" in html
    assert reverse("purchases:page", args=[campaign.pk, "german"]) in html
    walker.mark(campaign, reph, side="german", rule="11.619", by=reph.campaign.created_by)
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    tables = re.findall(r'<article class="dice-table" data-table="([^"]+)"', html)
    assert tables[:3] == ["rf.rg-strength", "rf.historical-drm", "rf.scenario-balance"]
    # 12 tables, 3 of them charts; the Soviet OBA and Leader tables are not the German's
    assert html.count('class="roll-form"') == 7
    strength = re.search(
        r'<article class="dice-table" data-table="rf.rg-strength">(.*?)</article>', html, re.DOTALL
    ).group(1)
    assert "RG Strength Table" in strength
    assert "A secret roll: the German side and the referee see it." in strength
    assert "DRMs from the campaign: +1 Historical DRM (11.6161)" in " ".join(
        re.sub(r"<[^>]+>", " ", strength).split()
    )
    assert "Roll DR" in strength


def test_table_names_read_in_japanese(campaign, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    tables = campaign.game.files["tables"]["dice_tables"]
    strength = next(t for t in tables if t["id"] == "rf.rg-strength")["name"]
    assert strength["ja"] in html
    assert strength["en"] not in html


def test_the_rolls_of_this_step_and_side_are_listed_newest_first(campaign, client_as, people):
    walker.open_reph(campaign)
    roll(campaign, people, faces=(1, 2), note="first company")
    roll(
        campaign,
        people,
        faces=(6, 5),
        note="second company",
        modifiers=[Drm(-2, "Historical DRM (11.6161)"), Drm(1, "Balance")],
    )
    roll(campaign, people, step="11.621", table="rf.recon", faces=(4,), note="other step")
    roll(campaign, people, side="soviet", faces=(2, 2), note="soviet roll")
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    rows = re.findall(r"<tr data-roll=.*?</tr>", rolls_html(html), re.DOTALL)
    assert len(rows) == 2
    second, first = text(rows[0]), text(rows[1])
    assert "second company" in second and "first company" in first
    assert "DR 6 + 5 = 11" in second
    assert "−2 Historical DRM (11.6161)" in second and "+1 Balance" in second
    assert " 10 Depleted " in f" {second} "
    assert "DR 1 + 2 = 3" in first and "Full" in first
    assert "RG Strength Table" in second
    assert "other step" not in html and "soviet roll" not in html


def test_a_rolls_of_an_earlier_refit_phase_are_not_listed(campaign, client_as, people):
    walker.open_reph(campaign)
    roll(campaign, people, note="before the initial scenario", index=1)
    html = client_as("german").get(url(campaign, "german", "11.620")).content.decode()
    assert "before the initial scenario" not in rolls_html(html)
    assert "No rolls yet." in html


# --- acting ----------------------------------------------------------------------------------


def test_only_the_sides_players_and_the_referee_get_the_forms_of_a_public_step(
    campaign, client_as, after
):
    for persona in ("german", "referee"):
        html = client_as(persona).get(url(campaign, "german", "11.601")).content.decode()
        assert "mark-done" in html and "mark-skip" in html
    for persona in ("soviet", "observer"):
        html = client_as(persona).get(url(campaign, "german", "11.601")).content.decode()
        assert "mark-done" not in html and "mark-skip" not in html
        assert "<form" not in block(html, "step-status")


def test_a_later_step_points_to_the_current_one(campaign, client_as):
    html = client_as("german").get(url(campaign, "german", "11.621")).content.decode()
    status = text(block(html, "step-status"))
    assert "To do" in status
    assert "Earlier steps come first. The current step is 11.619." in status
    assert "mark-done" not in html
    assert "roll-form" not in html


def test_a_marked_step_offers_to_take_it_back_and_the_next_step(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walker.mark(
        campaign, reph, side="german", rule="11.619", by=people["german"], note="Bought 2 × I1"
    )
    html = client_as("german").get(url(campaign, "german", "11.619")).content.decode()
    status = text(block(html, "step-status"))
    assert "Done — german" in status
    assert "Bought 2 × I1" in status
    assert "Take back" in status
    assert "Next: 11.620 RG strength" in status


def test_a_both_sides_step_says_who_it_waits_for(campaign, client_as, people, after):
    mark_past(campaign, after, "german", "11.601", people)
    html = client_as("german").get(url(campaign, "german", "11.602")).content.decode()
    status = text(block(html, "step-status"))
    assert "Waiting for the other side to finish 11.601 Melee completion." in status
    assert "mark-done" not in html


# --- secrecy of rolls ------------------------------------------------------------------------


def test_a_secret_table_in_a_public_step_keeps_its_rolls_from_the_opponent(
    campaign, client_as, people, new_day
):
    # 11.612 is public, but 11.6122's SAN adjustment dr is secret.
    roll(
        campaign,
        people,
        step="11.612",
        table="rf.san-adjustment",
        faces=(6,),
        index=1,
        note="SAN XYZZY",
    )
    roll(
        campaign,
        people,
        step="11.612",
        table="rf.booby-trap-reduction",
        faces=(2,),
        index=1,
        visibility="public",
        note="booby PLUGH",
    )
    html = client_as("soviet").get(url(campaign, "german", "11.612")).content.decode()
    assert "XYZZY" not in html
    assert "booby PLUGH" in html
    assert "A secret roll: the German side and the referee see it." in html
    for persona in ("german", "referee"):
        html = client_as(persona).get(url(campaign, "german", "11.612")).content.decode()
        assert "SAN XYZZY" in html


# --- query counts ----------------------------------------------------------------------------


def count(client, path):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_step_page_reads_a_fixed_number_of_queries(
    campaign, client_as, people, persona, django_assert_max_num_queries
):
    reph = walker.open_reph(campaign)
    client = client_as(persona)
    path = url(campaign, "german", "11.620")
    mark_past(campaign, reph, "german", "11.619", people)
    mark_past(campaign, reph, "soviet", "11.619", people)
    none = count(client, path)
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            index=0,
            side="german",
            step="11.620",
            table_id="rf.rg-strength",
            kind="DR",
            faces=[n % 6 + 1, 3],
            original=n % 6 + 4,
            final=n % 6 + 4,
            modifiers=[{"value": -1, "reason": "r"}],
            result={"strength": "full"},
            visibility="german",
            rolled_by=people["german"],
        )
        for n in range(300)
    )
    with django_assert_max_num_queries(13):  # the rolls, and the facts the DRMs come from
        response = client.get(path)
    assert len(re.findall(r"<tr data-roll=", response.content.decode())) == 300
    assert count(client, path) == none


@pytest.mark.parametrize(
    "persona, sees_side_pages",
    [("german", True), ("referee", True), ("soviet", False), ("observer", False)],
)
def test_a_step_links_to_where_its_outcome_is_recorded(
    campaign, client_as, people, persona, sees_side_pages
):
    # 11.601 (melee, after the scenario) is public: every member reads the German's page.
    reph = walker.open_reph(campaign)
    for step in walker.steps(campaign, reph):
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    finish_phase(campaign, finish_phase(campaign, reph, by=people["referee"]), by=people["referee"])
    html = client_as(persona).get(url(campaign, "german", "11.601")).content.decode()
    links = re.search(r'<p class="help record-links">.*?</p>', html, re.DOTALL).group(0)
    assert reverse("campaigns:cvp", args=[campaign.pk]) in links
    orbat = reverse("campaigns:orbat", args=[campaign.pk, "german"])
    assert (orbat in links) is sees_side_pages


@pytest.mark.parametrize("rule, linked", [("11.603", True), ("11.611", True), ("11.601", False)])
def test_the_steps_that_read_the_scenarios_end_link_to_it(
    campaign, client_as, people, after, rule, linked
):
    from campaigns.models import Scenario
    from campaigns.records import services as records

    scenario = Scenario.objects.filter(campaign=campaign, index=after.index).first()
    if scenario is None:
        scenario = records.save_scenario(
            campaign, by=people["referee"], index=after.index, scenario_type="initial"
        )
    html = client_as("soviet").get(url(campaign, "soviet", rule)).content.decode()
    end = reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])
    assert (end in html) is linked


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_set_up_step_lists_ending_ammunition_shortage_as_a_sub_step(
    campaign, client_as, persona
):
    # Issue 15: 11.6243 is a sub-step of 11.624 (RF data 4), a reminder of an in-play rule.
    from tests.refit.builders import reph_at

    reph_at(campaign, "scenario_day", 1)
    html = client_as(persona).get(url(campaign, "german", "11.624")).content.decode()
    sub_steps = text(block(html, "sub-steps"))
    assert "11.6242 Isolated unit set-up" in sub_steps
    assert "11.6243 Removing Ammunition Shortage" in sub_steps
    assert sub_steps.index("11.6243") < sub_steps.index("11.6244")


def test_an_outsider_does_not_see_the_set_up_step(campaign, client_as):
    from tests.refit.builders import reph_at

    reph_at(campaign, "scenario_day", 1)
    response = client_as("outsider").get(url(campaign, "german", "11.624"))
    assert response.status_code == 404
    assert "Ammunition Shortage" not in response.content.decode()


def test_the_demos_step_page_reads_its_facts_once(client):
    """The demo's step page (RB CG I, 11.612: ELR and SAN with their DRMs and roll limits): the
    side's facts are read once for the DRMs, the limits and what is missing (32 queries before,
    docs/performance.md), and no more with hundreds of rolls in the campaign."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaigns.models import Campaign

    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get(name="Demo — Into the Factory")
    reph = walker.open_reph(campaign)
    rule = walker.steps(campaign, reph)[0].rule
    client.force_login(get_user_model().objects.get(username="german"))
    path = url(campaign, "german", rule)
    page = client.get(path)
    assert any(table.plan for table in page.context["tables"])
    few = count(client, path)
    assert few <= 23
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            index=n % 10,
            side="german",
            step=rule,
            table_id="rf.elr",
            kind="dr",
            faces=[n % 6 + 1],
            original=n % 6 + 1,
            final=n % 6 + 1,
            result={},
            visibility="german",
            rolled_by=page.wsgi_request.user,
            voided_at=timezone.now(),
        )
        for n in range(300)
    )
    assert count(client, path) == few
