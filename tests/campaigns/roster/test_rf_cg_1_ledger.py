"""RF CG I (11.58) on the ledger page and in the ledger service: a replenishment entered by
hand names its map group, each group once a day; the day's subtotal shows Repl with its parts."""

import pytest
from django.urls import reverse

from campaigns.models import LedgerEntry
from campaigns.roster import services as roster
from campaigns.state import StateError
from tests.campaigns.roster.test_ledger_page import entry
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


def url(campaign, side="german"):
    return reverse("campaigns:ledger", args=[campaign.pk, side])


def test_a_replenishment_by_hand_names_its_map_group_each_once(rf, client_as):
    client = client_as("german")
    refused = client.post(url(rf), entry("replenishment", 15, index=1), follow=True)
    assert "Choose the map group the DR was made for." in refused.content.decode()
    assert (
        client.post(url(rf), {**entry("replenishment", 15, index=1), "map_group": "RB"}).status_code
        == 302
    )
    again = client.post(
        url(rf), {**entry("replenishment", 14, index=1), "map_group": "RB"}, follow=True
    )
    assert "already on the ledger (11.58: one roll per map group)" in again.content.decode()
    client.post(url(rf), {**entry("replenishment", 13, index=1), "map_group": "RO"})
    assert sorted(
        LedgerEntry.objects.filter(kind="replenishment").values_list("map_group", "amount")
    ) == [("RB", 15), ("RO", 13)]


def test_only_a_replenishment_names_a_map_group(rf, client_as):
    response = client_as("german").post(
        url(rf), {**entry("recon", 1, index=1), "map_group": "RB"}, follow=True
    )
    assert "Only a CPP replenishment names a map group." in response.content.decode()
    assert not LedgerEntry.objects.filter(kind="recon").exists()


def test_the_service_refuses_what_the_form_would(rf, campaign, people):
    with pytest.raises(StateError, match="Name the map group"):
        roster.add_ledger_entry(
            rf,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=15,
        )
    with pytest.raises(StateError, match="Only a CPP replenishment of RF CG I"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=15,
            map_group="RB",
        )


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 404), ("referee", 200), ("observer", 404), ("outsider", 404)],
)
def test_the_subtotal_shows_each_map_groups_part_to_those_who_see_the_side(
    rf, people, client_as, persona, status
):
    rf.period_index = 1
    rf.save(update_fields=["period_index"])
    for group, amount in (("RB", 15), ("RO", 13)):
        roster.add_ledger_entry(
            rf,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=amount,
            map_group=group,
        )
    response = client_as(persona).get(url(rf))
    assert response.status_code == status
    if status == 200:
        assert "28 (RB 15 + RO 13)" in " ".join(response.content.decode().split())
