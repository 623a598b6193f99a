"""The secret notices name only who exists (issue 22): "the German side and the referee" where
a referee is seated, "the German side" where none is — in English and in Japanese. Whether a
referee is seated is read with the viewer's membership, in the same query."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import access
from refit.walker import services as walker
from tests.campaigns.reveal.test_reveal import refereeless  # noqa: F401

pytestmark = pytest.mark.django_db


def side_pages(campaign):
    reph = walker.open_reph(campaign)
    step = next(s for s in walker.steps(campaign, reph) if s.secret)
    return [
        reverse("campaigns:ledger", args=[campaign.pk, "german"]),
        reverse("campaigns:roster", args=[campaign.pk, "german"]),
        reverse("campaigns:orbat", args=[campaign.pk, "german"]),
        reverse("refit:step", args=[campaign.pk, "german", step.rule]),
        reverse("purchases:page", args=[campaign.pk, "german"]),
    ]


def read(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_without_a_referee_the_notices_name_the_side_alone(
    refereeless,  # noqa: F811
    client_as,
    language,
):
    client = client_as("german")
    for url in side_pages(refereeless):
        page = read(client, url, language)
        assert "陣営と審判" not in page and "側と審判" not in page
        assert "and the referee see" not in page and "and the referee only" not in page
        assert "made by the referee" not in page


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_with_a_referee_the_notices_name_the_referee(campaign, client_as, persona):
    pages = side_pages(campaign)
    ledger = read(client_as(persona), pages[0], "en")
    assert "only this side's players and the referee see these ledgers" in ledger
    step = read(client_as(persona), pages[3], "ja")
    assert "陣営と審判" in step


@pytest.mark.parametrize("persona", ["german", "soviet", "observer"])
def test_whether_a_referee_is_seated_costs_no_query_of_its_own(
    refereeless,  # noqa: F811
    campaign,
    people,
    persona,
):
    for each, expected in ((refereeless, False), (campaign, True)):
        viewer = access.viewer_for(people[persona], each.pk)
        with CaptureQueriesContext(connection) as queries:
            assert viewer.campaign_has_referee is expected
        assert len(queries) == 0


def test_outsiders_still_find_nothing(refereeless, client_as):  # noqa: F811
    for url in side_pages(refereeless)[:3]:
        assert client_as("outsider").get(url).status_code == 404
