"""Marking a step on its page opens the side's next step in the same action (issue 19): no
"Next" link to press. The overview's Done stays on the overview."""

import pytest
from django.urls import reverse

from campaigns.models import StepProgress
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def mark_url(campaign, side="german", rule="11.601"):
    return reverse("refit:mark", args=[campaign.pk, side, rule])


def step_url(campaign, side="german", rule="11.602"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def overview_url(campaign, side="german"):
    return reverse("refit:overview", args=[campaign.pk]) + f"#side-{side}"


def done(reph, **extra):
    return {"reph": reph.pk, "action": "done", "then": "next", **extra}


@pytest.fixture
def after(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


@pytest.mark.parametrize(
    "persona, status",
    [("german", 302), ("referee", 302), ("soviet", 403), ("observer", 403), ("outsider", 404)],
)
def test_done_on_the_page_opens_the_next_step(campaign, client_as, after, persona, status):
    response = client_as(persona).post(mark_url(campaign), done(after))
    assert response.status_code == status
    marked = StepProgress.objects.filter(reph=after, side="german", rule="11.601").count()
    assert marked == (1 if status == 302 else 0)
    if status == 302:
        assert response["Location"] == step_url(campaign)


def test_with_htmx_the_browser_is_sent_to_the_next_step(campaign, client_as, after):
    response = client_as("german").post(mark_url(campaign), done(after), headers=HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == step_url(campaign)


def test_the_next_step_waiting_for_the_other_side_says_so(campaign, client_as, after):
    response = client_as("german").post(mark_url(campaign), done(after), follow=True)
    html = response.content.decode()
    assert "11.601" in html and "done." in html
    assert 'data-status="waiting"' in html


def test_a_skip_opens_the_next_step_too(campaign, client_as, after):
    response = client_as("german").post(
        mark_url(campaign), {**done(after), "action": "skip", "reason": "no need"}
    )
    assert response["Location"] == step_url(campaign)


def test_a_refused_mark_stays_on_its_page_with_what_was_typed(campaign, client_as, after):
    response = client_as("german").post(
        mark_url(campaign), {**done(after), "action": "skip", "reason": "", "note": "XYZZY"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Say why the step is skipped." in html
    assert not StepProgress.objects.filter(reph=after).exists()


def test_a_double_submit_marks_once(campaign, client_as, after):
    client = client_as("german")
    first = client.post(mark_url(campaign), done(after))
    second = client.post(mark_url(campaign), done(after))
    assert first.status_code == 302
    assert second.status_code == 200  # the step page again, saying why
    assert "11.601 is not your current step." in second.content.decode()
    assert StepProgress.objects.filter(reph=after, side="german").count() == 1


def test_a_stale_refit_phase_changes_nothing(campaign, client_as, people, after):
    old = after.pk
    walk_all(campaign, after, people)
    finish_phase(campaign, after, by=people["referee"])
    response = client_as("german").post(
        mark_url(campaign), {"reph": old, "action": "done", "then": "next"}, follow=True
    )
    assert "That page was for a Refit Phase that is already finished" in response.content.decode()
    assert response.redirect_chain[-1][0] == overview_url(campaign)


def test_the_last_step_goes_to_the_overview(campaign, client_as, people, after):
    rules = [step.rule for step in walker.steps(campaign, after)]
    for rule in rules[:-1]:
        for side in ("german", "soviet"):
            mark_past(campaign, after, side, rule, people)
    mark_past(campaign, after, "soviet", rules[-1], people)
    response = client_as("referee").post(
        mark_url(campaign, rule=rules[-1]), done(after, overrule="rolled at the table")
    )
    assert response["Location"] == overview_url(campaign)


def test_the_overviews_done_stays_on_the_overview(campaign, client_as, after):
    response = client_as("german").post(
        mark_url(campaign), {"reph": after.pk, "action": "done", "from": "overview"}
    )
    assert response["Location"] == overview_url(campaign)


def test_the_step_pages_forms_ask_for_the_next_step(campaign, client_as, after):
    html = client_as("german").get(reverse("refit:step", args=[campaign.pk, "german", "11.601"]))
    assert html.content.decode().count('<input type="hidden" name="then" value="next">') == 2
