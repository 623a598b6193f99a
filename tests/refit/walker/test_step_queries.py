"""The demo's first step page (RB CG I, day 2's 11.612 with its booby-trap reduction roll to
make) stays within 15 queries (issue 18): the RePh's rolls are read once for the step's
tables, the DRM facts only where a table's DRMs read them, the RePh's events once."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign
from refit.walker import services as walker

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("demo", stdout=io.StringIO())
    return Campaign.objects.get(module="red_factories")


@pytest.mark.parametrize("persona", ["german", "referee", "soviet", "observer"])
def test_the_demo_s_first_step_page_makes_at_most_15_queries(
    demo, client, persona, django_assert_max_num_queries
):
    reph = walker.open_reph(demo)
    rule = walker.steps(demo, reph)[0].rule
    client.force_login(get_user_model().objects.get(username=persona))
    url = reverse("refit:step", args=[demo.pk, "german", rule])
    with django_assert_max_num_queries(15):
        response = client.get(url)
    assert response.status_code == 200
    if persona == "german":  # the page plans the step's rolls: the facts were read
        assert 'class="drm-plan"' in response.content.decode()
