"""SaP CG9's armor-leader rolls before the CG: one action per side, results on the reserve's AFVs
and with the arriving platoons (refit.reserve.leaders; issue 16)."""

import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, OrbatBox, OrbatEntry
from campaigns.state import StateError
from refit.models import ArmorReserveVehicle
from refit.reserve import leaders
from tests.campaigns.dice.test_services import Loaded
from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db


def test_the_german_rolls_19_platoons_and_the_reserve_afvs_get_their_leaders(sap_campaign, people):
    # DR 5 − 2 − 1 = 2 → 10-2 for a StuG/StuH platoon; 5 − 1 = 4 → 9-1 for the others.
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        made = leaders.roll_all(sap_campaign, "german", by=people["german"])
    assert len(made) == 19
    assert {(r["type"], r["leader"]) for r in made} >= {
        ("StuG III G", "10-2"),
        ("PzJg Tiger", "9-1"),
        ("PzKpfw III L", "9-1"),
    }
    stugs = list(
        ArmorReserveVehicle.objects.filter(campaign=sap_campaign, vehicle_type="StuG III G")
        .order_by("serial")
        .values_list("armor_leader", flat=True)
    )
    assert stugs[0] == "10-2" and stugs[1] == "" and stugs[3] == "10-2"
    assert stugs.count("10-2") == 7
    rolls = DiceRoll.objects.filter(campaign=sap_campaign, step="CG9")
    assert rolls.count() == 19 and set(rolls.values_list("visibility", flat=True)) == {"german"}
    # A second press rolls nothing.
    leaders.roll_all(sap_campaign, "german", by=people["german"])
    assert rolls.count() == 19


def test_the_russian_leaders_come_with_the_stavka_platoons(sap_campaign, people):
    with dice.use_roller(Loaded(*([2, 2] * 27))):  # DR 4 → 9-1
        made = leaders.roll_all(sap_campaign, "russian", by=people["soviet"])
    assert len(made) == 27  # CG-3 10 + 5, CG-4 5 + 1 + 4, CG-5 dug-in 2 (DR 4 + 1 → 8-1)
    assert {r["leader"] for r in made if r["source"] == "CG-5"} == {"8-1"}
    walk_to(sap_campaign, people, 2)
    arriving = OrbatEntry.objects.filter(
        campaign=sap_campaign, side="russian", box=OrbatBox.ARRIVING, kind="leader"
    )
    assert sorted(arriving.values_list("unit_type", flat=True)) == ["9-1 armor leader"] * 15


def test_only_before_the_cg(sap_campaign, people):
    walk_to(sap_campaign, people, 1)
    with pytest.raises(StateError, match="before the CG"):
        leaders.roll_all(sap_campaign, "german", by=people["german"])


def test_undo_takes_the_leaders_off(sap_campaign, people):
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    event = CampaignEvent.objects.get(campaign=sap_campaign, action="armor_leaders.rolled")
    assert event.visibility == "german"
    history.undo(event, by=people["german"])
    assert leaders.results(sap_campaign, "german") == []
    assert (
        not ArmorReserveVehicle.objects.filter(campaign=sap_campaign)
        .exclude(armor_leader="")
        .exists()
    )


def url(campaign, side, name="arrivals"):
    return reverse(f"refit:{name}", args=[campaign.pk, side])


@pytest.mark.parametrize(("persona", "side"), [("german", "german"), ("soviet", "russian")])
def test_each_side_rolls_from_its_page(sap_campaign, client_as, persona, side):
    client = client_as(persona)
    html = client.get(url(sap_campaign, side)).content.decode()
    assert "Roll every armor leader" in html
    response = client.post(url(sap_campaign, side, "armor_leaders"))
    assert response.status_code == 302
    html = client.get(url(sap_campaign, side)).content.decode()
    assert "data-platoon=" in html
    # The section is the page's, once; the tab's title is words only.
    assert html.count('id="armor-leaders"') == 1
    title = html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title


@pytest.mark.parametrize(
    ("persona", "side"),
    [("soviet", "german"), ("german", "russian"), ("observer", "german"), ("outsider", "russian")],
)
def test_nobody_else_rolls_or_sees(sap_campaign, client_as, persona, side):
    assert client_as(persona).post(url(sap_campaign, side, "armor_leaders")).status_code == 404
    assert client_as(persona).get(url(sap_campaign, side)).status_code == 404
    assert not DiceRoll.objects.filter(campaign=sap_campaign, step="CG9").exists()


def test_the_referee_sees_both_results(sap_campaign, people, client_as):
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    html = client_as("referee").get(url(sap_campaign, "german")).content.decode()
    assert 'data-platoon="reserve-StuG III G-1"' in html


def test_a_reserve_afv_enters_play_with_its_armor_leader(sap_campaign, people):
    from refit.reserve import services as reserve

    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    first = ArmorReserveVehicle.objects.get(campaign=sap_campaign, serial=1)
    assert first.armor_leader == "10-2"
    reserve.enter_play(sap_campaign, {first.pk: first.version}, by=people["german"])
    lines = OrbatEntry.objects.filter(campaign=sap_campaign, origin_rg="CG7.21 #1")
    assert sorted(lines.values_list("unit_type", flat=True)) == ["10-2 armor leader", "StuG III G"]
    first.refresh_from_db()
    reserve.to_reserve(sap_campaign, {first.pk: first.version}, repair="", by=people["german"])
    assert not lines.exists()


