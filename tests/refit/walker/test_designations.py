"""The time frame's reinforcements page and the Russian's CG-3.1/3.2/4.1 designations with
CG-4.2's south-edge check (refit.walker.arrivals.designate; issue 16)."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, SideDay
from campaigns.state import StateError
from refit.walker import arrivals
from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db


def url(campaign, side):
    return reverse("refit:arrivals", args=[campaign.pk, side])


def row(campaign, index, side="russian"):
    return SideDay.objects.get(campaign=campaign, index=index, side=side)


def test_cg3_designations_are_recorded_and_undone(sap_campaign, people):
    walk_to(sap_campaign, people, 2)
    day = row(sap_campaign, 2)
    arrivals.designate(
        sap_campaign,
        "russian",
        turn_two={"T-34 M43": 10, "I2": 2, "KV-1 M42": 0},
        south=None,
        version=day.version,
        by=people["soviet"],
    )
    assert row(sap_campaign, 2).arrival_plan == {
        "turn_two": {"T-34 M43": 10, "I2": 2},
        "south": None,
    }
    event = CampaignEvent.objects.get(campaign=sap_campaign, action="orbat.designated")
    assert event.visibility == "russian"
    assert "10 × T-34 M43" in history.describe(event)
    history.undo(event, by=people["soviet"])
    assert row(sap_campaign, 2).arrival_plan == {}


def test_cg3_refuses_more_than_arrive(sap_campaign, people):
    walk_to(sap_campaign, people, 2)
    with pytest.raises(StateError, match="31 designated for turn 2, but 30 arrive"):
        arrivals.designate(
            sap_campaign,
            "russian",
            turn_two={"T-34 M43": 31},
            south=None,
            version=row(sap_campaign, 2).version,
            by=people["soviet"],
        )


@pytest.mark.parametrize(("south", "ok"), [(9, False), (10, True), (32, True), (33, False)])
def test_cg4_2_at_least_10_via_the_south_edge(sap_campaign, people, south, ok):
    walk_to(sap_campaign, people, 3)
    call = lambda: arrivals.designate(  # noqa: E731
        sap_campaign,
        "russian",
        turn_two={},
        south=south,
        version=row(sap_campaign, 3).version,
        by=people["soviet"],
    )
    if ok:
        call()
        assert row(sap_campaign, 3).arrival_plan["south"] == south
    else:
        with pytest.raises(StateError):
            call()


def test_no_designations_outside_cg3_and_cg4(sap_campaign, people):
    walk_to(sap_campaign, people, 1)
    with pytest.raises(StateError, match="no designations"):
        arrivals.designate(
            sap_campaign,
            "german",
            turn_two={"I1": 1},
            south=None,
            version=row(sap_campaign, 1, "german").version,
            by=people["german"],
        )


@pytest.mark.parametrize("persona", ["soviet", "referee"])
def test_the_russian_and_the_referee_see_the_page(sap_campaign, people, client_as, persona):
    walk_to(sap_campaign, people, 3)
    html = client_as(persona).get(url(sap_campaign, "russian")).content.decode()
    assert "15 × T-70" in html
    assert "CG-4.2: at least 10 of these AFVs must enter via the south edge." in html


@pytest.mark.parametrize("persona", ["german", "observer", "outsider"])
def test_nobody_else_sees_the_russian_page(sap_campaign, client_as, persona):
    assert client_as(persona).get(url(sap_campaign, "russian")).status_code == 404


def test_the_form_records_and_refuses_in_words(sap_campaign, people, client_as):
    walk_to(sap_campaign, people, 3)
    client = client_as("soviet")
    page = client.get(url(sap_campaign, "russian"))
    names = [name for name, key, *_r in page.context["fields"]]
    version = row(sap_campaign, 3).version
    refused = client.post(url(sap_campaign, "russian"), {"version": version, "south": "9"})
    assert refused.status_code == 200
    assert "At least 10 of these AFVs must enter via the south edge." in refused.content.decode()
    done = client.post(
        url(sap_campaign, "russian"), {"version": version, "south": "12", names[0]: "3"}
    )
    assert done.status_code == 302
    assert row(sap_campaign, 3).arrival_plan == {"turn_two": {"T-70": 3}, "south": 12}
    assert client_as("observer").post(url(sap_campaign, "russian"), {}).status_code == 404


def test_the_page_reads_in_japanese(sap_campaign, people, client_as):
    walk_to(sap_campaign, people, 1)
    html = client_as("german").get(url(sap_campaign, "german"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "進入方法" in html.content.decode()
    assert "増援" in html.content.decode()
