"""The walker's pages kept live: each polls the member's change token, and fetches its blocks
again (HTMX) when it moves, keeping what the member has typed."""

import re

import pytest
from django.urls import reverse

from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def overview_url(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def step_url(campaign, side="german", rule="11.601"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


@pytest.fixture
def after(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_overview_polls_for_every_member(campaign, client_as, persona, after):
    html = client_as(persona).get(overview_url(campaign)).content.decode()
    assert 'id="live-poll"' in html
    assert reverse("campaigns:live", args=[campaign.pk]) + "?since=" in html
    assert 'hx-trigger="campaign-changed from:body"' in html


def test_the_outsider_gets_no_poll_of_the_overview(campaign, client_as, after):
    assert client_as("outsider").get(overview_url(campaign)).status_code == 404


def test_the_overview_fetched_again_is_its_walker_block(campaign, client_as, people, after):
    mark_past(campaign, after, "soviet", "11.601", people)
    response = client_as("german").get(overview_url(campaign), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="walker">')
    assert "<html" not in html and 'id="live-poll"' not in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    "persona, status", [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200)]
)
def test_a_public_step_fetched_again_is_its_status_and_dice_blocks(
    campaign, client_as, persona, status, after
):
    response = client_as(persona).get(step_url(campaign), **HTMX)
    html = response.content.decode()
    assert response.status_code == status
    assert html.lstrip().startswith('<section id="step-status"')
    assert '<section id="step-dice" hx-swap-oob="true">' in html
    assert "<html" not in html


@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("soviet", 404), ("referee", 200), ("observer", 404), ("outsider", 404)],
)
def test_a_secret_step_fetched_again_keeps_its_secrecy(campaign, client_as, persona, status):
    walker.open_reph(campaign)  # before the initial scenario: 11.619, secret
    response = client_as(persona).get(step_url(campaign, rule="11.619"), **HTMX)
    assert response.status_code == status


def test_the_waiting_side_sees_the_other_finish_a_both_sides_step(
    campaign, client_as, people, after
):
    mark_past(campaign, after, "german", "11.601", people)
    client = client_as("german")
    first = client.get(step_url(campaign, rule="11.602"), **HTMX).content.decode()
    assert 'data-status="waiting"' in first and "mark-done" not in first
    mark_past(campaign, after, "soviet", "11.601", people)
    again = client.get(step_url(campaign, rule="11.602"), **HTMX).content.decode()
    assert 'data-status="current"' in again and "mark-done" in again


def test_a_step_no_longer_running_sends_the_page_to_the_overview(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    finish_phase(campaign, reph, by=people["referee"])
    response = client_as("german").get(step_url(campaign, rule="11.619"), **HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == overview_url(campaign) + "#side-german"


def test_fetched_again_the_forms_keep_what_is_typed(campaign, client_as, people, after):
    html = client_as("german").get(step_url(campaign), **HTMX).content.decode()
    note = re.search(r"<textarea[^>]*id=\"id_mark_german_note\"[^>]*>", html)
    assert note and 'hx-preserve="true"' in note.group(0)
    reason = re.search(r"<[^>]*id=\"id_mark_german_reason\"[^>]*>", html)
    assert reason and 'hx-preserve="true"' in reason.group(0)
    hidden = re.search(r'<input type="hidden" name="reph"[^>]*>', html)
    assert hidden and "hx-preserve" not in hidden.group(0)  # the RePh is the server's


def test_after_the_members_own_change_the_forms_start_empty(campaign, client_as, people, after):
    """Only the page fetching itself keeps typed text; a mark's own answer is fresh."""
    html = client_as("german").get(step_url(campaign)).content.decode()
    assert "hx-preserve" not in html
    response = client_as("german").post(
        reverse("refit:mark", args=[campaign.pk, "german", "11.601"]),
        {"reph": after.pk, "action": "skip", "reason": ""},
        **HTMX,
    )
    assert "hx-preserve" not in response.content.decode()


@pytest.mark.parametrize(
    "persona, finishes", [("referee", True), ("german", False), ("observer", False)]
)
def test_the_referee_finish_form_arrives_when_the_last_step_is_marked(
    campaign, client_as, people, persona, finishes
):
    reph = walker.open_reph(campaign)
    client = client_as(persona)
    before = client.get(overview_url(campaign), **HTMX).content.decode()
    assert 'action="' + reverse("refit:finish", args=[campaign.pk]) not in before
    walk_all(campaign, reph, people)
    again = client.get(overview_url(campaign), **HTMX).content.decode()
    assert ('action="' + reverse("refit:finish", args=[campaign.pk]) in again) == finishes
    assert 'id="finish"' in again
