"""QA: once the Refit Phase is finished the day's scenario exists (made from what the app knows),
and the overview links to the page where its end is recorded."""

import pytest
from django.urls import reverse

from campaigns.models import Scenario
from campaigns.records import services as records
from refit.walker import services as walker
from tests.campaigns.records.test_scenarios import make_campaign
from tests.refit.builders import finish_phase, reph_at
from tests.refit.walker.test_finish_view import walked

pytestmark = pytest.mark.django_db


def overview_url(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def end_url(campaign, scenario):
    return reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])


@pytest.mark.parametrize(
    ("persona", "status", "linked"),
    [
        ("german", 200, True),
        ("soviet", 200, True),
        ("referee", 200, True),
        ("observer", 200, False),
        ("outsider", 404, False),
    ],
)
def test_the_initial_scenario_exists_when_play_starts_and_the_overview_links_its_end(
    campaign, people, client_as, persona, status, linked
):
    reph = walked(campaign, people)
    finish_phase(campaign, reph, by=people["referee"])
    # RB CG I (11.5, L605): the initial scenario, the Soviet sets up, the German moves first.
    scenario = Scenario.objects.get(campaign=campaign, index=0, sequence=1)
    assert (scenario.scenario_type, scenario.sets_up_first, scenario.moves_first) == (
        "initial",
        "soviet",
        "german",
    )
    response = client_as(persona).get(overview_url(campaign))
    assert response.status_code == status
    page = response.content.decode()
    assert (f'href="{end_url(campaign, scenario)}"' in page) is linked
    assert ("Record the scenario's end" in page) is linked


def test_a_scenario_already_recorded_is_kept(campaign, people):
    kept = records.save_scenario(
        campaign, by=people["referee"], index=0, scenario_type="initial", attacker="german"
    )
    reph = walked(campaign, people)
    finish_phase(campaign, reph, by=people["referee"])
    (scenario,) = Scenario.objects.filter(campaign=campaign)
    assert (scenario.pk, scenario.attacker) == (kept.pk, "german")


def test_every_sap_time_frame_gets_its_scenario(people):
    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    for kind in ("pre_cg", "daytime"):
        index = 0 if kind == "pre_cg" else 1
        reph = reph_at(sap, kind, index)
        Scenario.objects.filter(campaign=sap, index=index).delete()
        records.start_scenario(
            sap,
            by=people["referee"],
            index=reph.index,
            sequence=1,
            scenario_type=walker.PLAYED_TYPES[("slaughter_at_ponyri", kind)],
        )
        scenario = Scenario.objects.get(campaign=sap, index=index)
        # Seed L578: in every CG time frame the Russian sets up first, the German moves first.
        assert (scenario.scenario_type, scenario.sets_up_first, scenario.moves_first) == (
            "time_frame",
            "russian",
            "german",
        )


def test_without_a_scenario_the_overview_sends_to_the_scenarios_page(campaign, people, client_as):
    reph_at(campaign, "scenario", 0)
    page = client_as("soviet").get(overview_url(campaign)).content.decode()
    assert reverse("campaigns:scenarios", args=[campaign.pk]) in page
    assert 'id="scenario-link"' in page
