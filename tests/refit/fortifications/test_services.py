"""Buying fortifications with FPP (refit.fortifications.services): atomic, limited, idempotent,
secret."""

import pytest
from django.utils import translation

from campaigns.games.rules import Reason
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, FortificationPurchase, LedgerEntry
from campaigns.roster.services import add_ledger_entry
from refit.fortifications import services as fortifications
from refit.fortifications.services import FortificationError
from refit.rules.fortification import FortificationOrder as Order
from refit.walker import services as walker
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db


def bought(**filters):
    """The purchases, without the initial OB's Fortified Building Locations (given, not bought)."""
    return FortificationPurchase.objects.filter(**filters).exclude(details__has_key="initial")


def fpp_left(campaign, side="soviet", index=0):
    return fortifications.side_fpp(campaign, side, index).left


def give_fpp(campaign, people, side, amount, index=0):
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side=side,
        ledger="fpp",
        index=index,
        kind="adjustment",
        amount=amount,
        note="test",
    )


def codes(refused):
    return [reason.code for reason in refused.value.reasons]


def test_the_soviet_initial_fpp_buy_foxholes_with_a_debit_and_a_secret_event(
    campaign, people, reph
):
    assert fpp_left(campaign) == 50  # RB CG I initial OB
    purchase = fortifications.buy(
        campaign, "soviet", 0, Order("foxhole", quantity=3, size=3), people["soviet"]
    )
    assert (purchase.item, purchase.quantity, purchase.fpp, purchase.detail) == (
        "foxhole",
        3,
        9,
        "3S",
    )
    assert purchase.ledger_entry.amount == -9
    assert purchase.ledger_entry.kind == "fortification_purchase"
    assert fpp_left(campaign) == 41
    event = CampaignEvent.objects.get(campaign=campaign, action="fortification.purchased")
    assert event.visibility == "soviet"
    assert "bought 3 × Foxhole (3S) for 9 FPP" in history.describe(event)


def test_the_same_form_posted_twice_buys_once(campaign, people, reph):
    order = Order("wire")
    first = fortifications.buy(campaign, "soviet", 0, order, people["soviet"], token="t1")
    again = fortifications.buy(campaign, "soviet", 0, order, people["soviet"], token="t1")
    assert first.pk == again.pk
    assert bought(campaign=campaign).count() == 1
    assert fpp_left(campaign) == 35


def test_nobody_spends_fpp_the_side_does_not_have(campaign, people, reph):
    pillbox = Order("pillbox", capacity=3, ca_drm=4, nca_drm=3)  # (3+4+3) × 3 = 30
    fortifications.buy(campaign, "soviet", 0, pillbox, people["soviet"])
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "soviet", 0, pillbox, people["soviet"])
    assert codes(refused) == ["fpp"]
    assert "costs 30 FPP but only 20 are left" in str(refused.value)
    with pytest.raises(FortificationError):
        fortifications.buy(
            campaign, "soviet", 0, pillbox, people["referee"], override_reason="because"
        )
    # exactly what is left is fine
    fortifications.buy(campaign, "soviet", 0, Order("foxhole", 20, size=1), people["soviet"])
    assert fpp_left(campaign) == 0


def test_the_initial_ssr_lets_the_german_buy_only_concealment(campaign, people, reph):
    give_fpp(campaign, people, "german", 20)
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "german", 0, Order("wire"), people["german"])
    assert codes(refused) == ["only_concealment"]
    assert "(SSR I.2)" in str(refused.value)
    fortifications.buy(campaign, "german", 0, Order("concealment", 4), people["german"])
    assert fpp_left(campaign, "german") == 16


def test_soviet_only_items_and_variants(campaign, people, reph):
    give_fpp(campaign, people, "german", 40)
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "german", 0, Order("at-ditch"), people["german"])
    assert "soviet_only" in codes(refused)
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "soviet", 0, Order("foxhole"), people["soviet"])
    assert "choose_variant" in codes(refused)
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "soviet", 0, Order("set-dc"), people["soviet"])
    assert codes(refused) == ["detonating_unit"]
    dc = fortifications.buy(
        campaign, "soviet", 0, Order("set-dc", detonating_unit="4-4-7 A"), people["soviet"]
    )
    assert (dc.fpp, dc.detail) == (15, "DC: 4-4-7 A")


