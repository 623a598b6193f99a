"""The last roll a step requires can mark the step done in the same action ("Roll, then mark
done"), then the side's next step opens (issue 19)."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import DiceRoll, SideDay, StepProgress
from tests.refit.walker.test_roll_view import _walk_to_new_day

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
BUTTON = "Roll, then mark 11.616 done"


def step_url(campaign, side="german", rule="11.616"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def roll_url(campaign, side="german", rule="11.616"):
    return reverse("refit:roll", args=[campaign.pk, side, rule])


def post(reph, **extra):
    return {"reph": reph.pk, "table": "rf.cpp-replenishment", "then": "done", **extra}


@pytest.fixture
def at_cpp(campaign, people):
    reph = _walk_to_new_day(campaign, people)
    SideDay.objects.filter(campaign=campaign).update(hist_drm=0)
    return reph


def marked(reph, side="german"):
    return StepProgress.objects.filter(reph=reph, side=side, rule="11.616").count()


@pytest.mark.parametrize(
    "persona, shown", [("german", True), ("referee", True), ("soviet", None), ("observer", None)]
)
def test_the_button_is_offered_to_those_who_roll(campaign, client_as, at_cpp, persona, shown):
    response = client_as(persona).get(step_url(campaign))
    if shown is None:
        assert response.status_code == 404  # a secret step of the German
    else:
        assert (BUTTON in response.content.decode()) is shown


@pytest.mark.parametrize(
    "persona, status",
    [("german", 302), ("referee", 302), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_roll_then_done_rolls_marks_and_opens_the_next_step(
    campaign, client_as, at_cpp, persona, status
):
    with dice.use_roller(5):
        response = client_as(persona).post(roll_url(campaign), post(at_cpp))
    assert response.status_code == status
    rolls = DiceRoll.objects.filter(campaign=campaign, table_id="rf.cpp-replenishment")
    assert rolls.count() == marked(at_cpp) == (1 if status == 302 else 0)
    if status == 302:
        assert response["Location"] == step_url(campaign, rule="11.617")
        assert rolls.get().visibility == "german"


def test_with_htmx_the_browser_goes_to_the_next_step(campaign, client_as, at_cpp):
    with dice.use_roller(5):
        response = client_as("german").post(roll_url(campaign), post(at_cpp), headers=HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == step_url(campaign, rule="11.617")


def test_a_double_submit_rolls_and_marks_once(campaign, client_as, at_cpp):
    client = client_as("german")
    with dice.use_roller(5):
        client.post(roll_url(campaign), post(at_cpp))
        second = client.post(roll_url(campaign), post(at_cpp), follow=True)
    assert DiceRoll.objects.filter(table_id="rf.cpp-replenishment").count() == 1
    assert marked(at_cpp) == 1
    assert second.status_code == 200


def test_a_stale_page_rolls_nothing(campaign, client_as, people, at_cpp):
    with dice.use_roller(5):
        client_as("german").post(roll_url(campaign), {**post(at_cpp), "reph": at_cpp.pk + 50})
    assert not DiceRoll.objects.filter(table_id="rf.cpp-replenishment").exists()
    assert marked(at_cpp) == 0


def test_without_then_the_roll_only_rolls(campaign, client_as, at_cpp):
    with dice.use_roller(5):
        response = client_as("german").post(
            roll_url(campaign), {"reph": at_cpp.pk, "table": "rf.cpp-replenishment"}
        )
    assert response["Location"] == step_url(campaign) + "#rolls"
    assert marked(at_cpp) == 0


def test_a_mark_refused_after_the_roll_keeps_the_roll_and_says_why(
    campaign, client_as, people, at_cpp
):
    """The mark asks the rules again: the roll stands, the step stays current."""
    from refit.walker import strictness

    def refuse(campaign, reph, side, step):
        return [strictness.Requirement("test", "Something else first.")]

    strictness.MARK_GUARDS.append(refuse)
    try:
        with dice.use_roller(5):
            response = client_as("german").post(roll_url(campaign), post(at_cpp), follow=True)
    finally:
        strictness.MARK_GUARDS.remove(refuse)
    assert DiceRoll.objects.filter(table_id="rf.cpp-replenishment").count() == 1
    assert marked(at_cpp) == 0
    assert "Something else first." in response.content.decode()
