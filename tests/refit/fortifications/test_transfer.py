"""Fortification purchases in the export file: the side's secret, round-tripped losslessly."""

import copy
import json

import pytest

from campaigns.access import viewer_for
from campaigns.models import FortificationPurchase
from campaigns.transfer import services as transfer
from refit.fortifications import services as fortifications
from refit.rules.fortification import FortificationOrder as Order

pytestmark = pytest.mark.django_db


def bought(**filters):
    """The purchases, without the initial OB's Fortified Building Locations (given, not bought)."""
    return FortificationPurchase.objects.filter(**filters).exclude(details__has_key="initial")


@pytest.fixture
def fortified(campaign, people, reph):
    buy = fortifications.buy
    wire = buy(campaign, "soviet", 0, Order("wire", 2), people["soviet"])
    fortifications.set_location(campaign, wire, wire.version, "H41, J40", people["soviet"])
    buy(campaign, "soviet", 0, Order("foxhole", 1, size=2), people["soviet"])
    buy(campaign, "soviet", 0, Order("foxhole", 1, size=2), people["soviet"])  # same day, FPP
    return campaign


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def test_the_soviet_and_the_referee_export_them_the_german_and_observer_do_not(fortified, people):
    # 3 purchases and the initial OB's 5 Fortified Building Locations (RB CG I).
    for persona, count in (("soviet", 4), ("referee", 4), ("german", 0), ("observer", 0)):
        data = export_as(fortified, people[persona])
        assert len(data["fortifications"]) == count, persona
        assert ("H41, J40" in json.dumps(data)) is (count > 0), persona


def test_round_trip_links_each_purchase_to_its_debit(fortified, people):
    first = export_as(fortified, people["referee"])
    parsed = transfer.parse_export(transfer.dumps(first).encode())
    imported = transfer.load(parsed, user=people["outsider"])
    second = export_as(imported, people["outsider"])
    assert second["fortifications"] == first["fortifications"]
    rows = bought(campaign=imported)
    assert rows.count() == 3
    assert all(row.ledger_entry.amount == -row.fpp for row in rows)
    assert len({row.ledger_entry_id for row in rows}) == 3
    assert fortifications.side_fpp(imported, "soviet", 0).left == 50 - 30 - 4


def refused(data):
    with pytest.raises(transfer.ImportRefused) as error:
        transfer.parse_export(transfer.dumps(data).encode())
    return str(error.value)


def test_a_purchase_without_its_debit_is_refused(fortified, people):
    data = export_as(fortified, people["referee"])
    crafted = copy.deepcopy(data)
    paid = next(row for row in crafted["fortifications"] if row["fpp"])
    crafted["fortifications"].append(dict(paid))
    assert "no matching fortification purchase in the FPP ledger" in refused(crafted)
    crafted = copy.deepcopy(data)
    crafted["fortifications"][0]["quantity"] = 0
    assert "fortifications, entry 1" in refused(crafted)


def test_a_side_file_cannot_smuggle_the_other_sides_fortifications(fortified, people):
    soviet_rows = export_as(fortified, people["referee"])["fortifications"]
    data = export_as(fortified, people["german"])
    assert data["scope"] == "side:german"
    data["fortifications"] = soviet_rows
    assert "is secret" in refused(data)
