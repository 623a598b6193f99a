"""Undoing what a step changed, from its page, while no later step is started."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import DiceRoll, LedgerEntry, SideDay
from refit.walker import automatic
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import mark_past, reph_at

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def undo_url(campaign, side="german", rule="11.616"):
    return reverse("refit:undo_effects", args=[campaign.pk, side, rule])


def step_url(campaign, side="german", rule="11.616"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


@pytest.fixture
def rolled(campaign, people):
    """A new CG day, the German at 11.616 with his CPP replenishment rolled and booked."""
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0)
    reph = reph_at(campaign, "new_day", 1)
    for step in walker.steps(campaign, reph):
        if step.rule == "11.616":
            break
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    with dice.use_roller(Loaded(3, 4)):
        automatic.roll(
            campaign,
            reph,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
        )
    return reph


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_side_or_the_referee_undoes_the_steps_changes(
    campaign, client_as, rolled, persona, htmx
):
    page = client_as(persona).get(step_url(campaign)).content.decode()
    assert "What this step changed (1 change)" in page
    response = client_as(persona).post(
        undo_url(campaign), {"reph": rolled.pk}, headers=HTMX if htmx else {}, follow=not htmx
    )
    assert response.status_code == 200
    assert "1 change(s) of 11.616 undone" in response.content.decode()
    assert not LedgerEntry.objects.filter(kind="replenishment").exists()
    assert DiceRoll.objects.filter(voided_at__isnull=True).count() == 1  # the roll stays
    page = client_as(persona).get(step_url(campaign)).content.decode()
    assert "Book the roll already made" in page


@pytest.mark.parametrize("persona, status", [("soviet", 404), ("observer", 404), ("outsider", 404)])
def test_nobody_else_sees_or_undoes_a_secret_steps_changes(
    campaign, client_as, rolled, persona, status
):
    assert client_as(persona).get(step_url(campaign)).status_code == 404
    response = client_as(persona).post(undo_url(campaign), {"reph": rolled.pk})
    assert response.status_code == status
    assert LedgerEntry.objects.filter(kind="replenishment").exists()


def test_nothing_is_undone_once_a_later_step_is_started(campaign, client_as, people, rolled):
    mark_past(campaign, rolled, "german", "11.616", people)
    mark_past(campaign, rolled, "german", "11.617", people)
    page = client_as("german").get(step_url(campaign)).content.decode()
    assert "What this step changed" not in page
    response = client_as("german").post(undo_url(campaign), {"reph": rolled.pk}, follow=True)
    assert "A later step is already started" in response.content.decode()
    assert LedgerEntry.objects.filter(kind="replenishment").exists()


def test_the_result_is_booked_again_from_the_same_roll(campaign, client_as, people, rolled):
    walker.undo_effects(campaign, rolled, side="german", rule="11.616", by=people["german"])
    roll = DiceRoll.objects.get()
    response = client_as("german").post(
        reverse("refit:roll", args=[campaign.pk, "german", "11.616"]),
        {"reph": rolled.pk, "table": "rf.cpp-replenishment", "rebook": "1"},
        follow=True,
    )
    assert "CPP booked" in response.content.decode()
    assert DiceRoll.objects.count() == 1
    assert LedgerEntry.objects.get(kind="replenishment").amount == roll.result["cpp"]
