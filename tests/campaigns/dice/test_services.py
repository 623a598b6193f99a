import pytest

from campaigns.dice import services as dice
from campaigns.dice.services import DiceError
from campaigns.games.rules import Drm
from campaigns.models import CampaignEvent, DiceRoll

pytestmark = pytest.mark.django_db


class Loaded:
    """A roller that returns the faces it is given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def test_the_rules_example_cpp_replenishment(campaign, people):
    # RF 11.6162: German DR 10, Historical DRM −2, 44 CVP → −2; final 6 → +16 CPP.
    table = campaign.game.dice_table("rf.cpp-replenishment")
    with dice.use_roller(Loaded(4, 6)):
        roll = dice.roll(
            campaign,
            by=people["german"],
            kind="DR",
            step="11.616",
            index=1,
            side="german",
            visibility="german",
            table=table,
            modifiers=[
                Drm(-2, "Historical DRM (11.6161)"),
                Drm(-2, "44 CVP: −1 per 20 (11.616)"),
            ],
        )
    assert (roll.faces, roll.original, roll.final) == ([4, 6], 10, 6)
    assert roll.result == {"cpp": 16}
    assert roll.modifiers[0] == {"value": -2, "reason": "Historical DRM (11.6161)"}


def test_every_roll_is_logged_with_who_when_and_visibility(campaign, people):
    with dice.use_roller(7):
        roll = dice.roll(
            campaign,
            by=people["soviet"],
            kind="dr",
            step="11.6122",
            index=0,
            side="soviet",
            visibility="soviet",
        )
    assert 1 <= roll.final <= 6 and roll.rolled_by == people["soviet"]
    event = CampaignEvent.objects.get(action="dice.rolled")
    assert (event.visibility, event.target_id) == ("soviet", roll.pk)


def test_a_seeded_roller_repeats_and_the_committed_dice_are_back_afterwards(campaign, people):
    def three():
        return [
            dice.roll(
                campaign, by=people["referee"], kind="DR", step="x", index=0, visibility="public"
            ).faces
            for _ in range(3)
        ]

    with dice.use_roller(42):
        first = three()
    with dice.use_roller(42):
        second = three()
    assert first == second
    assert dice._roller is None  # the committed, verifiable dice


def test_the_roll_must_match_the_tables_dice(campaign, people):
    with pytest.raises(DiceError, match="rolled with DR"):
        dice.roll(
            campaign,
            by=people["german"],
            kind="dr",
            step="11.616",
            index=1,
            visibility="german",
            table=campaign.game.dice_table("rf.cpp-replenishment"),
        )
    assert not DiceRoll.objects.exists()


def test_a_void_keeps_the_roll_with_who_and_why(campaign, people):
    with dice.use_roller(1):
        roll = dice.roll(
            campaign, by=people["german"], kind="dr", step="11.6122", index=0, visibility="public"
        )
    with pytest.raises(DiceError, match="why"):
        dice.void(roll, by=people["referee"], reason="  ")
    dice.void(roll, by=people["referee"], reason="rolled for the wrong step")
    roll.refresh_from_db()
    assert (roll.voided_by, roll.void_reason) == (people["referee"], "rolled for the wrong step")
    assert DiceRoll.objects.count() == 1
    with pytest.raises(DiceError, match="already void"):
        dice.void(roll, by=people["referee"], reason="again")


def test_drms_beyond_what_the_table_allows_are_refused_before_rolling(campaign, people):
    from campaigns.games.dice_tables import parse_table

    bounded = parse_table(
        {
            "id": "t.bounded",
            "rule": "x",
            "roll": "dr",
            "rows": [{"min": 1, "max": 3, "result": "a"}, {"min": 4, "max": 6, "result": "b"}],
        },
        "t",
    )
    with pytest.raises(DiceError, match="off t.bounded"):
        dice.roll(
            campaign,
            by=people["german"],
            kind="dr",
            step="x",
            index=0,
            visibility="public",
            table=bounded,
            modifiers=[Drm(2, "too much")],
        )
    assert not DiceRoll.objects.exists()
