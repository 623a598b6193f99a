"""The fortification page is one situation from its service: the side's FPP ledger is read once
per request (and once by each change), and the page's queries do not grow with the ledger or the
purchases."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.models import FortificationPurchase
from refit.fortifications import services as fortifications
from refit.fortifications.situation import fortification_situation
from refit.rules.fortification import FortificationOrder as Order
from tests.refit.ledger_reads import ledger_reads, more_ledger_rows, totals_reads

pytestmark = pytest.mark.django_db


def bought(**filters):
    """The purchases, without the initial OB's Fortified Building Locations (given, not bought)."""
    return FortificationPurchase.objects.filter(**filters).exclude(details__has_key="initial")


def page_url(campaign, side="soviet"):
    return reverse("fortifications:page", args=[campaign.pk, side])


def test_the_situation_holds_what_the_page_shows(campaign, people, reph):
    fortifications.buy(campaign, "soviet", 0, Order("wire"), people["soviet"])
    situation = fortification_situation(viewer_for(people["soviet"], campaign.pk), "soviet")
    assert (situation.fpp.available, situation.fpp.spent, situation.fpp.left) == (50, 15, 35)
    # The initial OB's 5 Fortified Building Locations (RB CG I) come first, then the purchase.
    assert [line.item for line in situation.record.lines] == ["fortified-building", "wire"]
    assert (situation.rule, situation.can_buy, situation.booby_trap_level) == ("11.621", True, "C")
    assert situation.has_booby_traps
    assert "at-ditch" in {row.item["id"] for row in situation.items}
    observer = fortification_situation(viewer_for(people["observer"], campaign.pk), "soviet")
    assert not observer.can_buy and not observer.can_edit and observer.items == ()


def test_the_page_reads_the_ledgers_totals_once_and_not_the_ledger(campaign, client_as, reph):
    with CaptureQueriesContext(connection) as queries:
        assert client_as("soviet").get(page_url(campaign)).status_code == 200
    assert len(ledger_reads(queries)) == 0
    assert len(totals_reads(queries)) == 1


def test_a_purchase_reads_the_ledger_once(campaign, people, reph):
    with CaptureQueriesContext(connection) as queries:
        fortifications.buy(campaign, "soviet", 0, Order("wire"), people["soviet"])
    assert len(ledger_reads(queries)) == 1
    assert len(totals_reads(queries)) == 0  # the guards read the rows themselves
    assert bought(campaign=campaign).count() == 1


def test_taking_back_reads_the_ledger_once(campaign, people, reph):
    purchase = fortifications.buy(campaign, "soviet", 0, Order("wire"), people["soviet"])
    with CaptureQueriesContext(connection) as queries:
        fortifications.remove(campaign, purchase, people["soviet"])
    assert len(ledger_reads(queries)) == 1
    assert fortifications.side_fpp(campaign, "soviet", 0).left == 50
    assert not bought(campaign=campaign).exists()


def test_the_page_queries_do_not_grow_with_the_ledger(
    campaign, client_as, people, reph, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(30) as small:
        before = client.get(page_url(campaign)).context["fpp"]
    more_ledger_rows(campaign, "soviet", "fpp", 300, people)
    FortificationPurchase.objects.bulk_create(
        FortificationPurchase(
            campaign=campaign, side="soviet", index=1, item="wire", quantity=1, fpp=0
        )
        for _ in range(40)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(page_url(campaign))
    assert response.context["fpp"] == before
    assert len(response.context["record"].lines) == 40 + 1  # and the initial OB's buildings
