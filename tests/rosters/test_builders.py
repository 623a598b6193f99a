"""Sheet builders: each sheet as plain data, with exact numbers on the seeded campaign."""

import pytest
from django.http import Http404

from campaigns.access import viewer_for
from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import FortificationPurchase, ReinforcementGroup, Role
from rosters.builders import KINDS, build_sheet, kinds_for
from rosters.sheets import Column, Row, Table

pytestmark = pytest.mark.django_db


def viewer(people, campaign, persona="german"):
    return viewer_for(people[persona], campaign.pk)


def column(table, heading, group=""):
    """The cells of the column headed ``heading`` (in ``group``), one per row."""
    for position, col in enumerate(table.columns):
        if col.heading == heading and col.group == group:
            return [row.cells[position] for row in table.rows]
    raise AssertionError(f"no column {group} {heading}")


# --- the CG Roster -------------------------------------------------------------------------


def test_the_roster_has_a_row_for_every_cg_day_with_its_date(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "roster", "en")
    (table,) = sheet.tables
    assert len(table.rows) == 13
    assert table.rows[0].label == "17 Oct 1942"
    assert table.rows[12].label == "29 Oct 1942"
    assert sheet.title == "German CG Roster"
    assert (sheet.side, sheet.date, sheet.campaign) == (
        "German",
        "18 Oct 1942",
        "Into the Factory, club night",
    )


def test_the_roster_carries_every_column_of_rf_12_1(seeded, people):
    (table,) = build_sheet(viewer(people, seeded), "german", "roster", "en").tables
    headings = [(col.group, col.heading) for col in table.columns]
    for wanted in [
        ("", "CG day"),
        ("", "Moon"),
        ("", "Hist DRM"),
        ("", "Weather"),
        ("", "EC"),
        ("", "ELR"),
        ("CPP", "Start"),
        ("CPP", "Repl"),
        ("CPP", "Total"),
        ("CPP", "RG purchased"),
        ("CPP", "Spent"),
        ("CPP", "Left"),
        ("CPP", "Recon"),
    ]:
        assert wanted in headings
    # The printed form's order comes first.
    assert headings[:6] == [("", h) for h in ("CG day", "Moon", "Hist DRM", "Weather", "EC", "ELR")]


def test_the_roster_cpp_chain_matches_the_ledger(seeded, people):
    (table,) = build_sheet(viewer(people, seeded), "german", "roster", "en").tables
    columns = ("Start", "Repl", "Total", "RG purchased", "Spent", "Left", "Recon")
    day = {name: column(table, name, "CPP") for name in columns}
    # 11.622: Left = 15 − 11 − 2 CPP of recon; the Recon column holds the 5 Locations.
    assert [day[name][0] for name in columns] == ["15", "", "15", "I1 (7), A5 (4)", "11", "2", "5"]
    assert [day[name][1] for name in columns] == ["2", "16", "18", "A6 (5)", "5", "13", ""]
    # Days not reached yet stay blank, as on the page.
    assert [day[name][2] for name in columns] == [""] * 7


def test_an_rg_bought_again_that_day_at_that_cost_is_written_once_with_its_count(seeded, people):
    # 11.619: "write its ID (and the CPP used)". Two more A6 at 5 on the second day: one entry
    # "A6 (5) ×3" a player can still copy by hand, explained in a note (the page says the same).
    from tests.campaigns.builders import add

    for _ in range(2):
        add(seeded, people["german"], "german", "cpp", 1, "rg_purchase", -5, "A6")
    sheet = build_sheet(viewer(people, seeded), "german", "roster", "en")
    (table,) = sheet.tables
    assert column(table, "RG purchased", "CPP")[1] == "A6 (5) ×3"
    assert column(table, "Spent", "CPP")[1] == "15"
    assert any("“×n” after an RG" in note for note in sheet.notes)
    ja = build_sheet(viewer(people, seeded), "german", "roster", "ja")
    assert any("×n" in note and "回" in note for note in ja.notes)


def test_no_count_note_when_every_rg_was_bought_once_that_day(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "roster", "en")
    assert not any("×n" in note for note in sheet.notes)