def test_minefields_stop_at_90_fpp_a_day_unless_the_referee_says_why(campaign, people, reph):
    give_fpp(campaign, people, "soviet", 100)  # 150 in all
    fortifications.buy(campaign, "soviet", 0, Order("ap-minefield", factors=20), people["soviet"])
    with pytest.raises(FortificationError) as refused:  # 60 + 3 × 3 = 69 … fine; 60 + 33 not
        fortifications.buy(
            campaign, "soviet", 0, Order("ap-minefield", factors=11), people["soviet"]
        )
    assert codes(refused) == ["minefield_cap"]
    fortifications.buy(campaign, "soviet", 0, Order("ap-minefield", factors=10), people["soviet"])
    with pytest.raises(FortificationError):  # a player cannot override
        fortifications.buy(
            campaign,
            "soviet",
            0,
            Order("at-minefield", factors=1),
            people["soviet"],
            override_reason="please",
        )
    over = fortifications.buy(
        campaign,
        "soviet",
        0,
        Order("at-minefield", factors=1),
        people["referee"],
        override_reason="agreed at the table",
    )
    assert over.details["override"]["reason"] == "agreed at the table"
    event = CampaignEvent.objects.filter(action="fortification.purchased").latest("pk")
    assert "past a limit: agreed at the table" in history.describe(event)


def test_booby_trap_level_rises_to_a_and_drops_with_the_11_6123_roll(campaign, people, reph):
    give_fpp(campaign, people, "soviet", 100)  # 150
    assert fortifications.booby_trap_level(campaign, "soviet", 0) == "C"
    fortifications.buy(campaign, "soviet", 0, Order("booby-trap"), people["soviet"])
    with pytest.raises(FortificationError) as refused:
        fortifications.buy(campaign, "soviet", 0, Order("booby-trap", 2), people["soviet"])
    assert codes(refused) == ["booby_trap_max"]
    fortifications.buy(campaign, "soviet", 0, Order("booby-trap"), people["soviet"])
    assert fortifications.booby_trap_level(campaign, "soviet", 1) == "A"
    DiceRoll.objects.create(
        campaign=campaign,
        index=1,
        side="soviet",
        step="11.6123",
        table_id="rf.booby-trap-reduction",
        kind="dr",
        faces=[6],
        original=6,
        final=6,
        result={"level_change": -1},
        visibility="public",
    )
    assert fortifications.booby_trap_level(campaign, "soviet", 1) == "B"
    assert fortifications.booby_trap_level(campaign, "soviet", 0) == "C"
    DiceRoll.objects.create(  # a roll another side made on that table changes nothing
        campaign=campaign,
        index=1,
        side="german",
        step="11.6123",
        table_id="rf.booby-trap-reduction",
        kind="dr",
        faces=[6],
        original=6,
        final=6,
        result={"level_change": -1},
        visibility="german",
    )
    assert fortifications.booby_trap_level(campaign, "soviet", 1) == "B"


def test_taking_back_returns_the_fpp_until_the_step_is_marked(campaign, people, reph):
    purchase = fortifications.buy(campaign, "soviet", 0, Order("trench"), people["soviet"])
    fortifications.remove(campaign, purchase, people["soviet"])
    assert fpp_left(campaign) == 50
    assert not LedgerEntry.objects.filter(kind="fortification_purchase").exists()
    event = CampaignEvent.objects.get(action="fortification.removed")
    assert (event.visibility, "took back 1 × Trench" in history.describe(event)) == (
        "soviet",
        True,
    )
    again = fortifications.buy(campaign, "soviet", 0, Order("trench"), people["soviet"])
    for rule in ("11.619", "11.620", "11.621"):
        mark_past(campaign, reph, "soviet", rule, people)
    with pytest.raises(FortificationError):
        fortifications.remove(campaign, again, people["soviet"])
    with pytest.raises(FortificationError):
        fortifications.buy(campaign, "soviet", 0, Order("trench"), people["soviet"])


