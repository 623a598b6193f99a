"""The Fortification Purchase Record builder the page and the printed sheet share."""

import pytest
from django.utils import translation

from campaigns.models import FortificationPurchase
from campaigns.records.services import add_cvp
from campaigns.roster.services import add_ledger_entry
from refit.fortifications import services as fortifications
from refit.fortifications.records import fortification_record
from refit.rules.fortification import FortificationOrder as Order
from refit.walker import services as walker

pytestmark = pytest.mark.django_db


def initial_buildings(campaign, side):
    return FortificationPurchase.objects.get(campaign=campaign, side=side, details__initial=True)


def test_the_fortification_record_builder(campaign, people, reph):
    add_cvp(
        campaign,
        by=people["referee"],
        side="soviet",
        index=0,
        phase="scenario",
        what="4-4-7",
        cvp=2,
    )
    FortificationPurchase.objects.create(
        campaign=campaign, side="soviet", index=0, item="ap-minefield", detail="A-P 6", fpp=18
    )
    record = fortification_record(campaign, "soviet")
    assert record.days[0].available == 50  # RB CG I initial OB FPP
    assert [(line.item, line.fpp, line.detail) for line in record.lines] == [
        ("fortified-building", 0, ""),
        ("ap-minefield", 18, "A-P 6"),
    ]
    # A minefield stored without its factors (made before they were kept) is still counted.
    assert record.totals == {"fortified-building": "5", "ap-minefield": "1"}
    assert record.cvp_by_day[0][1:] == (2, 2)
    assert fortification_record(campaign, "german").lines == []


def test_the_11_621_example_fills_the_total_boxes_as_the_rule_writes_them(campaign, people, reph):
    # The Soviet buys a Fortified Building Location (10), a 6-factor A-P minefield (18) and HIP
    # for 2 squads, 2 HS, 1 crew and 1 SMC (12): "1", "A-P 6", and each HIP box apart.
    soviet = people["soviet"]
    five = initial_buildings(campaign, "soviet")
    fortifications.set_location(campaign, five, five.version, "M7, M8, N8, O9, P9", soviet)
    for order in (
        Order("fortified-building"),
        Order("ap-minefield", factors=6),
        Order("hip", 2, unit="squad"),
        Order("hip", 2, unit="hs"),
        Order("hip", 1, unit="crew"),
        Order("hip", 1, unit="smc"),
    ):
        fortifications.buy(campaign, "soviet", 0, order, soviet)
    with translation.override("en"):
        record = fortification_record(campaign, "soviet")
    assert record.totals == {
        "fortified-building": "1",
        "ap-minefield": "A-P 6",
        "hip": "squad 2, HS 2, crew 1, SMC 1",
    }
    assert sum(line.fpp for line in record.lines) == 40
    with translation.override("ja"):
        record = fortification_record(campaign, "soviet")
    assert record.totals["hip"] == "分隊 2, HS 2, 操作班 1, SMC 1"
    assert record.totals["ap-minefield"] == "A-P 6"


def test_items_set_up_leave_the_total_box(campaign, people, reph):
    soviet = people["soviet"]
    mines = fortifications.buy(campaign, "soviet", 0, Order("ap-minefield", 2, factors=6), soviet)
    fortifications.buy(campaign, "soviet", 0, Order("ap-minefield", 1, factors=4), soviet)
    assert fortification_record(campaign, "soviet").totals["ap-minefield"] == "A-P 16"
    fortifications.set_location(campaign, mines, mines.version, "K4, K5", soviet)
    assert fortification_record(campaign, "soviet").totals["ap-minefield"] == "A-P 4"


def test_the_initial_obs_fortified_building_locations_are_on_the_record(campaign, people, reph):
    # RB CG I: the Soviet initial OB gives 5 Fortified Building Locations (no FPP).
    with translation.override("en"):
        (line,) = fortification_record(campaign, "soviet").lines
    assert (line.initial, line.day, line.name, line.quantity, line.fpp) == (
        True,
        "Initial OB",
        "Fortified Building Location",
        5,
        0,
    )
    # They are given, not bought: nobody takes them back, their Locations are written as usual.
    five = initial_buildings(campaign, "soviet")
    with pytest.raises(fortifications.FortificationError, match="given, not bought"):
        fortifications.remove(campaign, five, people["referee"])
    fortifications.set_location(campaign, five, five.version, "M7-P9", people["soviet"])
    record = fortification_record(campaign, "soviet")
    assert record.lines[0].location == "M7-P9" and "fortified-building" not in record.totals


def test_the_booby_trap_level_is_the_one_in_force_for_the_days_scenario(campaign, people, reph):
    assert fortification_record(campaign, "soviet").booby_trap_level == "C"
    fortifications.buy(campaign, "soviet", 0, Order("booby-trap"), people["soviet"])
    # Bought in the RePh before the 17 Oct scenario: that scenario is played at level B.
    assert fortification_record(campaign, "soviet").booby_trap_level == "B"
    assert fortification_record(campaign, "soviet", index=0).booby_trap_level == "B"
    # The German has no booby traps (RF15): nothing to show.
    assert fortification_record(campaign, "german").booby_trap_level == ""


