"""The roll service decides for itself what may be rolled and who sees the roll — whatever page
asked: only the side's current step, only that step's dice tables, and a secret step's or
secret table's roll kept to the side and the referee."""

import pytest

from campaigns.dice import services as dice
from campaigns.models import CampaignDay, CampaignEvent, DiceRoll, SideDay
from refit.walker import automatic
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import mark_past, reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db


def roll(campaign, reph, people, *, step, table, side="german"):
    return automatic.roll(
        campaign, reph, side=side, step=step, table_id=table, answers={}, by=people[side]
    )


@pytest.fixture
def new_day(campaign):
    """The new CG day of 18 Oct with its Historical DRM and SAN 4 entered: 11.612 is current."""
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0, san=4)
    return reph_at(campaign, "new_day", 1)


# --- only the side's current step ------------------------------------------------------


def test_a_later_step_is_not_rolled(campaign, people, new_day):
    with pytest.raises(automatic.AutomaticRollError) as refused:
        roll(campaign, new_day, people, step="11.616", table=automatic.CPP_TABLE)
    assert str(refused.value) == (
        "Roll for 11.616 while it is the side's current step (now: 11.612)."
    )
    assert not DiceRoll.objects.exists()


def test_a_step_already_marked_is_not_rolled_again(campaign, people, new_day):
    walk_to(campaign, new_day, people, "11.617")
    with pytest.raises(automatic.AutomaticRollError, match=r"current step \(now: 11.617\)"):
        roll(campaign, new_day, people, step="11.616", table=automatic.CPP_TABLE)
    assert not DiceRoll.objects.exists()


def test_a_step_of_another_refit_phase_is_not_rolled(campaign, people, new_day):
    with pytest.raises(automatic.AutomaticRollError, match="11.606 is not a step of this Refit"):
        roll(campaign, new_day, people, step="11.606", table="rf.escape")
    assert not DiceRoll.objects.exists()


def test_a_side_the_game_does_not_have_rolls_nothing(campaign, people, new_day):
    with pytest.raises(automatic.AutomaticRollError, match="not a side of this game"):
        automatic.roll(
            campaign,
            new_day,
            side="russian",
            step="11.612",
            table_id="rf.san-adjustment",
            answers={},
            by=people["referee"],
        )
    assert not DiceRoll.objects.exists()


def test_booking_again_is_for_the_current_step_too(campaign, people, new_day):
    walk_to(campaign, new_day, people, "11.616")
    with dice.use_roller(Loaded(3, 4)):
        rolled = roll(campaign, new_day, people, step="11.616", table=automatic.CPP_TABLE)
    walker.undo_effects(campaign, new_day, side="german", rule="11.616", by=people["german"])
    mark_past(campaign, new_day, "german", "11.616", people)
    with pytest.raises(automatic.AutomaticRollError, match=r"current step \(now: 11.617\)"):
        automatic.book_again(
            campaign,
            new_day,
            side="german",
            step="11.616",
            table_id=automatic.CPP_TABLE,
            by=people["german"],
        )
    assert not automatic.is_booked(rolled.roll)


# --- only that step's dice tables ------------------------------------------------------


@pytest.mark.parametrize(
    "table",
    [
        "rf.weather",  # a dice table of another step (11.618)
        "rf.historical-drm",  # a chart of this step: looked up, not rolled
        "rf.no-such-table",
        "",
    ],
)
def test_only_the_steps_dice_tables_are_rolled(campaign, people, new_day, table):
    walk_to(campaign, new_day, people, "11.616")
    with pytest.raises(automatic.AutomaticRollError) as refused:
        roll(campaign, new_day, people, step="11.616", table=table)
    assert str(refused.value) == "Choose one of this step's dice tables."
    assert not DiceRoll.objects.exists()


def test_check_roll_names_the_step_it_allows(campaign, people, new_day):
    step = automatic.check_roll(
        campaign, new_day, side="german", step="11.612", table_id="rf.san-adjustment"
    )
    assert (step.rule, step.secret) == ("11.612", False)


# --- who sees the roll -----------------------------------------------------------------


def test_a_secret_tables_roll_in_a_public_step_is_the_sides(campaign, people, new_day):
    # 11.612 is public; its SAN adjustment dr (11.6122) is secret.
    with dice.use_roller(Loaded(1)):
        rolled = roll(campaign, new_day, people, step="11.612", table="rf.san-adjustment")
    assert (rolled.roll.visibility, rolled.roll.side) == ("german", "german")
    event = CampaignEvent.objects.get(action="dice.rolled")
    assert event.visibility == "german"


def test_a_public_steps_public_table_is_rolled_in_public(campaign, people, new_day):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Clear", ec="Dry")
    walk_to(campaign, new_day, people, "11.618")
    with dice.use_roller(Loaded(3, 4)):
        rolled = roll(campaign, new_day, people, side="soviet", step="11.618", table="rf.weather")
    assert rolled.roll.visibility == "public"


def test_a_secret_steps_roll_is_the_sides(campaign, people, new_day):
    walk_to(campaign, new_day, people, "11.616")
    with dice.use_roller(Loaded(3, 4)):
        rolled = roll(campaign, new_day, people, step="11.616", table=automatic.CPP_TABLE)
    assert rolled.roll.visibility == "german"


@pytest.mark.parametrize("say", [{"secret": False}, {"visibility": "public"}])
def test_the_caller_cannot_choose_who_sees_the_roll(campaign, people, new_day, say):
    with pytest.raises(TypeError):
        automatic.roll(
            campaign,
            new_day,
            side="german",
            step="11.612",
            table_id="rf.san-adjustment",
            answers={},
            by=people["german"],
            **say,
        )
    assert not DiceRoll.objects.exists()


@pytest.mark.parametrize(
    "rule, table, secret",
    [
        ("11.612", "rf.san-adjustment", True),  # secret table, public step
        ("11.612", "rf.booby-trap-reduction", False),
        ("11.616", "rf.historical-drm", True),  # a chart in a secret step
        ("11.618", "rf.weather", False),
    ],
)
def test_is_secret_roll(campaign, new_day, rule, table, secret):
    step = next(s for s in walker.steps(campaign, new_day) if s.rule == rule)
    assert automatic.is_secret_roll(campaign, step, table) is secret
