"""Where a purchase or a roll waits for an unknown Historical DRM, the page links to the chart."""

import pytest
from django.urls import reverse

from campaigns.histdrm.services import Edit, save_chart
from refit.walker import services as walker

pytestmark = pytest.mark.django_db


def chart_url(campaign):
    return reverse("campaigns:histdrm", args=[campaign.pk])


def test_the_purchase_page_says_the_day_waits_and_links_to_the_chart(campaign, client_as):
    page = reverse("purchases:page", args=[campaign.pk, "german"])
    html = client_as("german").get(page).content.decode()
    assert "This day's Historical DRM is unknown" in html.replace("&#x27;", "'")
    assert f'href="{chart_url(campaign)}" class="histdrm-link"' in html


def test_once_the_day_is_known_the_purchase_page_no_longer_sends_there(campaign, client_as, people):
    save_chart(campaign, by=people["referee"], edits=[Edit(0, "german", 0, 0)])
    html = client_as("german").get(reverse("purchases:page", args=[campaign.pk, "german"]))
    assert 'class="histdrm-link"' not in html.content.decode()


def test_a_roll_that_waits_for_it_links_to_the_chart(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walker.mark(campaign, reph, side="german", rule="11.619", by=people["german"])
    step = reverse("refit:step", args=[campaign.pk, "german", "11.620"])
    html = client_as("german").get(step).content.decode()
    assert "the referee enters it on the Historical DRM chart first (11.6161)" in html
    assert f'href="{chart_url(campaign)}" class="histdrm-link"' in html
    save_chart(campaign, by=people["referee"], edits=[Edit(0, "german", 0, -1)])
    html = client_as("german").get(step).content.decode()
    assert 'class="histdrm-link"' not in html
