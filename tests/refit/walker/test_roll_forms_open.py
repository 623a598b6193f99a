"""A roll that is the step's next action has its form open (no click to unfold it), with or
without JavaScript; once rolled it folds, and the next one is open (issue 19)."""

import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from refit.walker import automatic
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def url(campaign, side, rule):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def forms(html):
    """Each dice table of the page: whether it has a roll form, and whether it is open."""
    articles = re.findall(
        r'<article class="dice-table" data-table="([^"]+)">(.*?)</article>', html, re.DOTALL
    )
    return {
        table: ('<details class="roll" open>' in body, '<details class="roll"' in body)
        for table, body in articles
    }


@pytest.fixture
def at_weather(campaign, people):
    """A new CG day's RePh, both sides at 11.618 (weather and EC, rolled by the Soviet)."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    for step in walker.steps(campaign, new_day):
        if step.rule == "11.618":
            break
        for side in ("german", "soviet"):
            mark_past(campaign, new_day, side, step.rule, people)
    return new_day


@pytest.mark.parametrize(
    "persona, expected",
    [
        ("soviet", {"rf.weather": (True, True), "rf.ec": (True, True)}),
        ("referee", {"rf.weather": (True, True), "rf.ec": (True, True)}),
        ("german", {"rf.weather": (False, False), "rf.ec": (False, False)}),
        ("observer", {"rf.weather": (False, False), "rf.ec": (False, False)}),
    ],
)
def test_the_rolls_due_are_open_for_those_who_roll_them(
    campaign, client_as, persona, expected, at_weather
):
    html = client_as(persona).get(url(campaign, "soviet", "11.618")).content.decode()
    assert forms(html) == expected


def test_the_outsider_sees_no_step(campaign, client_as, at_weather):
    assert client_as("outsider").get(url(campaign, "soviet", "11.618")).status_code == 404


def test_a_table_rolled_folds_and_the_other_stays_open(campaign, client_as, people, at_weather):
    with dice.use_roller(3):
        automatic.roll(
            campaign,
            at_weather,
            side="soviet",
            step="11.618",
            table_id="rf.weather",
            answers={},
            by=people["soviet"],
        )
    seen = forms(client_as("soviet").get(url(campaign, "soviet", "11.618")).content.decode())
    assert seen["rf.ec"] == (True, True)
    assert seen["rf.weather"][0] is False  # rolled: folded, or no form at all


def test_a_required_roll_is_opened_before_the_optional_ones(campaign, client_as, people):
    """11.612: the SAN adjustment is required at SAN 4+ (the Soviet's here); the booby-trap
    reduction is not opened while it waits."""
    from campaigns.models import SideDay

    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    finish_phase(campaign, after, by=people["referee"])
    SideDay.objects.filter(campaign=campaign, side="soviet").update(san=4)
    seen = forms(client_as("soviet").get(url(campaign, "soviet", "11.612")).content.decode())
    assert seen["rf.san-adjustment"] == (True, True)
    assert seen.get("rf.booby-trap-reduction", (False, False))[0] is False


def test_a_step_with_many_tables_keeps_them_folded(campaign, client_as, people):
    """RF 11.620's nine tables are for rolls made by hand (the RG rolls are made on the RG
    page): nine open forms would hide the step."""
    from campaigns.models import SideDay

    reph = walker.open_reph(campaign)
    SideDay.objects.filter(campaign=campaign).update(hist_drm=0)
    mark_past(campaign, reph, "german", "11.619", people)
    seen = forms(client_as("german").get(url(campaign, "german", "11.620")).content.decode())
    assert len([t for t, (_, has_form) in seen.items() if has_form]) > 3
    assert not any(is_open for is_open, _ in seen.values())