def test_a_stale_day_buys_nothing(campaign, people, reph):
    with pytest.raises(FortificationError):
        fortifications.buy(campaign, "soviet", 1, Order("trench"), people["soviet"])


def test_the_set_up_location_is_written_later_versioned_and_secret(campaign, people, reph):
    purchase = fortifications.buy(campaign, "soviet", 0, Order("wire", 2), people["soviet"])
    fortifications.set_location(campaign, purchase, purchase.version, "H41, J40", people["soviet"])
    purchase.refresh_from_db()
    assert purchase.location == "H41, J40"
    with pytest.raises(FortificationError):  # a page left open with the old version
        fortifications.set_location(campaign, purchase, 0, "K1", people["soviet"])
    event = CampaignEvent.objects.get(action="fortification.located")
    assert event.visibility == "soviet"
    assert event.data["undo"]  # it can be undone like every change
    with pytest.raises(FortificationError):  # only Under Construction items are ever lost
        fortifications.set_location(
            campaign, purchase, purchase.version, "", people["soviet"], lost=True
        )


def test_sap_11_6191_under_construction(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    give_fpp(sap_campaign, people, "russian", 30, index=reph.index)
    buy = fortifications.buy
    trench = Order("trench", under_construction=True, hexes="P12")
    with pytest.raises(FortificationError) as refused:
        buy(sap_campaign, "russian", reph.index, trench, people["soviet"])
    assert codes(refused) == ["hexes_unconfirmed"]
    with pytest.raises(FortificationError) as refused:
        buy(
            sap_campaign,
            "russian",
            reph.index,
            Order("trench", under_construction=True),
            people["soviet"],
            hexes_confirmed=True,
        )
    assert codes(refused) == ["hexes_needed"]
    first = buy(sap_campaign, "russian", reph.index, trench, people["soviet"], hexes_confirmed=True)
    assert (first.fpp, first.under_construction, first.hexes) == (4, True, "P12")  # 7 × ½ FRU
    with pytest.raises(FortificationError) as refused:  # German: never Under Construction
        buy(
            sap_campaign,
            "german",
            reph.index,
            Order("wire", under_construction=True, hexes="A1"),
            people["german"],
            hexes_confirmed=True,
        )
    assert "no_under_construction" in codes(refused)
    fortifications.set_location(sap_campaign, first, first.version, "", people["soviet"], lost=True)
    first.refresh_from_db()
    assert first.details["lost"] is True
    event = CampaignEvent.objects.get(action="fortification.located")
    assert "a hex no longer qualified" in history.describe(event)


def test_a_refusal_reads_as_a_sentence_naming_its_rule():
    reason = Reason("fpp", "11.6191", {"cost": 12, "left": 5})
    with translation.override("en"):
        assert fortifications.reason_text(reason) == (
            "That costs 12 FPP but only 5 are left. (11.6191)"
        )


def test_the_fpp_debit_names_the_item_in_words_not_its_key(sap_campaign, people):
    reph = walker.open_reph(sap_campaign)
    give_fpp(sap_campaign, people, "russian", 40, index=reph.index)
    order = Order("hidden_mine_belt", belt="ap_6")
    with translation.override("en"):
        purchase = fortifications.buy(sap_campaign, "russian", reph.index, order, people["soviet"])
    assert purchase.ledger_entry.note == "1 × Hidden Mine Belt (SSR CG17)"
    assert "hidden_mine_belt" not in purchase.ledger_entry.note


def test_the_history_sentence_words_the_variant_in_the_readers_language(campaign, people, reph):
    fortifications.buy(campaign, "soviet", 0, Order("hip", 2, unit="crew"), people["soviet"])
    event = CampaignEvent.objects.get(campaign=campaign, action="fortification.purchased")
    with translation.override("en"):
        assert "bought 2 × HIP (crew) for 2 FPP" in history.describe(event)
    with translation.override("ja"):
        assert "2 × HIP (操作班)" in history.describe(event)
