"""RF CG I (11.58): an RG's strength roll takes the Historical DRM of the map group it was bought
for (11.6201 + 11.6161's RB CG / RO CG columns); the initial OB's RGs keep their OB's group."""

import pytest

from campaigns.dice import services as dice
from campaigns.models import DiceRoll, ReinforcementGroup, SideDay
from refit.purchases import receipt
from refit.purchases.receipt import ReceiptError
from refit.walker import services as walker
from tests.conftest import red_factories_campaign
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db


class Threes:
    """The strength DR's two dice first, then 3s for whatever the RG rolls next."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0) if self.faces else 3


@pytest.fixture
def rf(people):
    campaign = red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")
    reph = walker.open_reph(campaign)
    mark_past(campaign, reph, "german", "11.619", people)
    return campaign


def rifle_company(campaign, group):
    return next(
        rg
        for rg in ReinforcementGroup.objects.filter(campaign=campaign, side="german", rg_id="I1")
        if rg.details.get("map_group") == group
    )


def test_the_initial_ob_rgs_carry_their_map_group(rf):
    groups = sorted(
        rg.details.get("map_group")
        for rg in ReinforcementGroup.objects.filter(campaign=rf, side="german", rg_id="I1")
    )
    assert groups == ["RB", "RB", "RO", "RO"]


@pytest.mark.parametrize(("group", "strength", "final"), [("RB", "D", 9), ("RO", "F", 5)])
def test_the_strength_roll_takes_its_map_groups_historical_drm(rf, people, group, strength, final):
    # DR 4 + 3 = 7: RB +2 → 9 Depleted; RO −2 → 5 Full (≤ 8 Full, ≥ 9 Depleted).
    SideDay.objects.filter(campaign=rf, index=0, side="german").update(
        hist_drms={"RB": 2, "RO": -2}
    )
    rg = rifle_company(rf, group)
    with dice.use_roller(Threes(4, 3)):
        got = receipt.receive(rf, rg, people["german"])
    assert got["strength"] == strength
    roll = DiceRoll.objects.filter(table_id="rf.rg-strength").get()
    assert roll.final == final


def test_an_rg_waits_for_its_own_map_groups_value(rf, people):
    SideDay.objects.filter(campaign=rf, index=0, side="german").update(hist_drms={"RB": 0})
    with dice.use_roller(Threes()):
        receipt.receive(rf, rifle_company(rf, "RB"), people["german"])
    with pytest.raises(ReceiptError, match="Historical DRM"):
        receipt.receive(rf, rifle_company(rf, "RO"), people["german"])
