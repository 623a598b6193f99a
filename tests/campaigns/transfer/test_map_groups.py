"""RF CG I (11.58) in the export file: the Historical DRM per map group (side days) and the map
group a replenishment was rolled for (ledger) round-trip; a file naming a map group the
campaign game does not have, or one on an entry that is not a replenishment, is refused."""

import copy

import pytest

from campaigns.access import viewer_for
from campaigns.models import LedgerEntry, SideDay
from campaigns.roster import services as roster
from campaigns.transfer import services as transfer
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def rf(people):
    campaign = red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")
    SideDay.objects.filter(campaign=campaign, index=1, side="german").update(
        hist_drms={"RB": -1, "RO": 0}
    )
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(hist_drms={"RO": 2})
    for group, amount in (("RB", 15), ("RO", 13)):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=amount,
            map_group=group,
        )
    return campaign


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def load(data, user):
    return transfer.load(transfer.parse_export(transfer.dumps(data).encode()), user=user)


def test_the_map_groups_travel_with_the_file(rf, people):
    data = export_as(rf, people["referee"])
    imported = load(data, people["outsider"])
    assert SideDay.objects.get(campaign=imported, index=1, side="german").hist_drms == {
        "RB": -1,
        "RO": 0,
    }
    assert SideDay.objects.get(campaign=imported, index=1, side="soviet").hist_drms == {"RO": 2}
    assert sorted(
        LedgerEntry.objects.filter(campaign=imported, kind="replenishment").values_list(
            "map_group", "amount"
        )
    ) == [("RB", 15), ("RO", 13)]
    again = export_as(imported, people["outsider"])
    assert again["side_days"] == data["side_days"]
    assert [r["map_group"] for r in again["ledger"]] == [r["map_group"] for r in data["ledger"]]


def test_the_soviet_file_holds_no_german_value(rf, people):
    data = export_as(rf, people["soviet"])
    assert {row["side"] for row in data["side_days"]} == {"soviet"}
    assert all(row["side"] == "soviet" for row in data["ledger"])


def test_a_file_without_them_imports_them_empty(rf, people):
    data = copy.deepcopy(export_as(rf, people["referee"]))
    for row in data["side_days"]:
        row.pop("hist_drms")
    for row in data["ledger"]:
        row.pop("map_group")
    imported = load(data, people["outsider"])
    assert not SideDay.objects.filter(campaign=imported).exclude(hist_drms={}).exists()


@pytest.mark.parametrize(
    "bad", [{"XX": 1}, {"RB": 12}, {"RB": "one"}, ["RB", 1]], ids=["group", "limit", "int", "list"]
)
def test_a_value_the_chart_cannot_hold_is_refused(rf, people, bad):
    data = copy.deepcopy(export_as(rf, people["referee"]))
    data["side_days"][0]["hist_drms"] = bad
    with pytest.raises(transfer.ImportRefused, match="hist_drms"):
        transfer.parse_export(transfer.dumps(data).encode())


def test_a_map_group_only_on_a_replenishment(rf, people):
    data = copy.deepcopy(export_as(rf, people["referee"]))
    initial = next(row for row in data["ledger"] if row["kind"] == "initial")
    initial["map_group"] = "RB"
    with pytest.raises(transfer.ImportRefused, match="map_group"):
        transfer.parse_export(transfer.dumps(data).encode())


def test_a_campaign_game_on_one_map_group_refuses_one(campaign, people):
    data = copy.deepcopy(export_as(campaign, people["referee"]))
    data["side_days"][0]["hist_drms"] = {"RB": 1}
    with pytest.raises(transfer.ImportRefused, match="hist_drms"):
        transfer.parse_export(transfer.dumps(data).encode())
