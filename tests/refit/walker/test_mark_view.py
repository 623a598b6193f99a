"""Marking a step done or skipped, and taking a mark back."""

import re

import pytest
from django.urls import reverse

from campaigns.models import CampaignEvent, StepProgress
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def mark_url(campaign, side="german", rule="11.619"):
    return reverse("refit:mark", args=[campaign.pk, side, rule])


def unmark_url(campaign, side="german", rule="11.619"):
    return reverse("refit:unmark", args=[campaign.pk, side, rule])


def overview_url(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def marks(campaign):
    return sorted(
        StepProgress.objects.filter(reph__campaign=campaign).values_list(
            "side", "rule", "status", "reason", "note"
        )
    )


def done(reph, **extra):
    return {"reph": reph.pk, "action": "done", **extra}


def skip(reph, reason="", **extra):
    return {"reph": reph.pk, "action": "skip", "reason": reason, **extra}


@pytest.fixture
def reph(campaign):
    return walker.open_reph(campaign)


@pytest.fixture
def after(campaign, people, reph):
    """The RePh after the initial scenario: 11.601 … are public steps."""
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


# --- who may mark --------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona, status", [("soviet", 404), ("observer", 404), ("outsider", 404)])
def test_nobody_else_marks_a_german_secret_step(campaign, client_as, reph, persona, status, htmx):
    client = client_as(persona)
    headers = HTMX if htmx else {}
    assert client.post(mark_url(campaign), done(reph), headers=headers).status_code == status
    assert marks(campaign) == []


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona, status", [("soviet", 403), ("observer", 403), ("outsider", 404)])
def test_a_public_step_is_marked_by_its_side_and_the_referee_only(
    campaign, client_as, after, persona, status, htmx
):
    headers = HTMX if htmx else {}
    response = client_as(persona).post(
        mark_url(campaign, "german", "11.601"), done(after), headers=headers
    )
    assert response.status_code == status
    assert not after.progress.exists()


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_sides_player_or_the_referee_marks_a_step_done(campaign, client_as, reph, persona):
    response = client_as(persona).post(mark_url(campaign), done(reph, note="Bought 2 × I1"))
    assert response.status_code == 302
    assert response["Location"] == overview_url(campaign) + "#side-german"
    assert marks(campaign) == [("german", "11.619", "done", "", "Bought 2 × I1")]
    event = CampaignEvent.objects.get(action="refit.step_marked")
    assert event.visibility == "german"


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_nobody_else_takes_a_german_mark_back(campaign, client_as, people, reph, persona):
    mark_past(campaign, reph, "german", "11.619", people)
    response = client_as(persona).post(unmark_url(campaign), {"reph": reph.pk})
    assert response.status_code == 404
    assert len(marks(campaign)) == 1


@pytest.mark.parametrize("persona, status", [("soviet", 403), ("observer", 403)])
def test_a_public_marks_is_taken_back_by_its_side_only(
    campaign, client_as, people, after, persona, status
):
    mark_past(campaign, after, "german", "11.601", people)
    response = client_as(persona).post(unmark_url(campaign, "german", "11.601"), {"reph": after.pk})
    assert response.status_code == status
    assert after.progress.count() == 1


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client, reph):
    assert client.post(mark_url(campaign), done(reph)).status_code == 302
    assert marks(campaign) == []


def test_a_get_is_refused(campaign, client_as):
    assert client_as("german").get(mark_url(campaign)).status_code == 405


# --- marking -------------------------------------------------------------------------------


def test_a_skip_keeps_its_reason_and_the_overview_says_so(campaign, client_as, reph):
    client = client_as("german")
    response = client.post(mark_url(campaign), skip(reph, "No CPP left"), follow=True)
    assert marks(campaign) == [("german", "11.619", "skipped", "No CPP left", "")]
    html = response.content.decode()
    assert "11.619 RG purchase skipped." in html
    assert "Skipped: No CPP left" in text(html)


def test_a_skip_without_a_reason_is_refused_on_the_step_page(campaign, client_as, reph):
    response = client_as("german").post(mark_url(campaign), skip(reph, "  "))
    assert response.status_code == 200
    assert "Say why the step is skipped." in response.content.decode()
    assert marks(campaign) == []


