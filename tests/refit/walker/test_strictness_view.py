"""The step page and its mark form under the Refit Phase's rules on rolls (issue 15): the
refusal reaches the page in words naming the rule, what is required is listed for those who
may mark the step, the referee's override and 11.6114 are offered where they apply, and the
booby-trap reduction is not offered to the German."""

import pytest
from django.urls import reverse

from campaigns.models import CampaignEvent, SideDay, StepProgress
from tests.refit.builders import booby_traps, reph_at
from tests.refit.walker.test_automatic import walk_to
from tests.refit.walker.test_mark_view import HTMX, done, skip, text

pytestmark = pytest.mark.django_db

SAN_REFUSAL = (
    "11.612 cannot be marked without the roll the rules require: SAN Adjustment (11.6122)."
)


def mark_url(campaign, side="german", rule="11.612"):
    return reverse("refit:mark", args=[campaign.pk, side, rule])


def step_url(campaign, side="german", rule="11.612"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


@pytest.fixture
def new_day(campaign):
    """18 Oct's new CG day with SAN 4 for both sides: 11.612 owes the SAN roll."""
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0, san=4, elr=3)
    return reph_at(campaign, "new_day", 1)


def test_the_refusal_reaches_the_page_and_keeps_what_was_typed(campaign, client_as, new_day):
    response = client_as("german").post(
        mark_url(campaign), done(new_day, note="we forgot the dice"), follow=True
    )
    page = text(response.content.decode())
    assert SAN_REFUSAL in page
    assert "The referee may mark the step all the same, with a written reason." in page
    assert "What you typed: we forgot the dice" in page
    assert not StepProgress.objects.exists()


def test_a_skip_with_any_text_is_refused_too(campaign, client_as, new_day):
    response = client_as("german").post(
        mark_url(campaign), skip(new_day, reason="not needed"), follow=True
    )
    assert SAN_REFUSAL in text(response.content.decode())
    assert not StepProgress.objects.exists()


def test_with_htmx_the_refusal_comes_in_the_status_block(campaign, client_as, new_day):
    response = client_as("german").post(mark_url(campaign), done(new_day), headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-status" data-status="current">')
    assert SAN_REFUSAL in text(html)


@pytest.mark.parametrize(
    "persona, listed, may_overrule",
    [
        ("german", True, False),
        ("referee", True, True),
        ("soviet", False, False),  # a public step of the other side: read, not marked
        ("observer", False, False),
    ],
)
def test_the_step_lists_what_it_requires_for_those_who_may_mark_it(
    campaign, client_as, new_day, persona, listed, may_overrule
):
    page = client_as(persona).get(step_url(campaign)).content.decode()
    assert ("Before this step can be marked:" in page) is listed
    assert (SAN_REFUSAL in text(page)) is listed
    assert ('name="overrule"' in page) is may_overrule


def test_an_outsider_sees_nothing(campaign, client_as, new_day):
    assert client_as("outsider").get(step_url(campaign)).status_code == 404
    assert client_as("outsider").post(mark_url(campaign), done(new_day)).status_code == 404


def test_the_referee_marks_it_with_a_reason(campaign, client_as, new_day):
    response = client_as("referee").post(
        mark_url(campaign), done(new_day, overrule="rolled at the table, app was down"), follow=True
    )
    assert "11.612 New CG day &amp; SAN adjustment done." in response.content.decode()
    event = CampaignEvent.objects.filter(action="refit.step_marked").latest("pk")
    assert event.data["overruled"] == "rolled at the table, app was down"
    history = client_as("german").get(reverse("campaigns:history", args=[campaign.pk]))
    assert "without what the rules require (referee: rolled at the table, app was down)" in (
        history.content.decode()
    )


def test_a_player_posting_a_reason_is_refused(campaign, client_as, new_day):
    response = client_as("german").post(
        mark_url(campaign), done(new_day, overrule="trust me"), follow=True
    )
    assert "Only the referee may mark a step without what the rules require first." in (
        response.content.decode()
    )
    assert not StepProgress.objects.exists()


def test_11_611_offers_11_6114_instead_of_the_leader_roll(campaign, client_as, people):
    after = reph_at(campaign, "after_scenario", 0)
    walk_to(campaign, after, people, "11.611")
    page = client_as("german").get(step_url(campaign, rule="11.611")).content.decode()
    assert "Chosen 11.6114 instead of the roll it replaces" in page
    assert 'name="instead"' in page


def test_the_german_is_not_offered_the_booby_trap_reduction(campaign, client_as, new_day):
    booby_traps(campaign)  # the Soviet's level B: the Soviet rolls it
    german = client_as("german").get(step_url(campaign)).content.decode()
    block = german.split('data-table="rf.booby-trap-reduction"')[1].split("</article>")[0]
    assert "Only the Soviet player rolls this (11.6123)." in block
    assert 'name="table" value="rf.booby-trap-reduction"' not in block
    soviet = client_as("soviet").get(step_url(campaign, side="soviet")).content.decode()
    block = soviet.split('data-table="rf.booby-trap-reduction"')[1].split("</article>")[0]
    assert "Only the Soviet player" not in block
    assert 'name="table" value="rf.booby-trap-reduction"' in block
