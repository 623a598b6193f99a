"""The step page names the OB line a roll is for: only the side's own lines, only to those
who act for the side; the roll books its result onto that line."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, OrbatEntry
from campaigns.orbat import services as orbat
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db


def step_url(campaign, side="german", rule="11.610"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def roll_url(campaign, side="german", rule="11.610"):
    return reverse("refit:roll", args=[campaign.pk, side, rule])


@pytest.fixture
def reph(campaign, people):
    reph = reph_at(campaign, "after_scenario", 0)
    walk_to(campaign, reph, people, "11.610")
    return reph


@pytest.fixture
def lines(campaign, people):
    german = orbat.add_units(
        campaign,
        by=people["german"],
        side="german",
        box="wounded",
        text="9-2 leader from I5#1",
        statuses=["wounded"],
    )[0]
    soviet = orbat.add_units(
        campaign,
        by=people["soviet"],
        side="soviet",
        box="wounded",
        text="8-1 commissar",
        statuses=["wounded"],
    )[0]
    return german, soviet


@pytest.mark.parametrize(
    "persona, status, picks",
    [
        ("german", 200, True),
        ("referee", 200, True),
        ("soviet", 200, False),
        ("observer", 200, False),
        ("outsider", 404, False),
    ],
)
def test_the_line_picker_shows_the_sides_own_lines_to_those_who_roll_for_it(
    campaign, client_as, reph, lines, persona, status, picks
):
    response = client_as(persona).get(step_url(campaign))
    assert response.status_code == status
    html = response.content.decode()
    assert ("9-2 leader" in html) is picks
    assert 'name="line"' in html if picks else 'name="line"' not in html
    assert "8-1 commissar" not in html  # never the other side's line


def test_a_roll_posted_with_its_line_books_the_result(campaign, client_as, reph, lines):
    german, soviet = lines
    posted = {"reph": reph.pk, "table": "rf.wounded-leader", "note": "", "line": german.pk}
    with dice.use_roller(Loaded(5)):
        response = client_as("german").post(roll_url(campaign), posted)
    assert response.status_code == 302
    assert OrbatEntry.objects.get(pk=german.pk).box == "casualties"
    assert CampaignEvent.objects.get(action="orbat.result").data["line"] == german.pk


@pytest.mark.parametrize("line", ["soviet", "none"])
def test_a_roll_without_one_of_the_sides_lines_is_not_rolled(
    campaign, client_as, reph, lines, line
):
    german, soviet = lines
    posted = {"reph": reph.pk, "table": "rf.wounded-leader", "note": ""}
    if line == "soviet":
        posted["line"] = soviet.pk
    response = client_as("german").post(roll_url(campaign), posted)
    assert response.status_code == 200
    assert not DiceRoll.objects.exists()
    assert OrbatEntry.objects.get(pk=soviet.pk).box == "wounded"


@pytest.mark.parametrize("persona", ["observer", "soviet"])
def test_those_who_do_not_act_for_the_side_cannot_roll_for_its_line(
    campaign, client_as, reph, lines, persona
):
    german, _soviet = lines
    posted = {"reph": reph.pk, "table": "rf.wounded-leader", "note": "", "line": german.pk}
    assert client_as(persona).post(roll_url(campaign), posted).status_code == 403
    assert not DiceRoll.objects.exists()


def test_the_picker_costs_the_same_queries_however_long_the_ob(
    campaign, client_as, people, reph, lines
):
    client = client_as("german")

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(step_url(campaign)).status_code == 200
        return len(queries)

    before = count()
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side="german",
            box="wounded",
            unit_type="8-0",
            kind="leader",
            quantity=1,
            statuses=["wounded"],
        )
        for _ in range(200)
    )
    assert count() == before
    html = client.get(step_url(campaign)).content.decode()
    assert len(re.findall(r"<option value=\"\d+\">1 × 8-0", html)) == 200


@pytest.mark.parametrize(
    "persona, sees", [("german", True), ("referee", True), ("soviet", False), ("observer", False)]
)
def test_the_rolls_table_names_the_booked_line_to_those_who_see_the_side(
    campaign, client_as, people, reph, lines, persona, sees
):
    german, _soviet = lines
    posted = {"reph": reph.pk, "table": "rf.wounded-leader", "note": "", "line": german.pk}
    with dice.use_roller(Loaded(5)):
        client_as("german").post(roll_url(campaign), posted)
    html = client_as(persona).get(step_url(campaign)).content.decode()
    assert "leader eliminated" in html  # the public roll's result, for every member
    assert ("Order of battle: 1 × 9-2 leader: leader eliminated" in html) is sees
    assert ("9-2 leader" in html) is sees
