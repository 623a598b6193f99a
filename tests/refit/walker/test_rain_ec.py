"""SaP CG-6.1: 9 July PM's EC is Wet after rain in 9 July AM, else Moderate — recorded on the
calendar, booked, not asked (campaigns.records.services.book_ec_after_rain; issue 16)."""

import pytest
from django.urls import reverse

from campaigns.models import CampaignDay
from campaigns.records.conditions import ec_after_rain

pytestmark = pytest.mark.django_db
DEPENDS = {"ec_depends_on": {"rain_in_previous_time_frame": "wet", "otherwise": "moderate"}}


@pytest.mark.parametrize(("rain", "ec"), [(True, "wet"), (False, "moderate"), (None, None)])
def test_cg6_1_ec_after_rain(rain, ec):
    assert ec_after_rain(DEPENDS, rain) == ec
    assert ec_after_rain({"ec": "moderate"}, rain) is None


def day_url(campaign, index):
    return reverse("campaigns:day", args=[campaign.pk, index])


def form(version, **fields):
    return {
        "moon": "",
        "weather": "",
        "ec": "",
        "wind": "",
        "notes": "",
        "version": version,
        **fields,
    }


def day(campaign, index):
    return CampaignDay.objects.get(campaign=campaign, index=index)


@pytest.mark.parametrize(("rain", "ec"), [("true", "wet"), ("false", "moderate")])  # keys
def test_recording_rain_in_9_july_am_books_9_july_pm(sap_campaign, client_as, rain, ec):
    assert day(sap_campaign, 5).ec == ""  # unknown until 9 July AM is played
    am = day(sap_campaign, 4)
    response = client_as("referee").post(
        day_url(sap_campaign, 4), form(am.version, weather=am.weather, ec=am.ec, rain=rain)
    )
    assert response.status_code == 302
    assert day(sap_campaign, 4).rain is (rain == "true")
    assert day(sap_campaign, 5).ec == ec


def test_a_typed_ec_is_never_replaced(sap_campaign, client_as):
    pm = day(sap_campaign, 5)
    pm.ec = "Moist"
    pm.save()
    am = day(sap_campaign, 4)
    client_as("german").post(
        day_url(sap_campaign, 4), form(am.version, weather=am.weather, ec=am.ec, rain="true")
    )
    assert day(sap_campaign, 5).ec == "Moist"


def test_only_the_day_before_cg6_asks_for_rain(sap_campaign, campaign, client_as):
    client = client_as("referee")
    assert (
        "Rain fell in this time frame (CG-6.1)"
        in client.get(day_url(sap_campaign, 4)).content.decode()
    )
    assert "CG-6.1" not in client.get(day_url(sap_campaign, 3)).content.decode()
    assert "CG-6.1" not in client.get(day_url(campaign, 1)).content.decode()


@pytest.mark.parametrize(("persona", "status"), [("observer", 403), ("outsider", 404)])
def test_observers_and_outsiders_record_no_rain(sap_campaign, client_as, persona, status):
    am = day(sap_campaign, 4)
    response = client_as(persona).post(
        day_url(sap_campaign, 4), form(am.version, weather=am.weather, rain="true")
    )
    assert response.status_code == status
    assert day(sap_campaign, 4).rain is None


def test_the_rain_round_trips_in_the_export(sap_campaign, people):
    from campaigns.access import viewer_for
    from campaigns.transfer import services as transfer

    CampaignDay.objects.filter(campaign=sap_campaign, index=4).update(rain=True)
    data = transfer.build_export(viewer_for(people["observer"], sap_campaign.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    assert day(copy_, 4).rain is True and day(copy_, 3).rain is None