def test_the_roster_shades_the_first_days_repl_and_marks_today(seeded, people):
    (table,) = build_sheet(viewer(people, seeded), "german", "roster", "en").tables
    repl = [(c.group, c.heading) for c in table.columns].index(("CPP", "Repl"))
    assert table.rows[0].shaded == (repl,)
    assert table.rows[1].shaded == ()
    assert [row.current for row in table.rows[:3]] == [False, True, False]


def test_the_roster_shows_elr_san_scenarios_cvp_and_hist_drm(seeded, people):
    (table,) = build_sheet(viewer(people, seeded), "german", "roster", "en").tables
    assert column(table, "ELR")[:2] == ["4", "3†"]  # 18 Oct's ELR is not announced yet
    assert column(table, "SAN")[:2] == ["3", "2†"]
    assert column(table, "Hist DRM")[:2] == ["?", "−2"]  # 11.6162 example; 17 Oct unknown
    assert column(table, "Type", "Scenario")[0] == "Initial scenario"
    assert column(table, "Winner", "Scenario")[0] == "Soviet"
    assert column(table, "CVP suffered")[0] == "23"


def test_the_roster_reads_in_japanese(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "roster", "ja")
    assert sheet.tables[0].rows[0].label == "1942年10月17日"
    assert sheet.language == "ja"
    assert sheet.side == "ドイツ軍"


def test_a_sap_roster_has_one_row_per_time_frame_without_rf_only_columns(people):
    sap = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="russian",
    )
    sheet = build_sheet(viewer_for(people["german"], sap.pk), "russian", "roster", "en")
    (table,) = sheet.tables
    assert len(table.rows) == 6
    headings = [col.heading for col in table.columns]
    assert headings[0] == "Time frame"
    assert "Moon" not in headings and "Initiative chit" not in headings
    assert column(table, "Start", "CPP")[0] == "22"  # the Russian OB's CPP (SaP 11.1)
    # Nor the footnote on a Hist DRM column it does not have (issue 16).
    assert not any("Hist DRM" in note for note in sheet.notes)


def test_the_blank_roster_preprints_dates_and_the_rules_first_day_values(seeded, people):
    sheet = build_sheet(viewer(people, seeded, "observer"), "soviet", "blank-roster", "en")
    (table,) = sheet.tables
    assert sheet.blank
    assert [row.label for row in table.rows] == [f"{day} Oct 1942" for day in range(17, 30)]
    assert column(table, "Start", "CPP")[:2] == ["8", ""]
    assert column(table, "ELR")[:2] == ["3", ""]
    assert column(table, "Total", "CPP") == [""] * 13
    # Nothing the Soviet recorded reaches a blank form.
    assert "987" not in str(sheet)


# --- the RG Purchase Record ----------------------------------------------------------------


def test_the_rg_record_lists_ob_and_purchased_rgs_with_p_and_r(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "rg-record", "en")
    (table,) = sheet.tables
    rows = {(row.cells[1], row.cells[3]): row.cells for row in table.rows}
    assert len(table.rows) == 5 + 3  # five OB-given RGs, three bought
    rifle = rows[("I1", "1")]
    # I1 Rifle Coy: CG Max 9 in RB CG I; the OB-given I1 does not count (11.6196).
    assert rifle == (
        "17 Oct 1942",
        "I1",
        "Rifle Coy",
        "1",
        "8",
        "F",
        "12",
        "2 × LMG, 1 × MMG",
        "9-1, 8-0",
        "",
        "",
        "7",
        "awaiting entry",
    )
    assert rows[("A6", "1")][-1] == "bought, not yet rolled"
    facts = {fact.label: fact.value for fact in sheet.facts}
    assert facts["RGs by status"] == "bought, not yet rolled 1 · awaiting entry 7"
    assert rows[("A5", "1")][4] == "1"  # CG Max 2
    assert rows[("A5", "1")][10] == "O"  # bought as an On-map RG
    assert rows[("A6", "1")][0] == "18 Oct 1942"
    assert rows[("I1", "OB")][4] == ""


