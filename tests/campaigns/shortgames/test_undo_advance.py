"""Taking back the turn marker (history.UNDO_GUARDS, campaigns.shortgames.turn_marks): right
after advancing, and never once something happened on the new turn."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, PointKind
from campaigns.shortgames import combat_rolls, turn_marks, turn_points, turn_steps
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.shortgames.test_turns import mark_all

pytestmark = pytest.mark.django_db


def advanced(campaign, people) -> CampaignEvent:
    mark_all(campaign, people)
    turn_marks.advance(campaign, index=0, by=people["german"])
    campaign.refresh_from_db()
    return CampaignEvent.objects.get(campaign=campaign, action="turn.advanced")


def test_the_advance_is_undone_right_after(dr_started, people):
    event = advanced(dr_started, people)
    history.undo(event, by=people["german"])
    dr_started.refresh_from_db()
    assert dr_started.period_index == 0
    # The marks of the turn stay: the turn can be advanced again.
    turn_marks.advance(dr_started, index=0, by=people["german"])
    dr_started.refresh_from_db()
    assert dr_started.period_index == 1


def test_the_advance_is_refused_after_a_mark_on_the_new_turn(dr_started, people):
    event = advanced(dr_started, people)
    turn_marks.mark(dr_started, index=1, side="soviet", step_id="weather", by=people["soviet"])
    with pytest.raises(history.UndoError, match="new turn already has"):
        history.undo(event, by=people["german"])
    assert Campaign.objects.get(pk=dr_started.pk).period_index == 1
    event.refresh_from_db()
    assert event.undone_at is None


def test_refused_after_points_on_the_new_turn(dr_started, people):
    event = advanced(dr_started, people)
    turn_points.add_points(
        dr_started,
        by=people["referee"],
        side="soviet",
        index=1,
        kind=PointKind.AIR,
        action="adjustment",
        note="Lost chit found",
        amount=1,
    )
    with pytest.raises(history.UndoError, match="new turn already has"):
        history.undo(event, by=people["referee"])


def test_refused_after_an_unvoided_roll_on_the_new_turn_allowed_once_voided(dr_started, people):
    event = advanced(dr_started, people)
    with dice.use_roller(Loaded(3)):
        result = combat_rolls.roll_combat(
            dr_started, side="axis", dice_count=1, fleet_dice=0, hit_on=(6,), by=people["german"]
        )
    assert result["faces"] == [3]
    with pytest.raises(history.UndoError, match="new turn already has"):
        history.undo(event, by=people["german"])
    roll = dr_started.rolls.get()
    dice.void(roll, by=people["referee"], reason="Rolled on the wrong turn")
    history.undo(event, by=people["german"])
    assert Campaign.objects.get(pk=dr_started.pk).period_index == 0


def test_refused_once_the_new_turn_has_weather(dr_started, people):
    event = advanced(dr_started, people)
    day = turn_steps.current_day(Campaign.objects.get(pk=dr_started.pk))
    day.weather = "clear"
    day.save()
    with pytest.raises(history.UndoError, match="new turn already has"):
        history.undo(event, by=people["german"])


def test_refused_once_the_marker_moved_on_again(dr_started, people):
    event = advanced(dr_started, people)
    mark_all(dr_started, people)
    turn_marks.advance(dr_started, index=1, by=people["german"])
    with pytest.raises(history.UndoError):
        history.undo(event, by=people["german"])


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 404), ("referee", 302), ("observer", 404), ("outsider", 404)],
)
def test_undo_through_the_history_page(dr_started, people, client_as, persona, status):
    event = advanced(dr_started, people)
    url = reverse("campaigns:undo", args=[dr_started.pk, event.pk])
    response = client_as(persona).post(url)
    assert response.status_code == status
    expected = 0 if status == 302 else 1
    assert Campaign.objects.get(pk=dr_started.pk).period_index == expected