def test_steps_are_marked_in_order_and_what_was_typed_is_kept(campaign, client_as, reph):
    response = client_as("german").post(
        mark_url(campaign, "german", "11.620"), done(reph, note="Rolled three companies")
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "11.620 is not your current step." in html
    # 11.620 has no mark form yet: what was typed comes back in a message.
    assert "What you typed: Rolled three companies" in html
    assert marks(campaign) == []


def test_a_both_sides_step_waits_for_the_other_side(campaign, client_as, people, after):
    mark_past(campaign, after, "german", "11.601", people)
    response = client_as("german").post(
        mark_url(campaign, "german", "11.602"), done(after), follow=True
    )
    assert "Waiting for the other side to finish 11.602." in response.content.decode()
    assert after.progress.count() == 1


def test_a_page_from_a_finished_refit_phase_changes_nothing(campaign, client_as, people, reph):
    old = reph.pk
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    before = after.progress.count()
    response = client_as("german").post(
        mark_url(campaign, "german", "11.601"), {"reph": old, "action": "done"}, follow=True
    )
    assert "That page was for a Refit Phase that is already finished" in response.content.decode()
    assert after.progress.count() == before


def test_with_htmx_the_step_status_block_is_swapped(campaign, client_as, reph):
    response = client_as("german").post(mark_url(campaign), done(reph, note="Two I1"), headers=HTMX)
    assert response.status_code == 200
    assert response["Vary"] == "HX-Request" or "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-status" data-status="done">')
    assert "11.619 RG purchase done." in html
    assert "Take back" in html
    assert "Next: 11.620" in text(html)
    # The dice block follows out of band: 11.619 has no roll form any more.
    assert '<section id="step-dice" hx-swap-oob="true">' in html


def test_with_htmx_a_refused_skip_keeps_the_form_in_the_block(campaign, client_as, reph):
    response = client_as("german").post(mark_url(campaign), skip(reph, ""), headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-status" data-status="current">')
    assert "Say why the step is skipped." in html


def test_from_the_overview_htmx_swaps_the_walker(campaign, client_as, reph):
    response = client_as("german").post(
        mark_url(campaign), done(reph, **{"from": "overview"}), headers=HTMX
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="walker">')
    assert "11.619 RG purchase done." in html
    row = re.search(r'<section id="side-german".*?</section>', html, re.DOTALL).group(0)
    assert 'data-rule="11.620" data-status="current"' in row


def test_from_the_overview_an_ordering_error_is_a_message_there(campaign, client_as, reph):
    client = client_as("german")
    response = client.post(
        mark_url(campaign, "german", "11.621"), done(reph, **{"from": "overview"}), follow=True
    )
    assert response.redirect_chain[-1][0] == overview_url(campaign) + "#side-german"
    assert "11.621 is not your current step." in response.content.decode()


# --- taking back ---------------------------------------------------------------------------


def test_a_mark_is_taken_back_until_a_later_step_is_marked(campaign, client_as, people, reph):
    for rule in ("11.619", "11.620"):
        mark_past(campaign, reph, "german", rule, people)
    client = client_as("german")
    response = client.post(unmark_url(campaign, "german", "11.619"), {"reph": reph.pk}, follow=True)
    assert "A later step is already started; take that back first." in response.content.decode()
    assert len(marks(campaign)) == 2
    response = client.post(unmark_url(campaign, "german", "11.620"), {"reph": reph.pk})
    assert response.status_code == 302
    assert marks(campaign) == [("german", "11.619", "done", "", "")]
    assert CampaignEvent.objects.filter(action="refit.step_unmarked").count() == 1


def test_with_htmx_taking_back_swaps_the_status_block(campaign, client_as, people, reph):
    mark_past(campaign, reph, "german", "11.619", people)
    response = client_as("referee").post(unmark_url(campaign), {"reph": reph.pk}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-status" data-status="current">')
    assert "11.619 RG purchase taken back" in html
    assert marks(campaign) == []


def test_a_stale_take_back_changes_nothing(campaign, client_as, people, reph):
    mark_past(campaign, reph, "german", "11.619", people)
    response = client_as("german").post(unmark_url(campaign), {"reph": reph.pk + 1}, follow=True)
    assert "already finished" in response.content.decode()
    assert len(marks(campaign)) == 1


# --- queries -------------------------------------------------------------------------------


def test_marking_reads_a_fixed_number_of_queries(
    campaign, client_as, people, after, django_assert_max_num_queries
):
    client = client_as("german")
    for rule in ("11.601", "11.602", "11.603"):
        mark_past(campaign, after, "soviet", rule, people)
        with django_assert_max_num_queries(16):
            response = client.post(mark_url(campaign, "german", rule), done(after), headers=HTMX)
        assert response.status_code == 200
    assert after.progress.filter(side="german").count() == 3