def test_the_rg_record_counts_each_rg_id_on_its_own(seeded, people):
    ReinforcementGroup.objects.create(
        campaign=seeded,
        side="german",
        rg_id="I1",
        number=9,
        index=1,
        source=ReinforcementGroup.Source.PURCHASED,
        cpp_cost=7,
    )
    (table,) = build_sheet(viewer(people, seeded), "german", "rg-record", "en").tables
    rifles = [row.cells[3:5] for row in table.rows if row.cells[1] == "I1"]
    assert rifles == [("OB", ""), ("1", "8"), ("2", "7")]


def test_a_dug_in_platoon_shows_its_lmg_and_why_on_the_soviet_rg_record(seeded, people):
    # 11.6194c: A3 bought dug in (3 CPP) received 3 T-34 M41 and, for their BMG, 3 LMG.
    ReinforcementGroup.objects.create(
        campaign=seeded,
        side="soviet",
        rg_id="A3",
        number=1,
        index=1,
        source=ReinforcementGroup.Source.PURCHASED,
        option="dug_in",
        cpp_cost=3,
        strength="F",
        details={
            "received": {
                "units": {"T-34 M41": 3},
                "sw": {"LMG": 3},
                "leaders": [],
                "dug_in": {"lmg": 3, "bmg_removed": True},
            }
        },
    )
    for persona in ("soviet", "referee"):
        (table,) = build_sheet(viewer(people, seeded, persona), "soviet", "rg-record", "en").tables
        (row,) = [row.cells for row in table.rows if row.cells[1] == "A3"]
        assert (row[7], row[9], row[10], row[11]) == (
            "3 × LMG",
            "dug-in: BMG removed, +3 LMG, never mobile (11.6194c)",
            "D",
            "3",
        )
    (german,) = build_sheet(viewer(people, seeded), "german", "rg-record", "en").tables
    assert "A3" not in [row.cells[1] for row in german.rows]
    for persona in ("german", "observer"):
        with pytest.raises(Http404):
            build_sheet(viewer(people, seeded, persona), "soviet", "rg-record", "en")


def test_the_blank_rg_record_preprints_the_ob_rgs_then_empty_lines(seeded, people):
    (table,) = build_sheet(
        viewer(people, seeded, "observer"), "german", "blank-rg-record", "en"
    ).tables
    assert [row.cells[1] for row in table.rows[:5]] == ["I1", "I3", "A5", "O1", "O5"]
    assert all(set(row.cells) == {""} for row in table.rows[5:])
    assert len(table.rows) > 30


# --- the Fortification Purchase Record ------------------------------------------------------


def test_the_fortification_record_has_a_column_per_type_with_locations_and_totals(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "fortifications", "en")
    by_type, purchases, fpp, tally = sheet.tables
    headings = [col.heading for col in by_type.columns]
    assert headings[1:4] == ["Foxhole", "Trench", "A-T Ditch"]
    assert len(headings) == 1 + 14  # every item of the RF purchase table
    assert column(by_type, "Foxhole") == ["M7", "3"]  # the three 1S foxholes are not placed yet
    assert column(by_type, "Set DC (A23.7)") == ["", "1"]
    assert by_type.rows[-1].label == "Total #"
    assert [row.cells[:5] for row in purchases.rows] == [
        ("17 Oct 1942", "Foxhole", "2S", "2", "4"),
        ("17 Oct 1942", "Foxhole", "1S", "3", "3"),
        ("17 Oct 1942", "Set DC (A23.7)", "by 8-3-8 #2", "1", "7"),
    ]
    assert fpp.rows[0].cells == ("17 Oct 1942", "30", "14", "16")
    assert tally.title == "CVP Tally Box"
    assert tally.rows[0].cells == ("17 Oct 1942", "23", "23")


def test_the_blank_fortification_record_has_empty_location_lines_and_every_date(seeded, people):
    sheet = build_sheet(viewer(people, seeded, "observer"), "soviet", "blank-fortifications", "en")
    by_type, tally = sheet.tables
    assert len(by_type.rows) == 12 + 1
    assert all(set(row.cells[1:]) == {""} for row in by_type.rows[:-1])
    # The Total # row pre-prints only the initial OB's 5 Fortified Building Locations (RB CG I).
    totals = dict(zip([c.heading for c in by_type.columns], by_type.rows[-1].cells, strict=True))
    assert totals.pop("Fortified Building Location") == "5 (initial OB)"
    assert set(list(totals.values())[1:]) == {""}
    assert [row.label for row in tally.rows][0] == "17 Oct 1942"
    assert len(tally.rows) == 13


