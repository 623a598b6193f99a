"""Buying and taking back RGs (refit.purchases.services): atomic, limited, idempotent, logged."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from campaigns.games.rules import Reason
from campaigns.history import services as history
from campaigns.models import CampaignEvent, LedgerEntry, ReinforcementGroup, SideDay
from campaigns.roster.services import add_ledger_entry
from refit.fortifications import services as fortifications
from refit.purchases import reading
from refit.purchases import services as purchases
from refit.purchases.services import PurchaseError
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase_costs import ON_MAP, Options
from refit.walker import services as walker
from tests.refit.builders import mark_past
from tests.refit.ledger_reads import ledger_reads

pytestmark = pytest.mark.django_db


def cpp_left(campaign, side="german"):
    return reading.side_cpp(campaign, side, 0).left


def give_cpp(campaign, people, side, amount):
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side=side,
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=amount,
        note="test",
    )


def test_a_purchase_makes_the_rg_its_debit_and_a_secret_event(campaign, people, reph):
    before = cpp_left(campaign)
    rg = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    assert (rg.rg_id, rg.number, rg.source, rg.cpp_cost) == ("A6", 1, "purchased", 5)
    assert rg.details["map_group"] == "RB"
    assert cpp_left(campaign) == before - 5
    entry = LedgerEntry.objects.get(campaign=campaign, kind="rg_purchase")
    assert (entry.amount, entry.rg, entry.side) == (-5, "A6", "german")
    event = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    assert event.visibility == "german"
    assert "bought A6#1 for 5 CPP" in history.describe(event)


def test_a_second_purchase_of_the_same_rg_gets_the_next_number(campaign, people, reph):
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    second = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    assert second.number == 2


def test_the_same_form_posted_twice_buys_once(campaign, people, reph):
    first = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"], token="t1")
    again = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"], token="t1")
    assert first.pk == again.pk
    assert ReinforcementGroup.objects.filter(campaign=campaign, source="purchased").count() == 1
    assert LedgerEntry.objects.filter(campaign=campaign, kind="rg_purchase").count() == 1


def test_a_limit_is_refused_with_its_rule(campaign, people, reph):
    # A2 in RB CG I: CG Max 1.
    purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    assert "11.6196" in str(refused.value)
    assert [r.code for r in refused.value.reasons] == ["cg_max", "day_max"]


def test_the_initial_ssr_forbids_the_german_on_map_option(campaign, people, reph):
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(campaign, "german", 0, "A6", Options(placement=ON_MAP), people["german"])
    assert "SSR I.2" in str(refused.value)


def test_the_referee_buys_past_a_limit_with_a_reason(campaign, people, reph):
    purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    rg = purchases.buy(
        campaign, "german", 0, "A2", Options(), people["referee"], override_reason="Errata"
    )
    assert rg.details["override"]["reason"] == "Errata"
    event = CampaignEvent.objects.filter(action="rg.purchased").latest("id")
    assert event.data["override"] == "Errata"
    assert "past a limit: Errata" in history.describe(event)


def test_a_player_cannot_override(campaign, people, reph):
    purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    with pytest.raises(PurchaseError):
        purchases.buy(campaign, "german", 0, "A2", Options(), people["german"], override_reason="x")


def test_nobody_spends_cpp_the_side_does_not_have(campaign, people, reph):
    left = cpp_left(campaign)
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=5 - left,
        note="test",
    )
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])  # exactly 5
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(
            campaign, "german", 0, "M1", Options(), people["referee"], override_reason="please"
        )
    assert [r.code for r in refused.value.reasons] == ["cpp"]


def test_a_fortification_rg_brings_its_fpp(campaign, people, reph):
    purchases.buy(campaign, "soviet", 0, "M1", Options(), people["soviet"])
    fpp = LedgerEntry.objects.get(campaign=campaign, side="soviet", kind="fortification_rg")
    assert fpp.amount == 40


def test_taking_back_reverses_everything(campaign, people, reph):
    before = cpp_left(campaign, "soviet")
    rg = purchases.buy(campaign, "soviet", 0, "M1", Options(), people["soviet"])
    purchases.remove(campaign, rg, people["soviet"])
    assert not ReinforcementGroup.objects.filter(pk=rg.pk).exists()
    assert not LedgerEntry.objects.filter(
        campaign=campaign, kind__in=["rg_purchase", "fortification_rg"]
    ).exists()
    assert cpp_left(campaign, "soviet") == before
    event = CampaignEvent.objects.get(action="rg.purchase_removed")
    assert event.visibility == "soviet"
    # and the removal itself can be undone
    history.undo(event, by=people["soviet"])
    assert ReinforcementGroup.objects.filter(pk=rg.pk).exists()
    assert cpp_left(campaign, "soviet") == before - 1


def test_taking_back_reads_the_ledger_once_and_keeps_an_rg_whose_fpp_are_spent(
    campaign, people, reph
):
    rg = purchases.buy(campaign, "soviet", 0, "M1", Options(), people["soviet"])  # 50 + 40 FPP
    fortifications.buy(
        campaign, "soviet", 0, FortificationOrder("tunnel", quantity=2), people["soviet"]
    )  # 60 FPP: 30 left, fewer than the RG's 40
    refused = pytest.raises(PurchaseError, match="already spent on fortifications")
    with CaptureQueriesContext(connection) as queries, refused:
        purchases.remove(campaign, rg, people["soviet"])
    assert len(ledger_reads(queries)) == 1  # both ledgers, locked in one read
    assert ReinforcementGroup.objects.filter(pk=rg.pk).exists()
    other = purchases.buy(campaign, "soviet", 0, "A1", Options(), people["soviet"])
    with CaptureQueriesContext(connection) as queries:
        purchases.remove(campaign, other, people["soviet"])
    assert len(ledger_reads(queries)) == 1
    assert not ReinforcementGroup.objects.filter(pk=other.pk).exists()


def test_no_change_once_the_step_is_marked_done(campaign, people, reph):
    rg = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    mark_past(campaign, reph, "german", "11.619", people)
    with pytest.raises(PurchaseError):
        purchases.remove(campaign, rg, people["german"])
    with pytest.raises(PurchaseError):
        purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    # the other side is not held up
    purchases.buy(campaign, "soviet", 0, "A1", Options(), people["soviet"])


def test_initial_ob_rgs_cannot_be_taken_back(campaign, people, reph):
    given = ReinforcementGroup.objects.filter(campaign=campaign, source="initial").first()
    with pytest.raises(PurchaseError):
        purchases.remove(campaign, given, people["referee"])


def test_a_stale_day_buys_nothing(campaign, people, reph):
    with pytest.raises(PurchaseError):
        purchases.buy(campaign, "german", 1, "A6", Options(), people["german"])


def test_company_purchases_wait_for_the_historical_drm(campaign, people, reph):
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(campaign, "german", 0, "I1", Options(), people["german"])
    assert [r.code for r in refused.value.reasons] == ["hist_drm_unknown"]


def test_company_cap_with_a_known_historical_drm(campaign, people, reph, known_hist_drm):
    give_cpp(campaign, people, "soviet", 30)
    purchases.buy(campaign, "soviet", 0, "I3", Options(), people["soviet"])
    purchases.buy(campaign, "soviet", 0, "I4", Options(), people["soviet"])
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(campaign, "soviet", 0, "I1", Options(), people["soviet"])
    assert "company_cap" in [r.code for r in refused.value.reasons]


def test_sap_purchase(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    rg = purchases.buy(sap_campaign, "russian", reph.index, "M1", Options(), people["soviet"])
    assert rg.cpp_cost == 1
    fpp = LedgerEntry.objects.get(campaign=sap_campaign, kind="fortification_rg")
    assert fpp.amount == 30
    with pytest.raises(PurchaseError) as refused:
        purchases.buy(sap_campaign, "russian", reph.index, "I3", Options(), people["soviet"])
    assert [r.code for r in refused.value.reasons] == ["period_ban"]


def test_a_sniper_rg_raises_the_days_san_and_taking_it_back_lowers_it(campaign, people, reph):
    day = SideDay.objects.get(campaign=campaign, side="soviet", index=0)
    san = day.san
    assert san is not None
    rg = purchases.buy(campaign, "soviet", 0, "M2", Options(), people["soviet"])
    day.refresh_from_db()
    assert day.san == san + 1
    purchases.remove(campaign, rg, people["soviet"])
    day.refresh_from_db()
    assert day.san == san
    # undoing the purchase event puts the SAN back too
    rg = purchases.buy(campaign, "soviet", 0, "M2", Options(), people["soviet"])
    event = CampaignEvent.objects.filter(action="rg.purchased").latest("pk")
    history.undo(event, by=people["soviet"])
    day.refresh_from_db()
    assert day.san == san


# --- refusals in words ---------------------------------------------------------------------


@pytest.mark.parametrize(("hist_drm", "printed"), [(1, "+1"), (0, "0"), (-2, "\N{MINUS SIGN}2")])
def test_the_company_cap_names_the_historical_drm_as_printed(campaign, hist_drm, printed):
    reason = Reason("company_cap", "11.6195", {"max": 1, "bought": 1, "hist_drm": hist_drm})
    with translation.override("en"):
        assert purchases.reason_text(campaign, reason) == (
            f"Infantry-company cap reached: 1 of 1 today (2 − Historical DRM {printed}). (11.6195)"
        )
    with translation.override("ja"):
        assert purchases.reason_text(campaign, reason) == (
            f"歩兵中隊の上限に達しています:本日1中1(2 − 史的DRM {printed})。 (11.6195)"
        )


def test_an_option_refusal_names_the_option_in_words(campaign):
    reason = Reason("option_not_allowed", "11.6194", {"option": ON_MAP})
    with translation.override("en"):
        assert purchases.reason_text(campaign, reason) == (
            "This RG cannot be bought with the on-map set-up option. (11.6194)"
        )
