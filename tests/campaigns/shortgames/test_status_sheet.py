"""The short games' status sheet: its rows, the PDF in both languages, who may print it."""

import shutil
import subprocess

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from rosters.builders import build_sheet
from rosters.pdf import render_pdf
from tests.rosters.test_pdf import pages_of, plain_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_units(dr_started, people):
    short_games.add_units(
        dr_started,
        by=people["soviet"],
        units=[
            UnitData(
                side="soviet",
                name="16th Army",
                unit_type="infantry_army",
                nationality="soviet",
                full="3-3",
                reduced="1-3",
                setup="K",
                hex="2507",
                state="reduced",
                out_of_supply=True,
            ),
            UnitData(
                side="soviet",
                name="Zhukov",
                unit_type="leader",
                nationality="soviet",
                steps=1,
                arrival_turn=4,
                state="awaiting",
            ),
        ],
    )
    short_games.set_control(
        dr_started, by=people["german"], key="minsk", controller="axis", cut_off=False, version=0
    )
    return dr_started


def test_the_sheet_lists_units_reinforcements_and_places(with_units, people):
    sheet = build_sheet(viewer_for(people["observer"], with_units.pk), "soviet", "status", "en")
    units, reinforcements, places, _record = sheet.tables
    (army,) = units.rows
    assert army.cells[0] == "16th Army"
    assert "Reduced" in army.cells[5] and army.cells[6] == "2507"
    assert "out of supply" in army.cells[8]
    assert [row.cells[:2] for row in reinforcements.rows] == [("4", "Zhukov")]
    minsk = next(row for row in places.rows if row.cells[0] == "Minsk")
    assert minsk.cells[2] == "Axis"
    assert dict((f.label, f.value) for f in sheet.facts)["Weather"] == "not known yet"


def test_the_pdf_in_japanese_and_english(with_units, people, tmp_path):
    viewer = viewer_for(people["german"], with_units.pk)
    english = render_pdf(build_sheet(viewer, "soviet", "status", "en"))
    japanese = render_pdf(build_sheet(viewer, "soviet", "status", "ja"))
    assert "16th Army" in plain_text(english)
    assert "2507" in plain_text(japanese)
    assert "Minsk" in plain_text(english) and "ミンスク" in plain_text(japanese)
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    path = tmp_path / "status.pdf"
    path.write_bytes(japanese)
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(path), str(tmp_path / "p")], check=True)
    images = sorted(tmp_path.glob("p-*.png"))
    assert len(images) == pages_of(japanese) >= 1
    assert all(image.stat().st_size > 500 for image in images)


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_prints_it(with_units, client_as, persona):
    url = reverse("rosters:pdf", args=[with_units.pk, "soviet", "status"])
    response = client_as(persona).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"


def test_an_outsider_gets_404_and_the_cpp_sheets_do_not_exist(with_units, client_as):
    url = reverse("rosters:pdf", args=[with_units.pk, "soviet", "status"])
    assert client_as("outsider").get(url).status_code == 404
    roster = reverse("rosters:pdf", args=[with_units.pk, "soviet", "roster"])
    assert client_as("soviet").get(roster).status_code == 404


def test_the_campaign_games_have_no_status_sheet(campaign, client_as):
    url = reverse("rosters:pdf", args=[campaign.pk, "german", "status"])
    assert client_as("german").get(url).status_code == 404


def test_the_sheets_page_offers_it(with_units, client_as):
    html = client_as("observer").get(reverse("rosters:index", args=[with_units.pk])).content
    assert reverse("rosters:pdf", args=[with_units.pk, "soviet", "status"]) in html.decode()


def test_cp_sheet_shows_the_pocket_and_vp(cp_started, people):
    sheet = build_sheet(viewer_for(people["soviet"], cp_started.pk), "german", "status", "en")
    facts = dict((f.label, f.value) for f in sheet.facts)
    assert facts["Pocket"] == "not closed"
    assert facts["Soviet VP"] == "0"


@pytest.mark.parametrize(
    ("language", "nationality", "type_", "place"),
    [("en", "Soviet", "Infantry army", "Korsun airfield"), ("ja", "ソ連", None, "コルスン飛行場")],
)
def test_keys_render_as_names_on_the_sheet(
    with_units, cp_started, people, language, nationality, type_, place
):
    sheet = build_sheet(viewer_for(people["observer"], with_units.pk), "soviet", "status", language)
    (army,) = sheet.tables[0].rows
    assert army.cells[2] != "soviet" and nationality in army.cells[2]
    assert army.cells[1] != "infantry_army" and (type_ is None or army.cells[1] == type_)
    cp_sheet = build_sheet(
        viewer_for(people["observer"], cp_started.pk), "german", "status", language
    )
    places = cp_sheet.tables[2]
    assert [row.cells[:2] for row in places.rows] == [(place, "3809")]
