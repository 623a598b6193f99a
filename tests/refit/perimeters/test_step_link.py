"""The perimeter steps link the perimeter map; the nav shows it for the games that have maps."""

import pytest
from django.urls import reverse

from tests.refit.builders import reph_at

pytestmark = pytest.mark.django_db


def test_the_11_605_step_links_the_perimeter_map(campaign, client_as):
    reph = reph_at(campaign, "after_scenario", 0)
    assert reph is not None
    map_url = reverse("perimeters:page", args=[campaign.pk])
    step = client_as("observer").get(reverse("refit:step", args=[campaign.pk, "german", "11.605"]))
    assert map_url in step.content.decode()
    other = client_as("observer").get(reverse("refit:step", args=[campaign.pk, "german", "11.607"]))
    body = other.content.decode()
    assert f'href="{map_url}"' in body  # the nav tab
    assert "perimeters-link" not in body