def test_the_soviet_record_shows_the_initial_buildings_the_booby_trap_level_and_the_totals(
    seeded, people
):
    # Bought on 18 Oct (the current day): a 6-factor A-P minefield, HIP for 2 squads and one
    # booby-trap level, as the purchase service stores them.
    FortificationPurchase.objects.create(
        campaign=seeded,
        side="soviet",
        index=1,
        item="ap-minefield",
        detail="6 FP",
        details={"order": {"factors": 6}},
        fpp=18,
    )
    FortificationPurchase.objects.create(
        campaign=seeded,
        side="soviet",
        index=1,
        item="hip",
        details={"order": {"unit": "squad"}},
        quantity=2,
        fpp=6,
    )
    FortificationPurchase.objects.create(
        campaign=seeded,
        side="soviet",
        index=1,
        item="booby-trap",
        details={"order": {}},
        fpp=40,
    )
    sheet = build_sheet(viewer(people, seeded, "referee"), "soviet", "fortifications", "en")
    assert ("Booby-trap level for this day's scenario", "B") in [
        (fact.label, fact.value) for fact in sheet.facts
    ]
    by_type, purchases, _fpp, _tally = sheet.tables
    assert column(by_type, "A-P Minefield")[-1] == "A-P 6"
    assert column(by_type, "HIP")[-1] == "squad 2"
    assert column(by_type, "Fortified Building Location")[-1] == "5"
    assert purchases.rows[0].cells[:5] == (
        "Initial OB",
        "Fortified Building Location",
        "",
        "5",
        "—",
    )
    assert any("(11.621)" in note for note in sheet.notes)


def test_the_divider_holds_the_initial_obs_fortified_building_locations(seeded, people):
    sheet = build_sheet(viewer(people, seeded, "soviet"), "soviet", "orbat", "en")
    (box,) = [table for table in sheet.tables if table.title == "Fortification counters"]
    assert ("Fortified Building Location", "5") in [row.cells[:2] for row in box.rows]
    german = build_sheet(viewer(people, seeded), "german", "orbat", "en")
    (box,) = [table for table in german.tables if table.title == "Fortification counters"]
    assert "Fortified Building Location" not in [row.cells[0] for row in box.rows]  # RB CG I: 0


def test_a_sap_under_construction_item_lost_is_marked_lost(people):
    sap = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="russian",
    )
    FortificationPurchase.objects.create(
        campaign=sap,
        side="russian",
        index=0,
        item="hidden_mine_belt",
        details={"order": {"belt": "ap_6", "under_construction": True}, "lost": True},
        detail="6-FP A-P",
        under_construction=True,
        hexes="P5 P6",
        fpp=10,
    )
    sheet = build_sheet(viewer_for(people["german"], sap.pk), "russian", "fortifications", "en")
    by_type, purchases, _fpp, _tally = sheet.tables
    lost = [row.cells for row in purchases.rows if row.cells[1].startswith("Hidden Mine Belt")]
    assert lost == [
        (
            "CG-1: 7 July 1943 AM",
            "Hidden Mine Belt (SSR CG17)",
            "6-FP A-P",
            "1",
            "10",
            "yes · lost",
            "P5 P6",
            "lost",
        )
    ]
    # The Russian initial OB's 8 Fortified Building Locations (seed 004 L594); the lost belt
    # is not waiting to be placed; the FPP footnote cites SaP's own step (11.619).
    assert column(by_type, "Fortified Building Location")[-1] == "8"
    assert column(by_type, "Hidden Mine Belt (SSR CG17)")[-1] == ""
    assert any("(11.619)" in note for note in sheet.notes)
    for table in sheet.tables:
        for row in table.rows:
            for raw in ("hidden_mine_belt", "ap_6", "on_map", "fortified_building_location"):
                assert raw not in " ".join(row.cells)
    roster = build_sheet(viewer_for(people["german"], sap.pk), "russian", "roster", "en")
    assert any("(11.620)" in note and "(11.619)" in note for note in roster.notes)


