"""OB lines the app wrote from game data are shown in the reader's language; typed ones as typed."""

import pytest
from django.urls import reverse

from campaigns.models import OrbatEntry
from campaigns.orbat.names import ob_name

pytestmark = pytest.mark.django_db

SAP = ("slaughter_at_ponyri", "timetable-disrupted")


@pytest.mark.parametrize(
    ("unit_type", "game", "japanese"),
    [
        ("Fanatic Strongpoint (SSR CG16)", SAP, "戦意高揚前哨地点 (SSR CG16)"),
        # Written cut to the line's 60 characters by a new campaign.
        (
            "AFV from the German Armor Reserve (SSR CG7.21) [only StuPz I",
            SAP,
            "ドイツ装甲予備 (SSR CG7.21) からのAFV × 6以下 [特例: StugPz IV と PzJg Tiger しかない]",  # noqa: E501
        ),
        ("Fortified Building Location", ("red_factories", "rb-cg-1"), "要塞化された建物"),
        ("4-6-7", ("red_factories", "rb-cg-1"), "4-6-7"),
    ],
)
def test_a_line_the_app_wrote_is_named_in_the_readers_language(unit_type, game, japanese):
    assert ob_name(unit_type, *game, "ja") == japanese
    assert ob_name(unit_type, *game, "en").startswith(unit_type)  # English: the data's words


def test_the_japanese_ob_page_names_the_given_fortified_buildings(campaign, client_as):
    # RB CG I: the Soviet's initial OB gives 5 Fortified Building Locations.
    assert OrbatEntry.objects.filter(
        campaign=campaign, side="soviet", unit_type="Fortified Building Location"
    ).exists()
    page = client_as("soviet").get(
        reverse("campaigns:orbat", args=[campaign.pk, "soviet"]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    html = page.content.decode()
    assert "要塞化された建物" in html
    assert "Fortified Building Location</strong>" not in html


def test_the_apps_own_words_read_in_japanese():
    from campaigns.orbat.names import app_words, ob_name

    assert app_words("8-1 armor leader", "ja") == "8-1 戦車指揮官"
    assert app_words("+1 armor leader", "ja") == "+1 戦車指揮官"
    assert app_words("KV-1 M42 (with AAMG)", "ja") == "KV-1 M42 (AAMG 付き)"
    assert app_words("4 × KV-1 M42 (with AAMG)", "ja") == "4 × KV-1 M42 (AAMG 付き)"
    assert app_words("8-1 armor leader", "en") == "8-1 armor leader"
    assert app_words("9-1 leader", "ja") == "9-1 leader"  # typed by a player: as typed
    assert ob_name("8-1 armor leader", "slaughter_at_ponyri", "timetable-disrupted", "ja") == (
        "8-1 戦車指揮官"
    )
