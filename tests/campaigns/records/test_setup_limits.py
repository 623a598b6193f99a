"""RF CG I's own limits at set-up (11.58 CG6, CG8, CG9, CG17): on the scenarios page, in the
reader's language, from the data; CG9 beside a Soviet AFV RG bought for RB on the RG Purchase
Record. Other campaign games show none."""

import pytest
from django.urls import reverse

from campaigns.models import ReinforcementGroup
from refit.purchases.records import rg_purchase_record
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db

SNIPERS = (
    "Each side places 4 sniper counters per scenario, 2 on each map group, each at least 15 "
    "hexes from the others; the acting sniper is chosen at random (11.58 CG8)."
)


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


def url(campaign):
    return reverse("campaigns:scenarios", args=[campaign.pk])


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_every_member_reads_the_set_up_limits(rf, client_as, persona, status):
    response = client_as(persona).get(url(rf))
    assert response.status_code == status
    if status == 200:
        page = " ".join(response.content.decode().split())
        assert SNIPERS in page
        assert "At most 4 OBA modules per side per scenario (11.58 CG6)." in page
        assert "Up to 4 self-rally attempts per side (11.58 CG17)." in page
        assert "may not enter from a south-edge ground hex (11.58 CG9)" in page


def test_a_japanese_reader_reads_them_in_japanese(rf, client_as, people):
    people["soviet"].language = "ja"
    people["soviet"].save()
    page = client_as("soviet").get(url(rf)).content.decode()
    assert "狙撃兵カウンター" in page
    assert "sniper counters" not in page


def test_rb_cg_i_has_none(campaign, client_as):
    page = client_as("german").get(url(campaign)).content.decode()
    assert 'id="setup-limits"' not in page


def test_a_soviet_afv_rg_bought_for_rb_carries_cg9_on_the_record(rf):
    for group in ("RB", "RO"):
        ReinforcementGroup.objects.create(
            campaign=rf,
            side="soviet",
            rg_id="A1",
            number=1 if group == "RB" else 2,
            index=1,
            source=ReinforcementGroup.Source.PURCHASED,
            details={"map_group": group},
        )
    others = {row.other for row in rg_purchase_record(rf, "soviet") if row.other.startswith("R")}
    assert "RB; not from a south-edge ground hex (11.58 CG9)" in others
    assert "RO" in others
