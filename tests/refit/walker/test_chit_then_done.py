"""Choosing the initiative chit and marking 11.623 done in one action (issue 19)."""

import pytest
from django.urls import reverse

from campaigns.models import StepProgress
from tests.refit.walker.test_chit_view import chit_url, chosen, reph, step_url  # noqa: F401

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def overview(campaign, side="german"):
    return reverse("refit:overview", args=[campaign.pk]) + f"#side-{side}"


def marked(phase, side="german"):
    return StepProgress.objects.filter(reph=phase, side=side, rule="11.623").count()


def test_the_button_is_on_the_chit_form(campaign, client_as, reph):  # noqa: F811
    html = client_as("german").get(step_url(campaign)).content.decode()
    assert "Choose, then mark 11.623 done" in html


@pytest.mark.parametrize(
    "persona, status",
    [("german", 302), ("referee", 302), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_choose_then_done_marks_the_last_step(
    campaign,
    client_as,
    reph,  # noqa: F811
    persona,
    status,
):
    response = client_as(persona).post(
        chit_url(campaign), {"reph": reph.pk, "chit": "attack", "then": "done"}
    )
    assert response.status_code == status
    assert (chosen(campaign, "german") == "attack") == (status == 302)
    assert marked(reph) == (1 if status == 302 else 0)
    if status == 302:
        assert response["Location"] == overview(campaign)  # 11.623 is the day's last step


def test_with_htmx_the_browser_goes_on(campaign, client_as, reph):  # noqa: F811
    response = client_as("german").post(
        chit_url(campaign), {"reph": reph.pk, "chit": "idle", "then": "done"}, headers=HTMX
    )
    assert response.status_code == 204 and response["HX-Redirect"] == overview(campaign)


def test_a_double_submit_marks_once(campaign, client_as, reph):  # noqa: F811
    client = client_as("german")
    data = {"reph": reph.pk, "chit": "idle", "then": "done"}
    client.post(chit_url(campaign), data)
    second = client.post(chit_url(campaign), data, follow=True)
    assert marked(reph) == 1
    assert second.status_code == 200


def test_a_stale_page_changes_nothing(campaign, client_as, reph):  # noqa: F811
    client_as("german").post(
        chit_url(campaign), {"reph": reph.pk + 40, "chit": "attack", "then": "done"}
    )
    assert chosen(campaign, "german") == "" and marked(reph) == 0
