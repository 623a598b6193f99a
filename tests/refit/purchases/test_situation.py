"""The purchase page is one situation from its service: the side's ledger is read once per
request, and the page's queries do not grow with the ledger."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.models import LedgerEntry, ReinforcementGroup
from refit.purchases import services as purchases
from refit.purchases.situation import purchase_situation
from refit.rules.purchase_costs import Options
from tests.refit.ledger_reads import ledger_reads, more_ledger_rows, totals_reads

pytestmark = pytest.mark.django_db


def page_url(campaign, side="german"):
    return reverse("purchases:page", args=[campaign.pk, side])


def test_the_situation_holds_what_the_page_shows(campaign, people, reph):
    situation = purchase_situation(viewer_for(people["german"], campaign.pk), "german")
    initial = campaign.game.files["campaign_games"]["campaign_games"]["rb-cg-1"]["initial_ob"]
    assert situation.cpp.left == initial["german"]["cpp"]
    assert (situation.rule, situation.in_reph, situation.can_buy) == ("11.619", True, True)
    a3 = next(row for row in situation.chart if row.offer.rg_id == "A3")
    assert [r.code for r in a3.offer.reasons] == ["cg_max_zero"]
    assert a3.reasons == ["This CG allows none (CG Max 0). (11.6196)"]
    assert not a3.show_form
    assert [row.rg.label for row in situation.rgs] == [
        rg.label for rg in ReinforcementGroup.objects.filter(campaign=campaign, side="german")
    ]


def test_the_referee_sees_the_german_situation_but_may_not_buy_for_an_observer(
    campaign, people, reph
):
    observer = purchase_situation(viewer_for(people["observer"], campaign.pk), "german")
    assert not observer.can_buy and all(not row.show_form for row in observer.chart)
    referee = purchase_situation(viewer_for(people["referee"], campaign.pk), "german")
    assert referee.can_buy


def test_the_page_reads_the_ledgers_totals_once_and_not_the_ledger(campaign, client_as, reph):
    client = client_as("german")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(page_url(campaign)).status_code == 200
    assert len(ledger_reads(queries)) == 0
    assert len(totals_reads(queries)) == 1


def test_a_purchase_reads_the_ledger_once(campaign, client_as, people, reph):
    with CaptureQueriesContext(connection) as queries:
        purchases.buy(campaign, "german", reph.index, "A6", Options(), people["german"])
    assert len(ledger_reads(queries)) == 1
    assert len(totals_reads(queries)) == 0  # the guards read the rows themselves
    # Through the page: the purchase reads it (locked), the page shown after its totals once.
    url = reverse("purchases:buy", args=[campaign.pk, "german"])
    data = {"reph": reph.pk, "token": "t-2", "rg": "A6"}
    with CaptureQueriesContext(connection) as queries:
        response = client_as("german").post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert len(ledger_reads(queries)) == 1
    assert len(totals_reads(queries)) == 1
    assert LedgerEntry.objects.filter(campaign=campaign, kind="rg_purchase").count() == 2


def test_the_page_queries_do_not_grow_with_the_ledger(
    campaign, client_as, people, reph, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(30) as small:
        before = client.get(page_url(campaign)).context["cpp"]
    more_ledger_rows(campaign, "german", "cpp", 300, people)
    purchases.buy(campaign, "german", reph.index, "A6", Options(), people["german"])
    with django_assert_max_num_queries(len(small.captured_queries)):
        after = client.get(page_url(campaign)).context["cpp"]
    assert after.left == before.left - 5
