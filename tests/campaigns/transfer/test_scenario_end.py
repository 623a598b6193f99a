"""A scenario's end in the export: its counts and how the winner was found, and each loss's link
to the OB line it came from — named only in a file that holds that line — round-trip."""

import pytest

from campaigns.models import CvpEntry, OrbatEntry, Scenario
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from tests.campaigns.transfer.test_services import (
    comparable,
    export_as,
    play_some_days,
    refusal,
    round_trip,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(campaign, people):
    campaign = play_some_days(campaign, people)
    scenario = Scenario.objects.get(campaign=campaign, index=0)
    (line,) = orbat.add_units(
        campaign, by=people["german"], side="german", box="retained", text="3 × 4-6-7"
    )
    records.record_losses(
        scenario,
        by=people["german"],
        side="german",
        losses=[
            records.Loss(
                entry=line, version=line.version, outcome="eliminated", quantity=2, cvp_each=2
            )
        ],
    )
    scenario.refresh_from_db()
    records.save_end(
        scenario,
        by=people["referee"],
        version=scenario.version,
        locations={"german": {"gained": 3, "controlled": 15}},
        end={"heroes": {"soviet": 1}, "all_stone_locations": "", "winner_by": "rules"},
        winner="german",
    )
    return campaign


def test_the_referee_file_round_trips_the_end_and_the_links(ended, people):
    first, imported, second = round_trip(ended, people["referee"], people["outsider"])
    assert comparable(second) == comparable(first)
    (row,) = [row for row in first["scenarios"] if row["index"] == 0]
    assert row["end"]["heroes"] == {"soviet": 1}
    assert row["locations"]["german"]["controlled"] == 15
    (loss,) = CvpEntry.objects.filter(campaign=imported, orbat_entry__isnull=False)
    assert (loss.orbat_entry.unit_type, loss.orbat_entry.quantity, loss.orbat_entry.box) == (
        "4-6-7",
        2,
        "casualties",
    )
    assert loss.cvp == 4


def test_a_soviet_file_keeps_the_german_loss_but_not_its_ob_line(ended, people):
    data = export_as(ended, people["soviet"])
    (loss,) = [row for row in data["cvp"] if row["what"] == "2 × 4-6-7"]
    assert loss["orbat"] is None and loss["cvp"] == 4
    _first, imported, _second = round_trip(ended, people["soviet"], people["outsider"])
    assert not OrbatEntry.objects.filter(campaign=imported, side="german").exists()


def test_a_link_to_another_sides_line_or_a_bad_end_is_refused(ended, people):
    data = export_as(ended, people["referee"])
    soviet = next(row["id"] for row in data["orbat"] if row["side"] == "soviet")
    (loss,) = [row for row in data["cvp"] if row["orbat"] is not None]
    loss["orbat"] = soviet
    assert "names an OB line of another side" in refusal(data)
    data = export_as(ended, people["referee"])
    data["scenarios"][0]["end"] = {"heroes": {"german": -1}}
    assert "end.heroes" in refusal(data)