def test_stavka_leaders_leave_with_their_afvs(sap_campaign, people):
    with dice.use_roller(Loaded(*([2, 2] * 27))):
        leaders.roll_all(sap_campaign, "russian", by=people["soviet"])
    walk_to(sap_campaign, people, 3)
    left = OrbatEntry.objects.filter(campaign=sap_campaign, side="russian", kind="leader")
    # CG-3's 15 leaders left with the CG-3 Stavka AFVs; CG-4's 10 arrived with theirs.
    assert left.count() == 10 and all(line.statuses == ["stavka"] for line in left)


def test_the_leaders_round_trip_in_the_export(sap_campaign, people):
    from campaigns.access import viewer_for
    from campaigns.transfer import services as transfer

    with dice.use_roller(Loaded(*([2, 3] * 19))):
        made = leaders.roll_all(sap_campaign, "german", by=people["german"])
    data = transfer.build_export(viewer_for(people["german"], sap_campaign.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    assert leaders.results(copy_, "german") == made
    assert ArmorReserveVehicle.objects.get(campaign=copy_, serial=1).armor_leader == "10-2"
    russian = transfer.build_export(viewer_for(people["soviet"], sap_campaign.pk))
    assert all(row["side"] == "russian" for row in russian["side_days"])


def test_the_arrivals_page_numbers_a_reserve_leader_by_the_reserves_serial(
    sap_campaign, people, client_as
):
    # StuG III G platoon 3 is the type's AFVs 7-9 in serial order; its leader rides in the
    # first of them, the AFV the Armor Reserve page shows as "#N StuG III G".
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        made = leaders.roll_all(sap_campaign, "german", by=people["german"])
    stugs = ArmorReserveVehicle.objects.filter(
        campaign=sap_campaign, vehicle_type="StuG III G"
    ).order_by("serial")
    carrier = stugs[6]
    assert carrier.armor_leader == "10-2"
    assert any(r["type"] == "StuG III G" and r["n"] == 3 for r in made)
    html = client_as("german").get(url(sap_campaign, "german")).content.decode()
    assert f"#{carrier.serial} StuG III G</td>" in html
    assert "StuG III G #3" not in html
    page = reverse("reserve:page", args=[sap_campaign.pk])
    reserve = client_as("german").get(page).content.decode()
    assert f"#{carrier.serial}" in reserve
    event = CampaignEvent.objects.get(campaign=sap_campaign, action="armor_leaders.rolled")
    assert f"#{carrier.serial} StuG III G: 10-2" in event.data["units"]


def test_armor_leaders_and_aamg_lines_read_in_japanese(sap_campaign, people, client_as):
    with dice.use_roller(Loaded(*([2, 2] * 27))):  # DR 4 → 9-1
        leaders.roll_all(sap_campaign, "russian", by=people["soviet"])
    walk_to(sap_campaign, people, 2)
    client = client_as("soviet")
    ja = {"Accept-Language": "ja"}
    orbat = client.get(reverse("campaigns:orbat", args=[sap_campaign.pk, "russian"]), headers=ja)
    html = orbat.content.decode()
    assert "9-1 戦車指揮官" in html and "armor leader" not in html
    history_page = client.get(reverse("campaigns:history", args=[sap_campaign.pk]), headers=ja)
    html = history_page.content.decode()
    assert "9-1 戦車指揮官" in html and "armor leader" not in html


# --- the pre-CG Refit Phase's overview offers the rolls (outside_steps, issue 16) ------------


@pytest.mark.parametrize(
    "persona, sides",
    [
        ("german", ["german"]),
        ("soviet", ["russian"]),
        ("referee", ["german", "russian"]),
        ("observer", []),
    ],
)
def test_the_pre_cg_overview_offers_the_rolls_to_whom_they_belong(
    sap_campaign, people, client_as, persona, sides
):
    page = reverse("refit:overview", args=[sap_campaign.pk])
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    response = client_as(persona).get(page)
    assert response.status_code == 200
    html = response.content.decode()
    shown = re.findall(r'id="before-cg-(\w+)"', html)
    assert shown == sides
    if "german" in sides:
        assert "Armor leaders before the CG" in html
        assert "rolled for the 19 AFV platoons." in html
        assert reverse("refit:arrivals", args=[sap_campaign.pk, "german"]) in html
    if "russian" in sides:
        assert "not yet rolled (27 AFV platoons)." in html
        assert reverse("refit:arrivals", args=[sap_campaign.pk, "russian"]) in html


def test_an_outsider_does_not_open_the_overview(sap_campaign, client_as):
    page = reverse("refit:overview", args=[sap_campaign.pk])
    assert client_as("outsider").get(page).status_code == 404


def test_after_the_pre_cg_refit_phase_the_overview_no_longer_offers_them(
    sap_campaign, people, client_as
):
    walk_to(sap_campaign, people, 1)
    page = reverse("refit:overview", args=[sap_campaign.pk])
    assert "before-cg" not in client_as("referee").get(page).content.decode()


def test_the_pre_cg_overview_line_reads_in_japanese(sap_campaign, client_as):
    page = reverse("refit:overview", args=[sap_campaign.pk])
    html = client_as("soviet").get(page, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    line = re.search(r'<p class="before-cg".*?</p>', html, re.S).group(0)
    assert "CG 開始前" in line and "CG を始める前の戦車指揮官" in line
    assert "まだ振っていない（AFV 小隊 27 個）。" in line
    assert "増援のページで振る" in line
