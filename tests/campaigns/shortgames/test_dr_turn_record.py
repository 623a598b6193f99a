"""Defiant Russia's turn record (campaigns.shortgames.segment_record_dr): the combats in the
order the dice helper rolled them, each in its phase, and the phases' choices; on the turn page,
the status sheet and in the export file."""

import copy
import json

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import DrCombatRecord
from campaigns.shortgames import turn_marks
from campaigns.transfer import services as transfer
from rosters.builders import build_sheet
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.transfer.test_services import comparable

pytestmark = pytest.mark.django_db

ATTACK = {
    "side": "axis",
    "role": "attacker",
    "units": "6a, 3",
    "nationality": "german",
    "leaders": "guderian",
    "note": "Minsk",
    "token": "c1",
}
DEFENCE = {
    "side": "soviet",
    "role": "defender",
    "units": "4",
    "terrain": "forest",
    "note": "Minsk",
    "token": "c2",
}


@pytest.fixture
def fought(dr_started, people, client_as):
    url = reverse("shortgames:combat", args=[dr_started.pk])
    turn_marks.mark(
        dr_started,
        index=0,
        side="soviet",
        step_id="weather",
        by=people["soviet"],
        note="Clear, as history has it",
    )
    with dice.use_roller(Loaded(*([6] * 30))):
        client_as("german").post(url, ATTACK)
        client_as("german").post(url, ATTACK)  # the same form again: no second record
        client_as("soviet").post(url, DEFENCE)
    return dr_started


def test_the_combats_are_recorded_in_order_with_their_phase_and_choices(fought):
    first, second = DrCombatRecord.objects.filter(campaign=fought).order_by("order")
    assert (first.order, first.side, first.step, first.role) == (
        1,
        "axis",
        "axis_combat",
        "attacker",
    )
    assert first.detail["units"] == "6a, 3" and first.detail["leaders"] == ["guderian"]
    assert (first.detail["dice"], first.detail["hits"]) == (11, 11)  # 9 + Guderian's 2 (11.61)
    # The defender's roll belongs to the attacker's combat phase.
    assert (second.order, second.side, second.step) == (2, "soviet", "axis_combat")
    assert second.detail["terrain"] == ["forest"]


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_turn_page_shows_the_record(fought, client_as, persona):
    html = client_as(persona).get(reverse("shortgames:turn", args=[fought.pk])).content.decode()
    section = html[html.index('id="turn-record"') :]
    assert "Clear, as history has it" in section
    assert section.index("Minsk · attacker: 6a, 3") < section.index("Minsk · defender: 4")
    assert "Guderian" in section and "Forest" in section and "guderian" not in section


def test_an_outsider_sees_no_turn_page(fought, client_as):
    assert (
        client_as("outsider").get(reverse("shortgames:turn", args=[fought.pk])).status_code == 404
    )


def test_the_status_sheet_lists_the_record(fought, people):
    sheet = build_sheet(viewer_for(people["observer"], fought.pk), "axis", "status", "ja")
    record = sheet.tables[3]
    assert [row.cells[0] for row in record.rows] == ["", "1", "2"]
    assert "ドイツ軍" in record.rows[1].cells[3] and "グデーリアン" in record.rows[1].cells[3]


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def test_the_record_round_trips(fought, people):
    first = export_as(fought, people["referee"])
    assert [row["order"] for row in first["dr_turn_record"]] == [1, 2]
    parsed = transfer.parse_export(transfer.dumps(first).encode())
    imported = transfer.load(parsed, user=people["outsider"])
    assert comparable(export_as(imported, people["outsider"])) == comparable(first)
    assert DrCombatRecord.objects.filter(campaign=imported).count() == 2


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda rows: rows[0].update(step="no-such-step"), "step"),
        (lambda rows: rows[0].update(role="spectator"), "role"),
        (lambda rows: rows[1].update(order=1), "twice"),
        (lambda rows: rows[0]["detail"].update(hits="many"), "detail"),
    ],
)
def test_a_crafted_record_is_refused(fought, people, change, match):
    data = copy.deepcopy(export_as(fought, people["referee"]))
    change(data["dr_turn_record"])
    with pytest.raises(transfer.ImportRefused, match=match):
        transfer.parse_export(json.dumps(data).encode())