def test_sap_under_construction_counts_from_the_next_time_frame_and_a_lost_item_never(
    sap_campaign, people
):
    reph = walker.open_reph(sap_campaign)
    add_ledger_entry(
        sap_campaign,
        by=people["referee"],
        side="russian",
        ledger="fpp",
        index=reph.index,
        kind="adjustment",
        amount=60,
        note="M1",
    )
    soviet = people["soviet"]
    trap = fortifications.buy(
        sap_campaign,
        "russian",
        reph.index,
        Order("booby_trap", under_construction=True, hexes="P5"),
        soviet,
        hexes_confirmed=True,
    )
    belt = fortifications.buy(
        sap_campaign,
        "russian",
        reph.index,
        Order("known_mine_belt", 2, belt="ap_6", under_construction=True, hexes="P5 P6"),
        soviet,
        hexes_confirmed=True,
    )
    record = fortification_record(sap_campaign, "russian", index=reph.index)
    assert record.booby_trap_level == "C"  # Under Construction: not before the next time frame
    next_frame = fortification_record(sap_campaign, "russian", index=reph.index + 1)
    assert next_frame.booby_trap_level == "B"
    with translation.override("en"):
        assert record.totals["known_mine_belt"] == "2 × 6-FP A-P"
        assert {line.detail for line in record.lines if line.item == "known_mine_belt"} == {
            "6-FP A-P"
        }
    fortifications.set_location(sap_campaign, trap, trap.version, "", soviet, lost=True)
    fortifications.set_location(sap_campaign, belt, belt.version, "", soviet, lost=True)
    record = fortification_record(sap_campaign, "russian", index=reph.index + 1)
    assert record.booby_trap_level == "C"
    assert "known_mine_belt" not in record.totals
    assert [line.lost for line in record.lines if line.under_construction] == [True, True]
    # SaP's initial OB: the Russian 8 Fortified Building Locations (seed 004 L594).
    assert record.totals["fortified_building_location"] == "8"


def test_no_raw_identifier_in_the_record(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    add_ledger_entry(
        sap_campaign,
        by=people["referee"],
        side="russian",
        ledger="fpp",
        index=reph.index,
        kind="adjustment",
        amount=40,
        note="M1",
    )
    soviet = people["soviet"]
    fortifications.buy(sap_campaign, "russian", reph.index, Order("hip", 1, unit="vehicle"), soviet)
    fortifications.buy(
        sap_campaign, "russian", reph.index, Order("trench", 1, connected=True), soviet
    )
    for language in ("en", "ja"):
        with translation.override(language):
            record = fortification_record(sap_campaign, "russian")
        shown = " ".join(
            [*(f"{line.name} {line.detail} {line.day}" for line in record.lines)]
            + list(record.totals.values())
        )
        for raw in ("vehicle", "connected", "_", "ap_6", "hidden_mine_belt"):
            if language == "en" and raw in ("vehicle", "connected"):
                continue  # English words, not keys
            assert raw not in shown, (language, raw, shown)
    with translation.override("ja"):
        record = fortification_record(sap_campaign, "russian")
    assert {line.detail for line in record.lines} >= {"車両", "マップ上の塹壕に接続"}


def test_the_cvp_tally_box_leaves_out_sap_uncontrolled_exits(people):
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    for cvp, exited in ((3, False), (4, True)):
        add_cvp(
            sap,
            by=people["referee"],
            side="russian",
            index=0,
            phase="scenario",
            what="4-4-7",
            cvp=cvp,
            exited_uncontrolled=exited,
        )
    assert fortification_record(sap, "russian").cvp_by_day[0][1:] == (3, 3)


def test_the_records_lines_made_a_page_at_a_time_are_its_whole_lines(campaign, people, reph):
    for n in range(12):
        FortificationPurchase.objects.create(
            campaign=campaign,
            side="soviet",
            index=n % 3,
            item="ap-minefield" if n % 2 else "hip",
            details={"order": {"factors": 6}} if n % 2 else {"order": {"unit": "squad"}},
            fpp=18 if n % 2 else 3,
        )
    record = fortification_record(campaign, "soviet")
    whole = list(record.lines)
    assert len(whole) == len(record.lines) == 13  # with the initial buildings
    newest = record.lines.newest_first()
    assert newest[:5] == whole[::-1][:5] and newest[10:] == whole[::-1][10:]
    assert record.lines == whole
    # The Total # boxes still count every purchase not yet set up, not only a page's.
    assert record.totals["ap-minefield"] == "A-P 36" and record.totals["hip"] == "squad 6"
