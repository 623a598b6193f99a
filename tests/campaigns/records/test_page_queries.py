"""The overview and the record pages (calendar, scenarios, CVP) read a fixed number of queries,
whatever the campaign's size and whoever reads them (docs/performance.md, "layout")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.campaigns.builders import make_big_campaign

pytestmark = pytest.mark.django_db

# The session, the user, the seat, then the page's own: the members; the calendar days; the
# scenarios, their CVP lines, the days played and the live poll's token; the scenarios and the
# CVP entries. (An observer, who has no form to fill, reads no days played.)
PAGES = {"detail": 4, "calendar": 4, "scenarios": 7, "cvp": 5}


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("persona", ["german", "referee", "observer"])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_reads_the_same_few_queries_whatever_the_size(
    campaign, people, client_as, persona, page
):
    client = client_as(persona)
    small = queries(client, reverse(f"campaigns:{page}", args=[campaign.pk]))
    big = make_big_campaign(people)
    large = queries(client, reverse(f"campaigns:{page}", args=[big.pk]))
    expected = PAGES[page] - (page == "scenarios" and persona == "observer")
    assert small == large == expected
