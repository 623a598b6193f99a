"""Random sequences of buying, crediting, taking back and undoing never break the books: after
every step, whatever was refused, no side's CPP or FPP of any day are below zero, every
purchased RG has its CPP debit and every debit its RG, and nothing refused left a trace."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.history import services as history
from campaigns.models import CampaignEvent, LedgerEntry, ReinforcementGroup
from campaigns.roster.ledger import Movement, shortfalls
from campaigns.roster.services import add_ledger_entry
from campaigns.state import StateError
from refit.fortifications import services as fortifications
from refit.purchases import services as purchases
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase_costs import Options

pytestmark = pytest.mark.django_db

SIDES = ("german", "soviet")
# Cheap and dear RGs of both sides in RB CG I, one a fortification RG (M1: FPP).
RGS = {"german": ("A6", "I1", "A2"), "soviet": ("A1", "M1", "I2")}

operation = st.one_of(
    st.tuples(st.just("buy"), st.sampled_from(SIDES), st.integers(0, 2)),
    st.tuples(st.just("credit"), st.sampled_from(SIDES), st.integers(1, 12)),
    st.tuples(st.just("spend"), st.sampled_from(SIDES), st.integers(1, 15)),
    st.tuples(st.just("fortify"), st.sampled_from(SIDES), st.integers(1, 3)),
    st.tuples(st.just("take_back"), st.sampled_from(SIDES), st.integers(0, 5)),
    st.tuples(st.just("undo"), st.sampled_from(("german", "soviet", "referee")), st.integers(0, 9)),
)


def apply(campaign, people, op):
    kind, who, n = op
    if kind == "buy":
        rg_id = RGS[who][n]
        purchases.buy(campaign, who, 0, rg_id, Options(), people[who])
    elif kind == "credit":
        add_ledger_entry(
            campaign,
            by=people["referee"],
            side=who,
            ledger="cpp",
            index=0,
            kind="adjustment",
            amount=n,
            note="a property test's credit",
        )
    elif kind == "spend":
        add_ledger_entry(
            campaign,
            by=people[who],
            side=who,
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-n,
            rg=RGS[who][0],
        )
    elif kind == "fortify":
        fortifications.buy(campaign, who, 0, FortificationOrder("tunnel", quantity=n), people[who])
    elif kind == "take_back":
        bought = list(
            ReinforcementGroup.objects.filter(
                campaign=campaign, side=who, source="purchased"
            ).order_by("pk")
        )
        if bought:
            purchases.remove(campaign, bought[n % len(bought)], people[who])
    else:
        events = list(
            CampaignEvent.objects.filter(
                campaign=campaign, undone_at__isnull=True, data__has_key="undo"
            ).order_by("-pk")[:10]
        )
        if events:
            history.undo(events[n % len(events)], by=people[who])


def assert_the_books_hold(campaign):
    days = len(campaign.cg.periods)
    for side in SIDES:
        for ledger in ("cpp", "fpp"):
            rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=ledger)
            movements = [Movement(r.index, r.kind, r.amount, r.rg) for r in rows]
            assert shortfalls(ledger, days, movements) == {}, (side, ledger)
    for rg in ReinforcementGroup.objects.filter(campaign=campaign, source="purchased"):
        debits = LedgerEntry.objects.filter(pk__in=rg.details.get("ledger_entries", []))
        assert -sum(e.amount for e in debits if e.ledger == "cpp") == rg.cpp_cost, rg.label


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, min_size=1, max_size=14))
def test_no_sequence_of_changes_and_undos_breaks_the_books(campaign, people, reph, operations):
    savepoint = transaction.savepoint()
    try:
        for op in operations:
            try:
                with transaction.atomic():
                    apply(campaign, people, op)
            except (StateError, history.UndoError):
                pass  # refused, and refused whole: the books below prove it
            assert_the_books_hold(campaign)
    finally:
        transaction.savepoint_rollback(savepoint)
