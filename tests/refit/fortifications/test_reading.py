"""The fortification page reads its side in SQL sums (issue 18): the Total # boxes, the FPP per
day, the booby-trap level and the day's own purchases come out of ``read_side`` the same as the
same rule functions fed every row of the record, on random records."""

from types import SimpleNamespace

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from campaigns.models import FortificationPurchase, LedgerEntry
from campaigns.roster.ledger import Movement, fpp_days
from refit.fortifications import services as fortifications
from refit.rules import fortification as rules

pytestmark = pytest.mark.django_db

DAYS = 4  # of RB CG I's, where the random purchases fall

order = st.fixed_dictionaries(
    {},
    optional={
        "factors": st.sampled_from([1, 2, 6, "6"]),
        "unit": st.sampled_from(["squad", "hs", "crew", "smc", "afv", ""]),
        "belt": st.sampled_from(["ap_6", "at_2"]),
        "size": st.sampled_from([1, 2, 3]),
        "connected": st.booleans(),
    },
)
details = st.fixed_dictionaries(
    {},
    optional={
        "order": order,
        "lost": st.sampled_from([True, False, None]),
        "initial": st.just(True),
    },
)
purchase = st.fixed_dictionaries(
    {
        "side": st.sampled_from(["soviet", "german"]),
        "index": st.integers(0, DAYS - 1),
        "item": st.sampled_from(
            ["booby-trap", "booby-trap", "ap-minefield", "at-minefield", "hip", "foxhole", "wire"]
        ),
        "details": details,
        "quantity": st.sampled_from([1, 1, 2, 3]),
        "fpp": st.integers(0, 20),
        "under_construction": st.booleans(),
        "location": st.sampled_from(["", "", "K5"]),
    }
)
movement = st.tuples(
    st.integers(0, DAYS - 1),
    st.sampled_from(["fortification_purchase", "adjustment", "fpp_received", "fpp_lost"]),
    st.integers(-20, 20),
)


def every_row_read(campaign, side, index):
    """The whole-record path: every purchase and ledger row as a model, into the same rules."""
    rows = list(FortificationPurchase.objects.filter(campaign=campaign, side=side))
    ledger = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=LedgerEntry.FPP)
    pending = [
        rules.Pending(p.item, p.quantity, p.details.get("order") or {})
        for p in rows
        if not p.location and not p.details.get("lost")
    ]
    bought = [
        (p.index, p.under_construction, p.quantity)
        for p in rows
        if p.item in fortifications.BOOBY_TRAP_ITEMS and not p.details.get("lost")
    ]
    today = [p for p in rows if p.index == index]
    return {
        "totals": rules.record_totals(pending),
        "days": fpp_days(
            len(campaign.cg.periods), [Movement(r.index, r.kind, r.amount, r.rg) for r in ledger]
        ),
        "level": rules.booby_trap_level([(i + uc, n) for i, uc, n in bought if i < index], index),
        "in_force": rules.booby_trap_level(
            [(i + uc, n) for i, uc, n in bought if i <= index], index
        ),
        "minefields": sum(p.fpp for p in today if p.item in fortifications.MINEFIELDS),
        "booby_traps": sum(p.quantity for p in today if p.item in fortifications.BOOBY_TRAP_ITEMS),
    }


def summed_read(campaign, side, index, reph):
    reading = fortifications.read_side(campaign, side)
    day = SimpleNamespace(index=index, kind=reph.kind)  # the RePh of day ``index``
    moment = fortifications.moment(campaign, side, day, reading)
    return {
        "totals": rules.record_totals(reading.pending),
        "days": fpp_days(len(campaign.cg.periods), [Movement(*r) for r in reading.fpp_rows]),
        "level": fortifications.booby_trap_level(campaign, side, index, reading),
        "in_force": fortifications.booby_trap_level_in_force(campaign, side, index, reading),
        "minefields": moment.minefield_fpp_today,
        "booby_traps": moment.booby_traps_today,
    }


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    purchases=st.lists(purchase, max_size=25),
    movements=st.lists(movement, max_size=25),
    side=st.sampled_from(["soviet", "german"]),
    index=st.integers(0, DAYS - 1),
)
@example(  # a lost booby trap never raises the level, nor waits to be set up
    purchases=[
        {"side": "soviet", "index": 0, "item": "booby-trap", "details": {"lost": True}}
        | {"quantity": 1, "fpp": 40, "under_construction": True, "location": ""}
    ],
    movements=[],
    side="soviet",
    index=2,
)
def test_the_sums_in_sql_judge_as_every_row_does(
    campaign, people, reph, purchases, movements, side, index
):
    savepoint = transaction.savepoint()
    try:
        FortificationPurchase.objects.bulk_create(
            FortificationPurchase(campaign=campaign, **fields) for fields in purchases
        )
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                campaign=campaign,
                side=side,
                ledger=LedgerEntry.FPP,
                index=index,
                kind=kind,
                amount=amount,
            )
            for index, kind, amount in movements
        )
        assert summed_read(campaign, side, index, reph) == every_row_read(campaign, side, index)
        # The locked reading (a purchase's) reads the ledger rows themselves: the same days.
        with transaction.atomic():
            locked = fortifications.read_side(campaign, side, lock=True)
        assert locked.fpp(index) == fortifications.read_side(campaign, side).fpp(index)
    finally:
        transaction.savepoint_rollback(savepoint)


def test_a_long_record_is_read_in_the_same_queries(
    campaign, people, reph, django_assert_num_queries
):
    def read():
        reading = fortifications.read_side(campaign, "soviet")
        fortifications.moment(campaign, "soviet", reph, reading)
        fortifications.booby_trap_level_in_force(campaign, "soviet", 0, reading)

    with django_assert_num_queries(5):  # ledger, Total #, booby traps; the day's minefields; drops
        read()
    FortificationPurchase.objects.bulk_create(
        FortificationPurchase(
            campaign=campaign,
            side="soviet",
            index=n % 3,
            item=("booby-trap", "wire", "ap-minefield")[n % 3],
            details={"order": {"factors": 6}} if n % 3 == 2 else {},
            fpp=3,
        )
        for n in range(90)
    )
    with django_assert_num_queries(5):
        read()
