"""In a campaign without a referee (two players), pages name who sees and who acts in that
campaign: a secret is the side's alone, and nobody is sent to a referee who is not there."""

import re

import pytest
from django.urls import reverse

from campaigns.games import step_engine
from campaigns.models import Role
from refit.walker.views.step import note_audience

pytestmark = pytest.mark.django_db


def _pages(campaign):
    return {
        "step": reverse(
            "refit:step", kwargs={"campaign_id": campaign.pk, "side": "german", "rule": "11.620"}
        ),
        "overview": reverse("refit:overview", kwargs={"campaign_id": campaign.pk}),
        "roster": reverse("campaigns:roster", args=[campaign.pk, "german"]),
        "ledger": reverse("campaigns:ledger", args=[campaign.pk, "german"]),
        "orbat": reverse("campaigns:orbat", args=[campaign.pk, "german"]),
        "dice": reverse("campaigns:dice_log", args=[campaign.pk]),
        "purchases": reverse("purchases:page", args=[campaign.pk, "german"]),
    }


SAID_WITH_A_REFEREE = {
    "step": ["Its marks and rolls are seen by the German side and the referee only."],
    "overview": ["Secret steps are shown to that side and the referee only."],
    "roster": ["players and the referee see this roster"],
    "ledger": ["players and the referee see these ledgers"],
    "orbat": ["Only this side and the referee see it."],
    "dice": ["the referee may void one"],
    "purchases": ["until the referee enters it"],
}
SAID_WITHOUT = {
    "step": ["Its marks and rolls are seen by the German side only."],
    "overview": ["Secret steps are shown to that side only."],
    "roster": ["players see this roster"],
    "ledger": ["players see these ledgers"],
    "orbat": ["Only this side sees it."],
    "dice": ["A roll is never rolled again."],
    "purchases": ["until a player enters it"],
}


def _read(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return re.sub(r"\s+", " ", response.content.decode())


def test_with_a_referee_the_pages_name_the_referee(campaign, client_as):
    client = client_as("german")
    for page, url in _pages(campaign).items():
        html = _read(client, url)
        for words in SAID_WITH_A_REFEREE[page]:
            assert words in html, (page, words)


def test_without_a_referee_the_pages_name_the_side_alone(campaign, client_as):
    campaign.memberships.filter(role=Role.REFEREE).delete()
    client = client_as("german")
    for page, url in _pages(campaign).items():
        html = _read(client, url)
        for words in SAID_WITHOUT[page]:
            assert words in html, (page, words)
        for words in SAID_WITH_A_REFEREE[page]:
            assert words not in html, (page, words)


def test_a_secret_steps_note_is_read_by_the_side_and_the_referee_if_there_is_one(campaign):
    steps = step_engine.main_steps(campaign.game.files["refit_steps"])
    step = next(step for step, _raw in steps if step.secret)
    with_referee = note_audience(campaign, "german", step, has_referee=True)
    without = note_audience(campaign, "german", step, has_referee=False)
    assert with_referee == (
        "A secret step: only the German side and the referee will read this note."
    )
    assert without == "A secret step: only the German side will read this note."