def test_a_sap_fortification_record_offers_only_that_sides_items(people):
    sap = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    german_viewer = viewer_for(people["german"], sap.pk)
    (by_type, _tally) = build_sheet(german_viewer, "german", "blank-fortifications", "en").tables
    headings = [col.heading for col in by_type.columns]
    assert "Wire" in headings and "Pillbox" not in headings  # pillboxes are Russian only


# --- the order of battle -------------------------------------------------------------------


def test_the_divider_has_retained_each_rg_awaiting_entry_and_the_other_boxes(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "orbat", "en")
    titles = [table.title for table in sheet.tables]
    assert titles[0] == "Retained"
    # The RG boxes in the page's order: by day, then RG id and number.
    assert titles[1] == "A5#1 · Pz III L Pltn · 17 Oct 1942 · awaiting entry"
    assert titles[4] == "I1#2 · Rifle Coy · 17 Oct 1942 · F · awaiting entry"
    assert (
        len(titles) == 1 + 8 + 4
    )  # Retained, 8 RGs, casualties / fortifications / wounded / pending
    assert titles[-4:] == [
        "Casualties / eliminated",
        "Fortification counters",
        "Wounded leaders",
        "Captured / malfunctioned weapons pending",
    ]
    by_title = {table.title: table for table in sheet.tables}
    (rg_line,) = by_title[titles[1]].rows
    assert rg_line.cells[:2] == ("4-6-7", "12")
    (casualty,) = by_title["Casualties / eliminated"].rows
    assert casualty.cells == ("4-6-8", "3", "infantry", "", "isolated", "<b>M7</b> & cellar")


# --- the campaign summary ------------------------------------------------------------------


def test_the_summary_states_date_elr_san_cpp_rgs_and_record(seeded, people):
    sheet = build_sheet(viewer(people, seeded), "german", "summary", "en")
    facts = {fact.label: fact.value for fact in sheet.facts}
    assert facts["CG day"] == "18 Oct 1942"
    assert facts["ELR"] == "3†"
    assert facts["SAN"] == "2†"
    assert facts["CPP left"] == "13"
    # Only the RGs truly awaiting entry: the A6 bought today is not rolled yet.
    assert facts["RGs awaiting entry"] == "7"
    assert facts["RGs by status"] == "bought, not yet rolled 1 · awaiting entry 7"
    assert facts["Scenario record"] == "0 won, 1 lost · 11.32 balance DRM 0"
    assert facts["CVP suffered so far"] == "23"
    rgs, scenarios = sheet.tables
    assert [row.label for row in rgs.rows][:3] == ["A5#1", "A5#2", "I1#1"]
    assert rgs.rows[1].cells[-1] == "O"  # the A5 bought as an On-map RG
    assert scenarios.rows[0].cells == ("17 Oct 1942", "Initial scenario", "German", "Soviet", "23")


# --- who gets what -------------------------------------------------------------------------


SECRET = ("summary", "roster", "rg-record", "fortifications", "orbat")
BLANK = ("blank-roster", "blank-rg-record", "blank-fortifications")


@pytest.mark.parametrize("slug", SECRET)
@pytest.mark.parametrize(
    "persona, side",
    [("soviet", "german"), ("german", "soviet"), ("observer", "german"), ("observer", "soviet")],
)
def test_a_sides_secret_sheets_are_404_to_everyone_else(seeded, people, persona, side, slug):
    with pytest.raises(Http404):
        build_sheet(viewer(people, seeded, persona), side, slug, "en")


def test_the_referee_gets_both_sides_and_everyone_the_blank_forms(seeded, people):
    for side in ("german", "soviet"):
        assert [k.slug for k in kinds_for(viewer(people, seeded, "referee"), side)] == list(KINDS)
        assert [k.slug for k in kinds_for(viewer(people, seeded, "observer"), side)] == list(BLANK)
    assert [k.slug for k in kinds_for(viewer(people, seeded), "soviet")] == list(BLANK)
    assert [k.slug for k in kinds_for(viewer(people, seeded), "german")] == list(KINDS)


def test_unknown_sides_kinds_and_languages_are_404(seeded, people):
    referee = viewer(people, seeded, "referee")
    for side, slug, language in [
        ("russian", "roster", "en"),
        ("german", "nonsense", "en"),
        ("german", "roster", "fr"),
    ]:
        with pytest.raises(Http404):
            build_sheet(referee, side, slug, language)


