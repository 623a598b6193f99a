"""A SaP time frame's arriving units go where the rules put them in one action (the Retained box,
SaP 11.2 [L379]), by the Russian's CG-3.1/3.2/4.1 designations; CG-5's German AFVs left off-map
join the German Armor Reserve by themselves (CG-5.2); a dug-in AFV stays dug in (CG7.23).
refit.walker.arrivals.place, refit.reserve.services.join_left_off_map; issue 16."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, OrbatBox, OrbatEntry, SideDay
from campaigns.orbat import services as orbat
from campaigns.state import StateError
from refit.models import ArmorReserveVehicle
from refit.walker import arrivals
from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db


def lines(campaign, side, box):
    return sorted(
        (line.unit_type, line.quantity, tuple(line.statuses), line.status_note)
        for line in OrbatEntry.objects.filter(
            campaign=campaign, side=side, box=box, status_note__startswith="CG-"
        )
    )


def designate(campaign, people, index, turn_two, south=None):
    day = SideDay.objects.get(campaign=campaign, index=index, side="russian")
    arrivals.designate(
        campaign,
        "russian",
        turn_two=turn_two,
        south=south,
        version=day.version,
        by=people["soviet"],
    )


def test_cg3_stavka_goes_to_retained_split_by_its_designations(sap_campaign, people):
    walk_to(sap_campaign, people, 2)
    # The designations come first (CG-3.1/3.2: "before set-up"); none is an answer too.
    with pytest.raises(StateError, match="designations first"):
        arrivals.place(sap_campaign, "russian", by=people["soviet"])
    designate(sap_campaign, people, 2, {"T-34 M43": 10, "KV-1 M42 (with AAMG)": 4})
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    assert lines(sap_campaign, "russian", OrbatBox.ARRIVING) == []
    assert lines(sap_campaign, "russian", OrbatBox.RETAINED) == [
        ("KV-1 M42", 11, ("stavka",), "CG-3"),
        ("KV-1 M42 (with AAMG)", 4, ("stavka", "turn_two"), "CG-3.2"),
        ("T-34 M43", 10, ("stavka", "turn_two"), "CG-3.1"),
        ("T-34 M43", 20, ("stavka",), "CG-3"),
    ]
    event = CampaignEvent.objects.get(campaign=sap_campaign, action=arrivals.PLACED)
    assert event.visibility == "russian"
    assert "On turn 2: 10 × T-34 M43 (CG-3.1)" in history.describe(event)
    # Placed: the designations stand (recorded again or taken back only after the placement).
    with pytest.raises(StateError, match="take the placement back first"):
        designate(sap_campaign, people, 2, {})
    designation = CampaignEvent.objects.get(campaign=sap_campaign, action="orbat.designated")
    with pytest.raises(history.UndoError, match="placement back first"):
        history.undo(designation, by=people["soviet"])
    # Taken back: everything waits in the arriving box again, as it arrived.
    history.undo(event, by=people["soviet"])
    assert lines(sap_campaign, "russian", OrbatBox.RETAINED) == []
    assert lines(sap_campaign, "russian", OrbatBox.ARRIVING) == [
        ("KV-1 M42", 11, ("stavka",), "CG-3"),
        ("KV-1 M42 (with AAMG)", 4, ("stavka",), "CG-3"),
        ("T-34 M43", 30, ("stavka",), "CG-3"),
    ]
    designate(sap_campaign, people, 2, {})


def test_placed_stavka_armor_leaves_at_the_end_of_its_time_frame(sap_campaign, people):
    walk_to(sap_campaign, people, 2)
    designate(sap_campaign, people, 2, {})
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    with pytest.raises(StateError, match="Nothing of this time frame"):
        arrivals.place(sap_campaign, "russian", by=people["soviet"])
    walk_to(sap_campaign, people, 3)
    # CG7.22: gone from the Retained box as 8 July PM opens; 8 July PM's own Stavka arrives.
    assert lines(sap_campaign, "russian", OrbatBox.RETAINED) == []
    designate(sap_campaign, people, 3, {"T-70": 15}, south=10)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    assert ("T-70", 15, ("stavka", "turn_two"), "CG-4.1") in lines(
        sap_campaign, "russian", OrbatBox.RETAINED
    )


def test_cg5_dug_in_t34s_and_their_lmg_are_placed_the_german_afvs_wait(sap_campaign, people):
    walk_to(sap_campaign, people, 4)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])  # no designations in CG-5
    assert lines(sap_campaign, "russian", OrbatBox.RETAINED) == [
        ("LMG", 6, (), "CG-5"),
        ("T-34 M41 (dug-in)", 6, ("dug_in",), "CG-5"),
    ]
    assert arrivals.to_place(sap_campaign, "german") == []
    with pytest.raises(StateError, match="Nothing of this time frame"):
        arrivals.place(sap_campaign, "german", by=people["german"])


def test_a_dug_in_afv_is_never_made_mobile(sap_campaign, people):
    walk_to(sap_campaign, people, 4)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    t34 = OrbatEntry.objects.get(campaign=sap_campaign, unit_type="T-34 M41 (dug-in)")
    with pytest.raises(StateError, match=r"never mobile.*CG7\.23"):
        orbat.change_entry(t34, by=people["soviet"], version=t34.version, statuses=[])
    # Other marks may change; the dug-in mark stays with them.
    orbat.change_entry(
        t34, by=people["soviet"], version=t34.version, statuses=["dug_in", "isolated"]
    )
    t34.refresh_from_db()
    assert t34.statuses == ["dug_in", "isolated"]


DUG_IN_WORDS = "dug in: never mobile, BMG unusable, may set up HIP as an emplaced Gun (D9.54)"


@pytest.mark.parametrize(
    "persona, status", [("soviet", 200), ("referee", 200), ("german", 404), ("observer", 404),
                        ("outsider", 404)]
)  # fmt: skip
def test_the_ob_and_its_sheet_say_what_dug_in_means(sap_campaign, people, client_as, persona,
                                                   status):  # fmt: skip
    """CG7.23 on the line itself: never mobile, BMG unusable, HIP as an emplaced Gun; the LMG
    beside it. Only the Russian and the referee read the Russian OB (page and divider sheet)."""
    from campaigns.access import viewer_for
    from rosters.builders import build_sheet

    walk_to(sap_campaign, people, 4)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    page = reverse("campaigns:orbat", args=[sap_campaign.pk, "russian"])
    response = client_as(persona).get(page)
    assert response.status_code == status
    if status != 200:
        return
    html = response.content.decode()
    assert f"[{DUG_IN_WORDS}]" in html
    sheet = build_sheet(viewer_for(people[persona], sap_campaign.pk), "russian", "orbat", "en")
    cells = [row.cells for table in sheet.tables for row in table.rows]
    t34 = next(c for c in cells if c[0] == "T-34 M41 (dug-in)")
    assert DUG_IN_WORDS in t34


def test_the_dug_in_words_are_an_afvs_only():
    from campaigns.orbat.forms import line_status_label

    assert line_status_label("dug_in", "vehicle_or_gun") == DUG_IN_WORDS
    assert line_status_label("dug_in", "infantry") == "dug in"
    assert line_status_label("isolated", "vehicle_or_gun") == "isolated"


def test_a_red_factories_line_loses_its_dug_in_mark_freely(campaign, people):
    line = OrbatEntry.objects.create(
        campaign=campaign,
        side="german",
        box="retained",
        unit_type="PzKpfw IIIG",
        kind="vehicle_or_gun",
        quantity=1,
        statuses=["dug_in"],
    )
    orbat.change_entry(line, by=people["german"], version=line.version, statuses=[])
    line.refresh_from_db()
    assert line.statuses == []


# --- CG-5.2 ----------------------------------------------------------------------------------


def test_cg5_afvs_still_awaiting_entry_join_the_reserve_as_9_july_pm_opens(sap_campaign, people):
    # CG9 before the CG gave the PzKpfw IV F1 platoon an 8-1 and the III L platoon a 9-1.
    first = SideDay.objects.get(campaign=sap_campaign, index=0, side="german")
    first.arrival_plan = {
        "armor_leaders": [
            {"source": "CG-5", "type": "PzKpfw III L", "n": 1, "leader": "9-1"},
            {"source": "CG-5", "type": "PzKpfw IV F1", "n": 1, "leader": "8-1"},
        ]
    }
    first.save()
    walk_to(sap_campaign, people, 4)
    # The III L platoon entered play (moved out of the box by its player), its leader with it.
    entered = OrbatEntry.objects.filter(
        campaign=sap_campaign, side="german", box=OrbatBox.ARRIVING
    ).filter(unit_type__in=["PzKpfw III L", "9-1 armor leader"])
    assert entered.count() == 2
    orbat.move_entries(
        sap_campaign,
        by=people["german"],
        side="german",
        lines={line.pk: line.version for line in entered},
        box=OrbatBox.RETAINED,
    )
    before = ArmorReserveVehicle.objects.filter(campaign=sap_campaign).count()
    walk_to(sap_campaign, people, 5)
    joined = ArmorReserveVehicle.objects.filter(campaign=sap_campaign, origin="cg5")
    assert sorted(joined.values_list("serial", "vehicle_type", "armor_leader")) == [
        (before + 1, "PzKpfw IV F1", "8-1"),
        (before + 2, "PzKpfw IV F1", ""),
        (before + 3, "PzKpfw IV F1", ""),
        (before + 4, "PzKpfw IV F2", ""),
        (before + 5, "PzKpfw IV F2", ""),
        (before + 6, "PzKpfw IV F2", ""),
    ]
    assert lines(sap_campaign, "german", OrbatBox.ARRIVING) == []
    assert ("PzKpfw III L", 3, (), "CG-5") in lines(sap_campaign, "german", OrbatBox.RETAINED)
    event = CampaignEvent.objects.get(campaign=sap_campaign, action="reserve.joined")
    assert event.visibility == "german"
    assert "CG-5.2" in history.describe(event)
    # The referee takes it back (a finished phase: with a reason): the lines wait again.
    history.undo(event, by=people["referee"], reason="they had entered")
    assert not ArmorReserveVehicle.objects.filter(campaign=sap_campaign, origin="cg5").exists()
    assert lines(sap_campaign, "german", OrbatBox.ARRIVING) == [
        ("8-1 armor leader", 1, (), "CG-5"),
        ("PzKpfw IV F1", 3, (), "CG-5"),
        ("PzKpfw IV F2", 3, (), "CG-5"),
    ]


def test_nothing_joins_before_9_july_am_has_ended(sap_campaign, people):
    from refit.reserve import services as reserve

    walk_to(sap_campaign, people, 4)
    assert reserve.join_left_off_map(sap_campaign, 4, by=people["referee"]) is None
    assert not ArmorReserveVehicle.objects.filter(campaign=sap_campaign, origin="cg5").exists()


# --- the page (five personas) ----------------------------------------------------------------


def url(campaign, side, name="arrivals_place"):
    return reverse(f"refit:{name}", args=[campaign.pk, side])


@pytest.fixture
def at_cg5(sap_campaign, people):
    walk_to(sap_campaign, people, 4)
    return sap_campaign


@pytest.mark.parametrize("persona", ["soviet", "referee"])
def test_the_russian_and_the_referee_place_from_the_page(at_cg5, client_as, persona):
    client = client_as(persona)
    html = client.get(url(at_cg5, "russian", "arrivals")).content.decode()
    assert "Put them into the Retained box" in html
    response = client.post(url(at_cg5, "russian"))
    assert response.status_code == 302
    assert lines(at_cg5, "russian", OrbatBox.ARRIVING) == []
    html = client.get(url(at_cg5, "russian", "arrivals")).content.decode()
    assert "12 units are in the Retained box." in html
    assert "They are in the Retained box." in html


def test_the_german_page_says_cg5_2_instead(at_cg5, client_as):
    html = client_as("german").get(url(at_cg5, "german", "arrivals")).content.decode()
    assert "join the German Armor Reserve" in html
    assert "Put them into the Retained box" not in html


@pytest.mark.parametrize("persona", ["german", "observer", "outsider"])
def test_nobody_else_places_the_russian_arrivals(at_cg5, client_as, persona):
    assert client_as(persona).post(url(at_cg5, "russian")).status_code == 404
    assert OrbatEntry.objects.filter(campaign=at_cg5, side="russian", box="arriving").count() == 2


def test_the_export_of_designations_and_placement_imports(sap_campaign, people):
    """An event's data never holds None: CG-3 has no south-edge number."""
    from campaigns.access import viewer_for
    from campaigns.transfer import services as transfer

    walk_to(sap_campaign, people, 2)
    designate(sap_campaign, people, 2, {"T-34 M43": 10})
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    data = transfer.build_export(viewer_for(people["referee"], sap_campaign.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    assert lines(copy_, "russian", OrbatBox.RETAINED) == lines(
        sap_campaign, "russian", OrbatBox.RETAINED
    )
    assert CampaignEvent.objects.filter(campaign=copy_, action=arrivals.PLACED).exists()
