"""SaP's German Armor Reserve: the pool, its changes, its page (five personas) and the export
(refit.reserve; CG7.21, CG-5.2, 11.6132; issue 16)."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent, OrbatBox, OrbatEntry
from campaigns.oid import oid
from campaigns.state import StateError
from campaigns.transfer import services as transfer
from refit.models import ArmorReserveVehicle
from refit.reserve import services as reserve
from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def versions(vehicles):
    return {v.pk: v.version for v in vehicles}


def of_type(campaign, name, n, state="reserve"):
    return list(
        ArmorReserveVehicle.objects.filter(campaign=campaign, vehicle_type=name, state=state)[:n]
    )


def in_reserve(campaign):
    return ArmorReserveVehicle.objects.filter(campaign=campaign, state="reserve").count()


def test_a_new_sap_campaign_has_the_48_afvs(sap_campaign):
    rows = ArmorReserveVehicle.objects.filter(campaign=sap_campaign)
    assert rows.count() == 48
    assert rows.filter(vehicle_type="StuG III G").count() == 21
    assert rows.filter(vehicle_type="Marder III(t) H").count() == 6
    assert sorted(rows.values_list("serial", flat=True)) == list(range(1, 49))


def test_red_factories_has_no_reserve(campaign):
    assert not ArmorReserveVehicle.objects.filter(campaign=campaign).exists()


def test_entering_play_shrinks_the_reserve_and_fills_the_ob(sap_campaign, people):
    chosen = of_type(sap_campaign, "StuG III G", 2)
    reserve.enter_play(sap_campaign, versions(chosen), by=people["german"])
    assert in_reserve(sap_campaign) == 46
    # Straight into the Retained box, where 11.621 (set-up, entry per CG7/7.1) finds them.
    lines = OrbatEntry.objects.filter(campaign=sap_campaign, side="german", box=OrbatBox.RETAINED)
    assert not OrbatEntry.objects.filter(campaign=sap_campaign, box=OrbatBox.ARRIVING).exists()
    assert sorted(lines.values_list("unit_type", "origin_rg", "status_note")) == [
        ("StuG III G", f"CG7.21 #{chosen[0].serial}", "CG-1"),
        ("StuG III G", f"CG7.21 #{chosen[1].serial}", "CG-1"),
    ]
    event = CampaignEvent.objects.get(campaign=sap_campaign, action="reserve.entered")
    assert event.visibility == "german"
    history.undo(event, by=people["german"])
    assert in_reserve(sap_campaign) == 48
    assert not lines.exists()


def test_cg1_refuses_a_21st_stug_stuh_marder(sap_campaign, people):
    chosen = of_type(sap_campaign, "StuG III G", 21)
    with pytest.raises(StateError, match="At most 20"):
        reserve.enter_play(sap_campaign, versions(chosen), by=people["german"])
    assert in_reserve(sap_campaign) == 48


def test_a_stale_page_is_refused(sap_campaign, people):
    chosen = of_type(sap_campaign, "StuH 42", 1)
    stale = {chosen[0].pk: chosen[0].version + 1}
    with pytest.raises(StateError):
        reserve.enter_play(sap_campaign, stale, by=people["german"])


def test_back_into_the_reserve_under_repair_and_11_6132_repairs_malfunctions(sap_campaign, people):
    chosen = of_type(sap_campaign, "StuG III G", 2)
    reserve.enter_play(sap_campaign, versions(chosen), by=people["german"])
    first, second = (ArmorReserveVehicle.objects.get(pk=v.pk) for v in chosen)
    reserve.to_reserve(sap_campaign, versions([first]), repair="immobilized", by=people["german"])
    reserve.to_reserve(
        sap_campaign, versions([second]), repair="malfunctioned", by=people["german"]
    )
    assert in_reserve(sap_campaign) == 48
    from_reserve = OrbatEntry.objects.filter(campaign=sap_campaign, origin_rg__startswith="CG7.21")
    assert not from_reserve.exists()
    # An immobile AFV does not enter play while under repair.
    first.refresh_from_db()
    with pytest.raises(StateError, match="not mobile"):
        reserve.enter_play(sap_campaign, versions([first]), by=people["german"])
    # The next RePh opens: 11.6132 repairs the malfunctioned weapon, not the immobilization.
    walk_to(sap_campaign, people, 1)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.repair, second.repair) == ("immobilized", "")
    assert CampaignEvent.objects.filter(campaign=sap_campaign, action="reserve.repaired").exists()


def test_cg5_afvs_left_off_map_join_the_reserve(sap_campaign, people):
    walk_to(sap_campaign, people, 4)
    line = OrbatEntry.objects.get(
        campaign=sap_campaign, side="german", box=OrbatBox.ARRIVING, unit_type="PzKpfw IV F1"
    )
    made = reserve.join_from_cg5(
        sap_campaign, line, version=line.version, quantity=2, by=people["german"]
    )
    assert [(v.serial, v.vehicle_type, v.origin) for v in made] == [
        (49, "PzKpfw IV F1", "cg5"),
        (50, "PzKpfw IV F1", "cg5"),
    ]
    line.refresh_from_db()
    assert line.quantity == 1
    stug = OrbatEntry.objects.create(
        campaign=sap_campaign,
        side="german",
        box="retained",
        unit_type="StuG III G",
        kind="vehicle_or_gun",
        quantity=1,
    )
    with pytest.raises(StateError, match="CG-5.2"):
        reserve.join_from_cg5(sap_campaign, stug, version=0, quantity=1, by=people["german"])


# --- the page --------------------------------------------------------------------------------


def url(campaign, name="page"):
    return reverse(f"reserve:{name}", args=[campaign.pk])


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_german_and_the_referee_see_the_reserve(sap_campaign, client_as, persona):
    response = client_as(persona).get(url(sap_campaign))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-reserve-total="48"' in html
    assert "StuG III G" in html


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_nobody_else_sees_it(sap_campaign, client_as, persona):
    assert client_as(persona).get(url(sap_campaign)).status_code == 404
    assert client_as(persona).post(url(sap_campaign, "enter"), {}).status_code == 404


def test_red_factories_has_no_reserve_page(campaign, client_as):
    assert client_as("referee").get(url(campaign)).status_code == 404


def test_entering_play_through_the_page_with_and_without_htmx(sap_campaign, client_as):
    client = client_as("german")
    one, two = of_type(sap_campaign, "StuPz IV", 2)
    response = client.post(
        url(sap_campaign, "enter"), {"vehicles": [f"{oid(one.pk)}:{one.version}"]}
    )
    assert response.status_code == 302
    response = client.post(
        url(sap_campaign, "enter"), {"vehicles": [f"{oid(two.pk)}:{two.version}"]}, headers=HTMX
    )
    assert response.status_code == 200
    assert 'data-reserve-total="46"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_the_page_reads_in_japanese(sap_campaign, client_as):
    html = client_as("german").get(url(sap_campaign), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ドイツ装甲予備" in html


def test_the_page_costs_the_same_with_more_vehicles(
    sap_campaign, client_as, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(40) as small:
        client.get(url(sap_campaign))
    ArmorReserveVehicle.objects.bulk_create(
        ArmorReserveVehicle(
            campaign=sap_campaign, serial=100 + n, vehicle_type="PzKpfw IV F1", origin="cg5"
        )
        for n in range(60)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url(sap_campaign))


# --- the export --------------------------------------------------------------------------------


def test_the_reserve_round_trips_and_only_in_files_with_german_secrets(sap_campaign, people):
    chosen = of_type(sap_campaign, "StuG III G", 3)
    reserve.enter_play(sap_campaign, versions(chosen), by=people["german"])
    data = transfer.build_export(viewer_for(people["referee"], sap_campaign.pk))
    assert len(data["armor_reserve"]) == 48
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )

    def shape(campaign):
        return sorted(
            ArmorReserveVehicle.objects.filter(campaign=campaign).values_list(
                "serial", "vehicle_type", "state", "repair", "entered_index", "origin"
            )
        )

    assert shape(copy_) == shape(sap_campaign)
    russian = transfer.build_export(viewer_for(people["soviet"], sap_campaign.pk))
    assert russian.get("armor_reserve") is None
    observer = transfer.build_export(viewer_for(people["observer"], sap_campaign.pk))
    assert observer.get("armor_reserve") is None
    german = transfer.build_export(viewer_for(people["german"], sap_campaign.pk))
    assert len(german["armor_reserve"]) == 48
    # A file of the Russian side's scope that smuggles reserve rows in is refused.
    russian["armor_reserve"] = data["armor_reserve"]
    with pytest.raises(transfer.ImportRefused):
        transfer.parse_export(transfer.dumps(russian).encode())


def test_cg5_afvs_join_through_the_page(sap_campaign, people, client_as):
    walk_to(sap_campaign, people, 4)
    client = client_as("german")
    html = client.get(url(sap_campaign)).content.decode()
    assert 'data-line="PzKpfw III L"' in html
    line = OrbatEntry.objects.get(campaign=sap_campaign, side="german", unit_type="PzKpfw III L")
    response = client.post(
        url(sap_campaign, "join"),
        {"entry": oid(line.pk), "version": line.version, "quantity": 3},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert 'data-reserve-total="51"' in response.content.decode()
    assert not OrbatEntry.objects.filter(pk=line.pk).exists()
    for persona in ("soviet", "observer", "outsider"):
        assert client_as(persona).post(url(sap_campaign, "join"), {}).status_code == 404


def test_the_initial_german_ob_has_no_text_line_for_the_reserve(sap_campaign):
    # The reserve's AFVs enter the OB from the reserve page; "20 × AFV from the German Armor
    # Reserve" is no longer a line of its own (issue 16).
    lines = OrbatEntry.objects.filter(campaign=sap_campaign, side="german")
    assert not [line for line in lines if "Armor Reserve" in line.unit_type]