def test_the_referee_sees_the_soviet_numbers(seeded, people):
    sheet = build_sheet(viewer(people, seeded, "referee"), "soviet", "roster", "en")
    (table,) = sheet.tables
    assert column(table, "Total", "CPP")[1] == "995"  # 8 carried over + 987
    assert column(table, "RG purchased", "CPP")[1] == "I6 (12)"
    assert column(table, "Available", "FPP")[1] == "787"


@pytest.mark.parametrize("slug", SECRET)
def test_no_german_sheet_carries_a_soviet_secret(seeded, people, slug):
    text = str(build_sheet(viewer(people, seeded), "german", slug, "en"))
    for secret in ("987", "995", "787", "I6", "658", "Sapper", "Q9-secret"):
        assert secret not in text


# --- the plain data itself -----------------------------------------------------------------


def test_a_row_must_have_a_cell_for_every_column():
    with pytest.raises(ValueError):
        Table(columns=(Column("a"), Column("b")), rows=(Row(cells=("1",)),))


def test_group_spans_join_neighbouring_columns_of_one_group():
    table = Table(
        columns=(
            Column("Date"),
            Column("Start", "CPP"),
            Column("Total", "CPP"),
            Column("A", "FPP"),
        ),
        rows=(),
    )
    assert table.group_spans() == [("CPP", 1, 2), ("FPP", 3, 3)]


# --- RG statuses on the sheets ---------------------------------------------------------------


def test_each_side_counts_only_its_own_rgs_by_status(seeded, people):
    ReinforcementGroup.objects.filter(campaign=seeded, side="soviet").update(status="eliminated")
    german_sheet = build_sheet(viewer(people, seeded), "german", "summary", "en")
    german_facts = {f.label: f.value for f in german_sheet.facts}
    assert "eliminated" not in german_facts["RGs by status"]
    soviet_sheet = build_sheet(viewer(people, seeded, "soviet"), "soviet", "summary", "en")
    soviet_facts = {f.label: f.value for f in soviet_sheet.facts}
    assert soviet_facts["RGs awaiting entry"] == "0"
    assert soviet_facts["RGs by status"].startswith("eliminated ")
    rgs, _scenarios = soviet_sheet.tables
    assert rgs.rows == ()  # an eliminated RG is no longer one the side has


def test_the_divider_titles_and_counts_follow_the_status(seeded, people):
    rg = ReinforcementGroup.objects.get(campaign=seeded, side="german", rg_id="A5", number=1)
    rg.status = "retained"
    rg.save()
    sheet = build_sheet(viewer(people, seeded), "german", "orbat", "en")
    titles = [table.title for table in sheet.tables]
    # Retained: it keeps its box while lines are still in it, titled with its status.
    assert "A5#1 · Pz III L Pltn · 17 Oct 1942 · retained" in titles
    facts = {f.label: f.value for f in sheet.facts}
    assert facts["RGs by status"] == "bought, not yet rolled 1 · awaiting entry 6 · retained 1"


def test_the_divider_sheet_has_the_pages_boxes_in_the_pages_order(grown, people):
    """The sheet reads the lines and RGs as plain rows: the same boxes, titles and lines, in the
    same order, as campaigns.orbat.divider gives the order-of-battle page (retained RGs with
    lines, RGs awaiting entry with and without lines, the fixed boxes)."""
    from campaigns.orbat.divider import divider_boxes, side_groups, side_lines

    sheet = build_sheet(viewer(people, grown), "german", "orbat", "en")
    boxes = divider_boxes(
        side_groups(grown, "german"), ((line, line) for line in side_lines(grown, "german"))
    )
    assert len(boxes) >= 40
    assert len(sheet.tables) == len(boxes)
    for table, box in zip(sheet.tables, boxes, strict=True):
        if box.group is not None:
            assert table.title.startswith(f"{box.group.label} · ")
        assert [row.cells[-1] for row in table.rows] == [line.status_note for line in box.lines]
        assert [row.cells[1] for row in table.rows] == [str(line.quantity) for line in box.lines]
        statuses = [row.cells[4] for row in table.rows]
        assert statuses == ["isolated" if line.statuses else "" for line in box.lines]
