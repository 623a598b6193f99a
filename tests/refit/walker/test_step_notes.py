"""The note a side writes when it marks a step says, next to the field, who will read it; a
secret step's note stays with the side and the referee."""

import pytest
from django.urls import reverse
from django.utils import translation

from refit.walker import services as walker
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all
from tests.refit.walker.test_step_view import block, text

pytestmark = pytest.mark.django_db

PUBLIC_FOR_GERMAN = "A public step: the Soviet side and the observers will read this note."
PUBLIC_FOR_SOVIET = "A public step: the German side and the observers will read this note."
SECRET_FOR_GERMAN = "A secret step: only the German side and the referee will read this note."
SECRET_FOR_SOVIET = "A secret step: only the Soviet side and the referee will read this note."
SENTENCES = (PUBLIC_FOR_GERMAN, PUBLIC_FOR_SOVIET, SECRET_FOR_GERMAN, SECRET_FOR_SOVIET)
SECRET_NOTE = "Kept 3 CPP back for the Pioneers"


@pytest.fixture
def after(campaign, people):
    """The RePh after the initial scenario (public steps 11.601 …)."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


def url(campaign, side, rule):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def audience(html: str) -> list[str]:
    """The sentences about the note's readers on the page's status block."""
    status = text(block(html, "step-status"))
    return [sentence for sentence in SENTENCES if sentence in status]


# --- a public step (11.601 after the initial scenario) ---------------------------------------


@pytest.mark.parametrize(
    "persona, side, expected",
    [
        ("german", "german", [PUBLIC_FOR_GERMAN]),
        ("soviet", "soviet", [PUBLIC_FOR_SOVIET]),
        ("referee", "german", [PUBLIC_FOR_GERMAN]),
        ("referee", "soviet", [PUBLIC_FOR_SOVIET]),
        # Those who may not mark the German step get no note field, so no sentence about it.
        ("soviet", "german", []),
        ("observer", "german", []),
    ],
)
def test_a_public_steps_note_says_the_opponent_and_observers_will_read_it(
    campaign, client_as, after, persona, side, expected
):
    response = client_as(persona).get(url(campaign, side, "11.601"))
    assert response.status_code == 200
    assert audience(response.content.decode()) == expected


def test_the_sentence_describes_the_note_field(campaign, client_as, after):
    html = client_as("german").get(url(campaign, "german", "11.601")).content.decode()
    assert 'aria-describedby="note-audience-german"' in html
    assert 'id="note-audience-german"' in html


def test_an_outsider_finds_no_public_step(campaign, client_as, after):
    assert client_as("outsider").get(url(campaign, "german", "11.601")).status_code == 404


def test_a_public_steps_note_is_read_by_the_opponent_and_the_observer(
    campaign, client_as, people, after
):
    """What the sentence promises: the note is there for every member."""
    walker.mark(campaign, after, side="german", rule="11.601", by=people["german"], note="Two MMC")
    for persona in ("german", "soviet", "referee", "observer"):
        html = client_as(persona).get(url(campaign, "german", "11.601")).content.decode()
        assert "Two MMC" in text(block(html, "step-status")), persona


# --- a secret step (11.619, RG purchase) -------------------------------------------------------


@pytest.mark.parametrize(
    "persona, side, expected",
    [
        ("german", "german", [SECRET_FOR_GERMAN]),
        ("soviet", "soviet", [SECRET_FOR_SOVIET]),
        ("referee", "german", [SECRET_FOR_GERMAN]),
        ("referee", "soviet", [SECRET_FOR_SOVIET]),
    ],
)
def test_a_secret_steps_note_says_only_the_side_and_the_referee_will_read_it(
    campaign, client_as, persona, side, expected
):
    response = client_as(persona).get(url(campaign, side, "11.619"))
    assert audience(response.content.decode()) == expected


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_a_secret_steps_page_is_not_found_by_those_who_may_not_read_it(
    campaign, client_as, persona
):
    assert client_as(persona).get(url(campaign, "german", "11.619")).status_code == 404


def test_the_secret_note_stays_with_the_side_and_the_referee(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walker.mark(campaign, reph, side="german", rule="11.619", by=people["german"], note=SECRET_NOTE)
    pages = [
        url(campaign, "german", "11.619"),
        url(campaign, "soviet", "11.619"),
        url(campaign, "german", "11.620"),
        reverse("refit:overview", args=[campaign.pk]),
        reverse("campaigns:history", args=[campaign.pk]),
        reverse("campaigns:detail", args=[campaign.pk]),
    ]
    for persona in ("german", "referee"):
        html = client_as(persona).get(pages[0]).content.decode()
        assert SECRET_NOTE in html, persona
    for persona in ("soviet", "observer", "outsider"):
        for page in pages:
            response = client_as(persona).get(page)
            assert SECRET_NOTE.encode() not in response.content, (persona, page)


def test_the_sentence_reads_in_japanese(campaign, client_as, people, after):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign, "german", "11.601")).content.decode()
    with translation.override("ja"):
        soviet = campaign.game.side("soviet").name.ja
    assert PUBLIC_FOR_GERMAN not in html
    assert soviet and f"{soviet}" in text(block(html, "step-status"))
    assert "観戦者も読みます" in text(block(html, "step-status"))
