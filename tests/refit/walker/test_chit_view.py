"""The 11.623 step page's initiative chits: chosen in secret, revealed to all together."""

import re

import pytest
from django.urls import reverse

from campaigns.models import SideDay
from refit.walker import initiative
from refit.walker import services as walker
from tests.refit.builders import mark_past, reph_at

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def chit_url(campaign, side="german"):
    return reverse("refit:chit", args=[campaign.pk, side, "11.623"])


def step_url(campaign, side="german"):
    return reverse("refit:step", args=[campaign.pk, side, "11.623"])


@pytest.fixture
def reph(campaign, people):
    """A new CG day, both sides at 11.623."""
    reph = reph_at(campaign, "new_day", 1)
    for step in walker.steps(campaign, reph)[:-1]:
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    return reph


def chosen(campaign, side):
    return SideDay.objects.get(campaign=campaign, index=1, side=side).initiative_chit


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona, status", [("german", 200), ("referee", 200)])
def test_the_side_or_the_referee_chooses_the_chit(campaign, client_as, reph, persona, status, htmx):
    response = client_as(persona).post(
        chit_url(campaign),
        {"reph": reph.pk, "chit": "attack"},
        headers=HTMX if htmx else {},
        follow=not htmx,
    )
    assert response.status_code == status
    assert chosen(campaign, "german") == "attack"
    assert "Chit chosen in secret" in response.content.decode()


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_nobody_else_chooses_for_the_german(campaign, client_as, reph, persona):
    response = client_as(persona).post(chit_url(campaign), {"reph": reph.pk, "chit": "attack"})
    assert response.status_code == 404  # a secret step: not even its existence
    assert chosen(campaign, "german") == ""


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client, reph):
    assert client.post(chit_url(campaign), {"reph": reph.pk, "chit": "idle"}).status_code == 302
    assert chosen(campaign, "german") == ""


def test_the_chosen_chit_is_seen_by_its_side_and_the_referee_only_until_revealed(
    campaign, client_as, people, reph
):
    initiative.choose(campaign, reph, side="german", chit="attack", by=people["german"])
    mine = client_as("german").get(step_url(campaign)).content.decode()
    assert "Your chit, in secret: Attack" in mine
    assert "Your chit, in secret" in client_as("referee").get(step_url(campaign)).content.decode()
    # 11.623 is a secret step: the Soviet reads only his own page, where nothing of the
    # German's choice shows; the observer and outsiders read neither side's.
    html = client_as("soviet").get(step_url(campaign, "soviet")).content.decode()
    section = re.search(r'<section id="initiative".*?</section>', html, re.DOTALL).group(0)
    assert "Attack</strong>" not in section and "Your chit, in secret" not in section
    for persona, side in (("soviet", "german"), ("observer", "german"), ("observer", "soviet")):
        assert client_as(persona).get(step_url(campaign, side)).status_code == 404
    assert client_as("outsider").get(step_url(campaign)).status_code == 404
    initiative.choose(campaign, reph, side="soviet", chit="idle", by=people["soviet"])
    for persona, side in (("german", "german"), ("soviet", "soviet"), ("referee", "soviet")):
        html = client_as(persona).get(step_url(campaign, side)).content.decode()
        text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
        assert "German: Attack · Soviet: Idle → German Assault" in text, persona


def test_a_chit_beyond_the_attack_limit_is_not_offered_and_refused(
    campaign, client_as, people, reph
):
    SideDay.objects.filter(campaign=campaign, index=0, side="soviet").update(
        initiative_chit="attack"
    )
    html = client_as("soviet").get(step_url(campaign, "soviet")).content.decode()
    assert "At most one Attack chit per 4 CG days (11.6231)." in html
    assert 'value="attack"' not in html
    response = client_as("soviet").post(
        chit_url(campaign, "soviet"), {"reph": reph.pk, "chit": "attack"}, follow=True
    )
    assert "Choose one of the chits you may use." in response.content.decode()
    assert chosen(campaign, "soviet") == ""


def test_a_page_from_a_finished_refit_phase_chooses_nothing(campaign, client_as, people, reph):
    stale = reph.pk
    reph_at(campaign, "new_day", 2)
    response = client_as("german").post(
        chit_url(campaign), {"reph": stale, "chit": "attack"}, follow=True
    )
    assert "already finished" in response.content.decode()
    assert chosen(campaign, "german") == ""


def test_other_steps_have_no_chits(campaign, client_as, reph):
    url = reverse("refit:chit", args=[campaign.pk, "german", "11.612"])
    assert client_as("german").post(url, {"reph": reph.pk, "chit": "idle"}).status_code == 404
