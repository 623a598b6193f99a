"""An RG purchase in the export file (refit.purchases.transfer): the ledger rows it booked and the
rolls made for it are named by their file ids, so that the copy takes back its own rows."""

import copy
import json

import pytest

from campaigns.access import viewer_for
from campaigns.models import DiceRoll, LedgerEntry, ReinforcementGroup, SideDay
from campaigns.transfer import services as transfer
from refit.purchases import services as purchases
from tests.refit import campaign_states

pytestmark = pytest.mark.django_db


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def load(data, user):
    return transfer.load(transfer.parse_export(json.dumps(data)), user=user)


@pytest.fixture
def buying(campaign, people):
    """RB CG I's first RePh: the German has bought I3 and I5 and not yet marked 11.619."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    campaign_states.walk(
        campaign,
        people,
        before={"11.619": campaign_states.buy_rgs(campaign, people)},
        upto="11.619",
    )
    return campaign


def bought(campaign, rg_id):
    return ReinforcementGroup.objects.get(campaign=campaign, rg_id=rg_id, source="purchased")


def test_an_rg_names_its_ledger_rows_by_their_file_ids(buying, people):
    data = export_as(buying, people["german"])
    (i3,) = [rg for rg in data["rgs"] if rg["rg_id"] == "I3" and rg["source"] == "purchased"]
    ledger = {row["id"]: row for row in data["ledger"]}
    assert [ledger[ref]["kind"] for ref in i3["details"]["ledger_entries"]] == ["rg_purchase"]
    assert ledger[i3["details"]["ledger_entries"][0]]["rg"] == "I3"


def test_the_copy_takes_back_a_purchase_with_its_own_ledger_rows(buying, people):
    imported = load(export_as(buying, people["german"]), people["outsider"])
    rows = LedgerEntry.objects.filter(campaign=buying).count()
    purchases.remove(imported, bought(imported, "I5"), people["outsider"])
    assert not LedgerEntry.objects.filter(campaign=imported, kind="rg_purchase", rg="I5").exists()
    assert LedgerEntry.objects.filter(campaign=imported, kind="rg_purchase", rg="I3").exists()
    assert LedgerEntry.objects.filter(campaign=buying).count() == rows  # the original's stay


def test_the_rolls_made_for_an_rg_are_the_copys(campaign, people):
    campaign_states.after_the_initial_scenario(campaign, people)
    data = export_as(campaign, people["german"])
    (i3,) = [rg for rg in data["rgs"] if rg["rg_id"] == "I3" and rg["source"] == "purchased"]
    refs = i3["details"]["received"]["rolls"]
    assert {r["table_id"] for r in data["dice_rolls"] if r["id"] in refs} >= {"rf.rg-strength"}
    imported = load(data, people["outsider"])
    rolls = bought(imported, "I3").details["received"]["rolls"]
    assert DiceRoll.objects.filter(pk__in=rolls, campaign=imported).count() == len(refs)


def test_ids_naming_no_row_of_the_file_are_left_out(buying, people):
    data = copy.deepcopy(export_as(buying, people["german"]))
    (i5,) = [rg for rg in data["rgs"] if rg["rg_id"] == "I5" and rg["source"] == "purchased"]
    i5["details"]["ledger_entries"] = [999, "x", [1]]
    imported = load(data, people["outsider"])
    assert bought(imported, "I5").details["ledger_entries"] == []


def test_taking_back_never_touches_another_campaigns_ledger(buying, people):
    # An RG whose data names another campaign's rows (a crafted or an old file) removes none.
    imported = load(export_as(buying, people["german"]), people["outsider"])
    stranger = LedgerEntry.objects.filter(campaign=buying).first()
    rg = bought(imported, "I5")
    rg.details = {**rg.details, "ledger_entries": [stranger.pk]}
    rg.save()
    purchases.remove(imported, rg, people["outsider"])
    assert LedgerEntry.objects.filter(pk=stranger.pk).exists()
