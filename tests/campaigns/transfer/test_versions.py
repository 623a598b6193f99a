"""Files of older format versions still import; a roll's modifiers import as the dice service
writes them.

``version-1-red-factories.json`` was written by the version-1 writer (the app as of commit
6953165) from tests.refit.campaign_states.mid_refit_phase, as the referee exported it: RB CG I on
18 Oct with purchases, rolls carrying the table's DRM ids and database ids inside event and RG
data. That reader refused the file (its modifiers have an "id"); this one imports it.
"""

import copy
import json
from pathlib import Path

import pytest

from campaigns.models import CampaignEvent, DiceRoll, ReinforcementGroup
from campaigns.transfer import services as transfer
from refit.walker import services as walker
from tests.campaigns.transfer.test_services import comparable, export_as, refusal

pytestmark = pytest.mark.django_db

VERSION_1 = Path(__file__).with_name("version-1-red-factories.json")


@pytest.fixture
def version_1():
    return json.loads(VERSION_1.read_text(encoding="utf-8"))


def test_the_fixture_is_a_version_1_file(version_1):
    assert version_1["format_version"] == 1
    assert "refit_phases" not in version_1 and "id" not in version_1["ledger"][0]


def test_a_version_1_file_imports(version_1, people):
    imported = transfer.load(transfer.parse_export(json.dumps(version_1)), user=people["outsider"])
    assert DiceRoll.objects.filter(campaign=imported).count() == len(version_1["dice_rolls"])
    # The DRM ids its rolls carry are kept.
    elr = DiceRoll.objects.get(campaign=imported, table_id="rf.elr-change", side="german")
    assert {"value": 1, "reason": "Attack chit on the previous CG day", "id": "attack-chit"} in (
        elr.modifiers
    )
    imported_event = CampaignEvent.objects.get(campaign=imported, action="campaign.imported")
    assert imported_event.data["format_version"] == 1


def test_the_database_ids_a_version_1_file_holds_are_left_out(version_1, people):
    # Version 1 wrote the installation's ids into event and RG data: they name nothing here.
    imported = transfer.load(transfer.parse_export(json.dumps(version_1)), user=people["outsider"])
    steps = [
        e.data["refit_step"]
        for e in CampaignEvent.objects.filter(campaign=imported)
        if "refit_step" in e.data
    ]
    assert steps and all(set(step) == {"rule", "side"} for step in steps)
    i3 = ReinforcementGroup.objects.get(campaign=imported, rg_id="I3", source="purchased")
    assert i3.details["ledger_entries"] == [] and i3.details["received"]["rolls"] == []
    assert i3.details["received"]["leaders"] == ["10-2", "8-1", "7-0"]


def test_a_version_1_file_starts_at_the_first_refit_phase_as_it_did(version_1, people):
    imported = transfer.load(transfer.parse_export(json.dumps(version_1)), user=people["outsider"])
    reph = walker.open_reph(imported)
    assert (reph.kind, reph.index) == ("before_initial", 0)


def test_its_copy_exports_as_version_2_and_round_trips(version_1, people):
    imported = transfer.load(transfer.parse_export(json.dumps(version_1)), user=people["outsider"])
    second = export_as(imported, people["outsider"])
    assert second["format_version"] == 2
    again = transfer.load(transfer.parse_export(transfer.dumps(second)), user=people["observer"])
    assert comparable(export_as(again, people["observer"])) == comparable(second)


def test_a_version_1_file_with_version_2_ids_is_still_read_as_version_1(version_1, people):
    # The version decides what the numbers mean, not their look.
    data = copy.deepcopy(version_1)
    for row, ref in zip(data["ledger"], range(1, len(data["ledger"]) + 1), strict=True):
        row["id"] = ref
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    i3 = ReinforcementGroup.objects.get(campaign=imported, rg_id="I3", source="purchased")
    assert i3.details["ledger_entries"] == []


# --- modifiers ------------------------------------------------------------------------------


def roll_with(version_1, *modifiers):
    data = copy.deepcopy(version_1)
    roll = next(r for r in data["dice_rolls"] if r["table_id"] == "rf.elr-change")
    roll["modifiers"] = list(modifiers)
    roll["final"] = roll["original"] + sum(
        m["value"] for m in modifiers if isinstance(m.get("value"), int)
    )
    return data


@pytest.mark.parametrize(
    "modifier",
    [
        {"value": 1, "reason": "a DRM of the table", "id": 7},
        {"value": 1, "reason": "a DRM of the table", "id": None},
        {"value": 1, "reason": "more keys than the dice service writes", "why": "x"},
        {"value": 1},
        {"value": True, "reason": "a flag"},
        {"value": 1, "reason": ["a list"]},
    ],
)
def test_a_modifier_is_what_the_dice_service_writes(version_1, modifier):
    assert refusal(roll_with(version_1, modifier)).endswith(
        "“modifiers”: must be a list of objects with a whole-number “value”, a text “reason” "
        "and, for a DRM of the table, its “id” (text)."
    )


def test_a_modifier_with_or_without_its_id_imports(version_1, people):
    data = roll_with(
        version_1,
        {"value": 1, "reason": "Attack chit", "id": "attack-chit"},
        {"value": -1, "reason": "typed by the player"},
    )
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    roll = DiceRoll.objects.get(campaign=imported, table_id="rf.elr-change", side="german")
    assert roll.modifiers == [
        {"value": 1, "reason": "Attack chit", "id": "attack-chit"},
        {"value": -1, "reason": "typed by the player"},
    ]
