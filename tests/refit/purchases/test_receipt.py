"""Rolling for an RG (refit.purchases.receipt): secret rolls, DRMs from the campaign, results in
its box."""

import pytest

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, OrbatEntry, ReinforcementGroup, SideDay
from campaigns.roster.services import add_ledger_entry
from refit.purchases import receipt
from refit.purchases import services as purchases
from refit.purchases.receipt import ReceiptError
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.fixture
def example(campaign, people, reph):
    """The 11.6204 example: the German buys an Assault Coy, an HW Pltn and a Bn Mortar OBA on a
    day with Historical DRM −2, then finishes his purchases."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=-2)
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=20,
        note="test",
    )
    bought = {
        rg_id: purchases.buy(campaign, "german", 0, rg_id, Options(), people["german"])
        for rg_id in ("I3", "I5", "O1")
    }
    mark_past(campaign, reph, "german", "11.619", people)
    return bought


def units(rg):
    return {e.unit_type: e.quantity for e in OrbatEntry.objects.filter(group=rg)}


def test_the_assault_company_of_the_example(campaign, people, example):
    # DR 12 − 2 = 10 → Depleted; SW drs MMG 3, LMG 6 4, DC 2 5; leader DR 6 −2 +1 = 5.
    with dice.use_roller(Loaded(6, 6, 3, 6, 4, 2, 5, 3, 3)):
        got = receipt.receive(campaign, example["I3"], people["german"])
    rg = ReinforcementGroup.objects.get(pk=example["I3"].pk)
    assert rg.strength == "D"
    assert got["sw"] == {"MMG": 1, "LMG": 1, "DC": 1}
    assert got["leaders"] == ["9-2", "8-1", "7-0"]
    assert units(rg) == {"5-4-8": 9, "MMG": 1, "LMG": 1, "DC": 1, "9-2": 1, "8-1": 1, "7-0": 1}
    rolls = DiceRoll.objects.filter(campaign=campaign, step="11.620")
    assert rolls.count() == 7
    assert set(rolls.values_list("visibility", flat=True)) == {"german"}
    strength = rolls.get(table_id="rf.rg-strength")
    assert strength.modifiers == [
        {
            "value": -2,
            "reason": "Historical DRM (11.6161)",
            "words": {"en": "Historical DRM (11.6161)", "ja": "史的DRM (11.6161)"},
        }
    ]
    assert strength.final == 10
    leader = rolls.get(table_id="rf.leaders-german")
    assert [m["value"] for m in leader.modifiers] == [-2, 1]
    event = CampaignEvent.objects.get(action="rg.received")
    assert event.visibility == "german"


def test_the_hw_platoon_of_the_example_rolls_again_for_every_weapon(campaign, people, example):
    faces = (5, 6, 2, 5, 4, 6, 5, 5, 3, 2, 6, 3, 1, 5)
    with dice.use_roller(Loaded(*faces)):
        got = receipt.receive(campaign, example["I5"], people["german"])
    assert got["strength"] == "D"
    assert got["sw"] == {"HMG": 2, "MMG": 1, "81mm MTR": 1}
    assert got["units"] == {"1-2-7": 3, "2-2-8": 1}
    assert len(got["rounds"]) == 2
    assert DiceRoll.objects.filter(table_id="rf.hw-molp-weapons").count() == 12


def test_the_oba_of_the_example_is_plentiful(campaign, people, example):
    with dice.use_roller(Loaded(3, 3)):
        receipt.receive(campaign, example["O1"], people["german"])
    assert ReinforcementGroup.objects.get(pk=example["O1"].pk).strength == "P"


def test_a_second_press_rolls_nothing(campaign, people, example):
    with dice.use_roller(Loaded(3, 3)):
        receipt.receive(campaign, example["O1"], people["german"])
        receipt.receive(campaign, example["O1"], people["german"])
    assert DiceRoll.objects.filter(campaign=campaign).count() == 1


def test_not_before_the_purchases_are_done(campaign, people, reph):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    rg = purchases.buy(campaign, "soviet", 0, "A1", Options(), people["soviet"])
    with pytest.raises(ReceiptError):
        receipt.receive(campaign, rg, people["soviet"])


def test_an_unknown_historical_drm_stops_the_roll(campaign, people, reph):
    rg = purchases.buy(campaign, "soviet", 0, "A1", Options(), people["soviet"])
    mark_past(campaign, reph, "soviet", "11.619", people)
    with pytest.raises(ReceiptError):
        receipt.receive(campaign, rg, people["soviet"])
    assert not DiceRoll.objects.exists()


def test_initial_ob_companies_roll_too(campaign, people, reph):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    mark_past(campaign, reph, "soviet", "11.619", people)
    rg = ReinforcementGroup.objects.filter(campaign=campaign, side="soviet", rg_id="I3").first()
    # Full (DR 4), leaders DR 7 → 8-1, 8-0.
    with dice.use_roller(Loaded(2, 2, 3, 4)):
        got = receipt.receive(campaign, rg, people["soviet"])
    assert got["strength"] == "F"
    assert got["sw"] == {"HMG": 1, "MMG": 1, "LMG": 1, "ATR": 1, "LtMTR": 1}
    assert got["leaders"] == ["8-1", "8-0"]


def test_sap_company_with_elr_replacement(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    walker.mark(sap_campaign, reph, side="russian", rule="11.617", by=people["soviet"])
    rg = ReinforcementGroup.objects.filter(
        campaign=sap_campaign, side="russian", rg_id="I3"
    ).first()
    # DR 12 → Heavy Depleted; 5 SW drs +2; leader DR 6 → 9-1, 7-0.
    with dice.use_roller(Loaded(6, 6, 1, 2, 3, 4, 5, 3, 3)):
        got = receipt.receive(sap_campaign, rg, people["soviet"])
    assert got["strength"] == "HD"
    assert got["units"] == {"4-2-6": 3, "4-4-7": 4, "5-2-7": 2}
    assert got["sw"] == {"HMG": 1, "MMG": 1}
    assert got["leaders"] == ["9-1", "7-0"]
    assert units(rg)["4-2-6"] == 3


def test_a_dug_in_afv_platoon_trades_its_bmg_for_an_lmg_per_afv(campaign, people, reph):
    # 11.6194c: the Soviet buys A3 (T-34 M41 Pltn) dug in for 3 CPP (5 × ½ FRU). Full strength:
    # its AFVs go into the box dug in, and as many LMG as AFVs join it (the BMG taken out).
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    rg = purchases.buy(campaign, "soviet", 0, "A3", Options(placement="dug_in"), people["soviet"])
    assert rg.cpp_cost == 3
    walker.mark(campaign, reph, side="soviet", rule="11.619", by=people["soviet"])
    with dice.use_roller(Loaded(*([1] * 12))):
        got = receipt.receive(campaign, rg, people["soviet"])
    afvs = got["units"]["T-34 M41"]
    assert afvs >= 1 and got["sw"]["LMG"] == afvs
    assert got["dug_in"] == {"lmg": afvs, "bmg_removed": True}
    lines = {e.unit_type: (e.quantity, e.statuses) for e in OrbatEntry.objects.filter(group=rg)}
    assert lines["T-34 M41"] == (afvs, ["dug_in"])
    assert lines["LMG"] == (afvs, [])
