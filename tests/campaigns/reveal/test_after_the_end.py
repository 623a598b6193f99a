"""After the CG's end the perimeter page and the step pages read the record (issue 22): the
perimeter of each Refit Phase and each step's marks, read-only, for every member who may read
them; the other side's secret step notes and undeclared units only once the campaign is
revealed; an outsider still finds nothing."""

import pytest
from django.urls import reverse

from campaigns.models import RefitPhase, StepProgress
from campaigns.oid import oid
from refit.models import PerimeterState
from refit.walker import services as walker
from tests.campaigns.reveal.test_reveal import end_cg, post_reveal, secrets  # noqa: F401
from tests.url_world import GERMAN_SECRET

pytestmark = pytest.mark.django_db

STEP_NOTE = "The-German-step-note-7q1"
MEMBERS = ("german", "soviet", "referee", "observer")


def perimeter_url(campaign):
    return reverse("perimeters:page", args=[campaign.pk])


def secret_step(campaign):
    """A German secret step of the (first) Refit Phase, marked with a note."""
    reph = RefitPhase.objects.get(campaign=campaign, finished_at__isnull=True)
    step = next(s for s in walker.steps(campaign, reph) if s.secret)
    StepProgress.objects.create(
        reph=reph,
        side="german",
        rule=step.rule,
        by=campaign.memberships.get(side="german").user,
        status=StepProgress.Status.DONE,
        note=STEP_NOTE,
    )
    return reph, reverse("refit:step", args=[campaign.pk, "german", step.rule])


@pytest.fixture
def ended(secrets, people):  # noqa: F811
    reph, step_url = secret_step(secrets)
    end_cg(secrets)
    return secrets, reph, step_url


@pytest.mark.parametrize("persona", MEMBERS)
def test_after_the_end_every_member_reads_the_perimeter_read_only(ended, client_as, persona):
    campaign, _reph, _url = ended
    response = client_as(persona).get(perimeter_url(campaign))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="perimeter-history"' in page
    assert "/perimeters/" not in "".join(
        line for line in page.splitlines() if "<form" in line and 'method="post"' in line
    )
    # Undeclared units stay the side's secret until the reveal.
    assert (GERMAN_SECRET in page) == (persona in ("german", "referee"))


def test_after_the_end_the_outsider_finds_no_perimeter(ended, client_as):
    campaign, _reph, url = ended
    assert client_as("outsider").get(perimeter_url(campaign)).status_code == 404
    assert client_as("outsider").get(url).status_code == 404


def test_each_perimeter_of_the_history_is_shown(ended, client_as):
    campaign, _reph, _url = ended
    state = PerimeterState.objects.filter(campaign=campaign).first()
    page = client_as("observer").get(perimeter_url(campaign), {"perimeter": oid(state.pk)})
    assert page.status_code == 200
    assert 'aria-current="page"' in page.content.decode()
    bad = client_as("observer").get(perimeter_url(campaign), {"perimeter": "nonsense"})
    assert bad.status_code == 404


@pytest.mark.parametrize(
    "persona, status", [("german", 200), ("referee", 200), ("soviet", 404), ("observer", 404)]
)
def test_after_the_end_a_secret_steps_record_is_its_sides_until_the_reveal(
    ended, client_as, persona, status
):
    _campaign, _reph, url = ended
    response = client_as(persona).get(url)
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert STEP_NOTE in page
        # A record: no mark, unmark or roll form.
        assert "mark-done" not in page and "mark-unmark" not in page and "roll-form" not in page


@pytest.mark.parametrize("persona", MEMBERS)
def test_after_the_reveal_every_member_reads_the_other_sides_step_notes(ended, client_as, persona):
    campaign, reph, url = ended
    assert post_reveal(client_as("referee"), campaign).status_code == 302
    page = client_as(persona).get(url)
    assert page.status_code == 200
    assert STEP_NOTE in page.content.decode()
    # The RePh named by the address is shown too; one that did not run the step is not.
    assert client_as(persona).get(url, {"reph": oid(reph.pk)}).status_code == 200
    assert client_as(persona).get(url, {"reph": "nonsense"}).status_code == 404
    perimeter = client_as(persona).get(perimeter_url(campaign)).content.decode()
    assert GERMAN_SECRET in perimeter


def test_before_the_end_the_step_page_shows_the_open_phase(secrets, client_as):  # noqa: F811
    _reph, url = secret_step(secrets)
    page = client_as("german").get(url).content.decode()
    assert STEP_NOTE in page
    assert client_as("soviet").get(url).status_code == 404


@pytest.mark.parametrize("persona", MEMBERS)
def test_a_campaign_that_never_saved_a_perimeter_shows_its_initial_control(
    ended, client_as, persona
):
    campaign, _reph, _url = ended
    PerimeterState.objects.filter(campaign=campaign).delete()
    response = client_as(persona).get(perimeter_url(campaign))
    assert response.status_code == 200
    assert "No perimeter was recorded in this campaign" in response.content.decode()
    assert not PerimeterState.objects.filter(campaign=campaign).exists()  # a GET never writes
    assert client_as(persona).get(perimeter_url(campaign), {"hex": "H41"}).status_code == 200


@pytest.mark.parametrize(
    "persona, sees", [("german", True), ("referee", True), ("soviet", False), ("observer", False)]
)
def test_after_the_end_the_overview_links_each_steps_record(ended, client_as, persona, sees):
    campaign, reph, url = ended
    page = client_as(persona).get(reverse("refit:overview", args=[campaign.pk])).content.decode()
    assert 'id="record"' in page or not sees
    assert (f"{url}?reph={oid(reph.pk)}" in page) == sees


def test_after_the_reveal_the_overview_links_the_other_sides_steps(ended, client_as):
    campaign, reph, url = ended
    post_reveal(client_as("referee"), campaign)
    page = client_as("soviet").get(reverse("refit:overview", args=[campaign.pk])).content.decode()
    assert f"{url}?reph={oid(reph.pk)}" in page
