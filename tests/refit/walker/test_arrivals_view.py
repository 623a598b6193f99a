"""The time frame's arrivals on the OB page (five personas), the history and the export
(issue 16)."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.access import viewer_for
from campaigns.models import CampaignEvent, OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.transfer import services as transfer
from refit.walker import arrivals
from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def at_cg3(sap_campaign, people):
    walk_to(sap_campaign, people, 2)
    return sap_campaign


def ob_url(campaign, side):
    return reverse("campaigns:orbat", args=[campaign.pk, side])


@pytest.mark.parametrize("persona", ["soviet", "referee"])
def test_the_russian_and_the_referee_see_the_stavka_armor_and_how_it_enters(
    at_cg3, client_as, persona
):
    html = client_as(persona).get(ob_url(at_cg3, "russian")).content.decode()
    assert "Time-frame reinforcements awaiting entry" in html
    assert "30 × T-34 M43" in html or "T-34 M43" in html
    assert "Stavka armor (leaves the CG at the end of its time frame)" in html
    assert "How it enters: CG-3: Stavka reinforcements (SSR CG7.22)" in html
    # The RGs of the time frame: their own box, their source and entry.
    assert "Time-frame reinforcement" in html


@pytest.mark.parametrize("persona", ["german", "observer", "outsider"])
def test_nobody_else_sees_the_russian_arrivals(at_cg3, client_as, persona):
    response = client_as(persona).get(ob_url(at_cg3, "russian"))
    assert response.status_code == 404


def test_the_german_page_has_no_arrivals_box_when_nothing_arrived(at_cg3, client_as):
    html = client_as("german").get(ob_url(at_cg3, "german")).content.decode()
    assert "Time-frame reinforcements awaiting entry" not in html


def test_the_page_reads_in_japanese(at_cg3, client_as):
    client = client_as("soviet")
    html = client.get(ob_url(at_cg3, "russian"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    with translation.override("ja"):
        assert "進入待ちの時間帯増援" in html
        assert "進入方法: CG-3: ターン 1 以降" in html


@pytest.mark.parametrize(
    ("persona", "sees"),
    [("soviet", True), ("referee", True), ("german", False), ("observer", False)],
)
def test_the_arrival_event_is_the_russians_secret(at_cg3, people, persona, sees):
    viewer = viewer_for(people[persona], at_cg3.pk)
    events = viewer.filter_visible(
        CampaignEvent.objects.filter(campaign=at_cg3, action=arrivals.ACTION, data__index=2)
    )
    assert events.exists() is sees


def test_the_export_round_trips_the_arrivals(at_cg3, people):
    data = transfer.build_export(viewer_for(people["referee"], at_cg3.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )

    def shape(campaign):
        rgs = sorted(
            (
                rg.side,
                rg.rg_id,
                rg.number,
                rg.source,
                rg.index,
                rg.details.get("arrival", {}).get("group"),
            )
            for rg in ReinforcementGroup.objects.filter(campaign=campaign)
        )
        lines = sorted(
            (line.side, line.unit_type, line.quantity, tuple(line.statuses), line.status_note)
            for line in OrbatEntry.objects.filter(campaign=campaign, box=OrbatBox.ARRIVING)
        )
        return rgs, lines

    assert shape(copy_) == shape(at_cg3)
    assert len(shape(copy_)[1]) == 3
    # The German's own export holds none of the Russian arrivals.
    german = transfer.build_export(viewer_for(people["german"], at_cg3.pk))
    assert not [row for row in german["orbat"] if row["side"] == "russian"]
