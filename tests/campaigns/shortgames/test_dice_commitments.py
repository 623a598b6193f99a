"""Verifiable dice in the short games (issue 22): one commitment per turn and scope, made when
the game starts and when the turn advances, revealed when the turn is over; a turn advance
taken back never rolls on a revealed seed again."""

import pytest

from campaigns.dice import verify
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceCommitment
from campaigns.shortgames import combat_rolls, turn_marks
from tests.campaigns.shortgames.test_turns import mark_all

pytestmark = pytest.mark.django_db


def combat(campaign, people):
    combat_rolls.roll_combat(
        campaign, side="axis", dice_count=2, fleet_dice=0, hit_on=(6,), by=people["german"]
    )
    return list(campaign.rolls.order_by("-id")[:2])


def test_the_first_turn_is_committed_to_when_the_game_starts(dr_started):
    commitments = DiceCommitment.objects.filter(campaign=dr_started, index=0)
    assert commitments.count() == 2 + len(dr_started.game.side_keys)
    assert not commitments.filter(revealed_at__isnull=False).exists()


def test_the_turns_rolls_are_verifiable_once_it_advances(dr_started, people):
    rolls = combat(dr_started, people)
    assert all(r.commitment is not None and r.commitment.index == 0 for r in rolls)
    mark_all(dr_started, people)
    turn_marks.advance(dr_started, index=0, by=people["german"])
    for roll in rolls:
        roll.commitment.refresh_from_db()
        assert roll.commitment.revealed_at is not None
        assert roll.faces == verify.faces_for(
            roll.commitment.seed, roll.counter, roll.client_value, 1
        )
    assert DiceCommitment.objects.filter(
        campaign=dr_started, index=1, revealed_at__isnull=True
    ).exists()


def test_a_turn_taken_back_rolls_on_a_new_seed(dr_started, people):
    mark_all(dr_started, people)
    turn_marks.advance(dr_started, index=0, by=people["german"])
    dr_started.refresh_from_db()
    history.undo(
        CampaignEvent.objects.get(campaign=dr_started, action="turn.advanced"),
        by=people["german"],
    )
    dr_started.refresh_from_db()
    (roll, _other) = combat(dr_started, people)
    assert roll.commitment.index == 0 and roll.commitment.revealed_at is None
    revealed = DiceCommitment.objects.filter(
        campaign=dr_started, index=0, revealed_at__isnull=False
    )
    assert roll.commitment_id not in set(revealed.values_list("pk", flat=True))
