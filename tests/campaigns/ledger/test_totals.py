"""The ledger's totals (``LedgerTotal``) equal the ledger's ``GROUP BY`` whatever writes it.

The database keeps them (triggers, campaigns migration 0043, SQLite and PostgreSQL): these
tests write the ledger every way the app and its tools do — a service and its undo, ``create``,
``bulk_create``, a queryset's ``update`` and ``delete``, an instance's ``delete``, an import, a
campaign's cascade delete — in random order, and compare the totals with the ledger summed here
in Python after each step. Run on PostgreSQL too (scripts/test-postgres.sh)."""

import contextlib
import importlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import event, given
from hypothesis import strategies as st

from campaigns.history import services as history
from campaigns.history.services import UndoError
from campaigns.models import Campaign, CampaignEvent, LedgerEntry, LedgerTotal
from campaigns.models.state import CPP_KINDS, FPP_KINDS
from campaigns.roster import services as roster
from campaigns.state import StateError
from tests.refit.ledger_reads import ledger_reads
from tests.triggers import (
    COPY_STEPS,
    WRITES,
    copy_through_a_file,
    delete_the_copy,
    equal_after_each,
    expected_triggers,
    nth,
    triggers_on,
)

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("campaigns.migrations.0043_totals_ledger_totals")
SIDES = ("german", "soviet")
DAYS = 4  # the first days of the CG: every one is in its calendar


KEY = ("campaign_id", "side", "index", "ledger", "kind", "map_group", "rg", "amount")


def summed_ledger() -> set[tuple]:
    """What the totals must be: the ledger grouped per key, here in Python (not SQL): how many
    rows, their Locations summed, how many have Locations, the first row's id."""
    sums: dict[tuple, list[int]] = {}
    for pk, locations, *key in LedgerEntry.objects.values_list("id", "locations", *KEY):
        total = sums.setdefault(tuple(key), [0, 0, 0, pk])
        total[0] += 1
        total[1] += locations or 0
        total[2] += locations is not None
        total[3] = min(total[3], pk)
    return {(*key, *total) for key, total in sums.items()}


def totals() -> set[tuple]:
    return set(LedgerTotal.objects.values_list(*KEY, "entries", "locations", "located", "first"))


def kinds_of(ledger: str) -> list[tuple[str, int]]:
    return sorted((CPP_KINDS if ledger == "cpp" else FPP_KINDS).items())


@st.composite
def movement(draw) -> dict:
    """A ledger row of the shape an export checks: a kind of its ledger, its sign."""
    ledger = draw(st.sampled_from(("cpp", "fpp")))
    kind, sign = draw(st.sampled_from(kinds_of(ledger)))
    size = draw(st.integers(1, 60))
    amount = size * sign if sign else draw(st.sampled_from((size, -size)))
    return {
        "side": draw(st.sampled_from(SIDES)),
        "ledger": ledger,
        "index": draw(st.integers(0, DAYS - 1)),
        "kind": kind,
        "amount": amount,
        "rg": draw(st.sampled_from(("I1", "A6"))) if kind == "rg_purchase" else "",
        "locations": draw(st.none() | st.integers(0, 3)) if kind == "recon" else None,
        "note": "by hand" if kind == "adjustment" else "",
    }


step = st.one_of(
    st.tuples(st.just("create"), movement()),
    st.tuples(st.just("bulk_create"), st.lists(movement(), min_size=1, max_size=6)),
    st.tuples(st.just("service"), movement()),
    st.tuples(st.just("undo"), st.integers(0, 5)),
    # A gain the service takes (an adjustment), then undone.
    st.tuples(
        st.just("service_undo"),
        movement().map(
            lambda m: {
                **m,
                "kind": "adjustment",
                "amount": abs(m["amount"]),
                "rg": "",
                "note": "+",
                "locations": None,
            }
        ),
    ),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("delete_day"), st.integers(0, DAYS - 1)),
    st.tuples(st.just("update"), st.tuples(st.integers(0, 30), movement())),
    *COPY_STEPS,
)


def play(campaign: Campaign, people: dict, action: str, value) -> None:
    referee = people["referee"]
    if action == "create":
        LedgerEntry.objects.create(campaign=campaign, **value)
    elif action == "bulk_create":
        LedgerEntry.objects.bulk_create(LedgerEntry(campaign=campaign, **row) for row in value)
    elif action == "service":
        # Refused (a day short of points, a second replenishment): nothing written.
        with contextlib.suppress(StateError):
            roster.add_ledger_entry(campaign, by=referee, **value)
            event("a service booked an entry")
    elif action == "service_undo":
        play(campaign, people, "service", value)
        play(campaign, people, "undo", -1)  # the newest booking
    elif action == "undo":
        changes = CampaignEvent.objects.filter(campaign=campaign, action="ledger.added")
        change = nth(changes.filter(undone_at=None), value)
        if change is not None:
            # Refused: a balance would go below zero, or nothing to undo.
            with contextlib.suppress(UndoError):
                history.undo(change, by=referee, reason="a test")
                event(f"undone: {change.action}")
    elif action == "delete":
        entry = nth(LedgerEntry.objects.all(), value)
        if entry is not None:
            entry.delete()
    elif action == "delete_day":
        LedgerEntry.objects.filter(campaign=campaign, index=value).delete()
    elif action == "update":
        entry = nth(LedgerEntry.objects.all(), value[0])
        if entry is not None:
            LedgerEntry.objects.filter(pk=entry.pk).update(**value[1])
    elif action == "import":
        copy_through_a_file(campaign, referee)
    elif action == "delete_copy":
        delete_the_copy(campaign)


@WRITES
@given(steps=st.lists(step, max_size=10))
def test_the_totals_equal_the_ledger_whatever_writes_it(campaign, people, steps):
    equal_after_each(totals, summed_ledger, steps, lambda a, v: play(campaign, people, a, v))


def test_a_key_whose_last_row_goes_has_no_total_left(campaign):
    row = {"side": "german", "ledger": "cpp", "index": 1, "kind": "recon", "amount": -2}
    first = LedgerEntry.objects.create(campaign=campaign, locations=3, **row)
    second = LedgerEntry.objects.create(campaign=campaign, **row)
    third = LedgerEntry.objects.create(campaign=campaign, locations=1, **row)
    total = LedgerTotal.objects.get(campaign=campaign, **row)
    assert (total.entries, total.locations, total.located, total.first) == (3, 4, 2, first.pk)
    first.delete()  # the first booked goes: the next is first
    total.refresh_from_db()
    assert (total.entries, total.locations, total.located, total.first) == (2, 1, 1, second.pk)
    third.delete()
    total.refresh_from_db()
    assert (total.entries, total.locations, total.located, total.first) == (1, 0, 0, second.pk)
    second.delete()
    assert not LedgerTotal.objects.filter(campaign=campaign, **row).exists()


@pytest.mark.parametrize("write", ["delete", "update"])
def test_one_statement_taking_every_row_of_a_key(campaign, write):
    """PostgreSQL fires row triggers once the statement is done: the first finds no row of its
    key left while the total still counts the others (a CI failure, found by the test above)."""
    row = {"side": "german", "ledger": "cpp", "index": 0, "kind": "adjustment", "amount": 1}
    kept = LedgerEntry.objects.create(campaign=campaign, **{**row, "index": 1})
    LedgerEntry.objects.bulk_create(LedgerEntry(campaign=campaign, **row) for _ in range(3))
    day = LedgerEntry.objects.filter(campaign=campaign, index=0)
    if write == "delete":
        day.delete()
    else:
        day.update(index=1)
    assert totals() == summed_ledger()
    assert not LedgerTotal.objects.filter(campaign=campaign, **row).exists()
    moved = LedgerTotal.objects.get(campaign=campaign, **{**row, "index": 1})
    assert (moved.entries, moved.first) == (1 if write == "delete" else 4, kept.pk)


def test_a_map_group_and_an_rg_are_keys_of_their_own(campaign):
    day = {"campaign": campaign, "side": "german", "ledger": "cpp", "index": 2}
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(kind="replenishment", amount=9, map_group="RB", **day),
            LedgerEntry(kind="replenishment", amount=9, map_group="RO", **day),
            LedgerEntry(kind="rg_purchase", amount=-5, rg="I1", **day),
            LedgerEntry(kind="rg_purchase", amount=-5, rg="A6", **day),
            LedgerEntry(kind="rg_purchase", amount=-5, rg="I1", **day),
        ]
    )
    assert totals() == summed_ledger()
    assert LedgerTotal.objects.filter(campaign=campaign, index=2).count() == 4
    assert LedgerTotal.objects.get(campaign=campaign, rg="I1").entries == 2


def test_a_campaigns_delete_takes_its_totals(campaign, people):
    roster.add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="initial",
        amount=20,
    )
    assert LedgerTotal.objects.filter(campaign=campaign).exists()
    campaign.delete()
    assert not LedgerTotal.objects.exists()


def test_the_migration_sums_the_rows_already_in_the_database(campaign):
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side=side,
            ledger="fpp",
            index=n % DAYS,
            kind="adjustment",
            amount=n - 7,
            note="old",
        )
        for n in range(15)
        for side in SIDES
    )
    expected = totals()
    assert expected == summed_ledger() and expected
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {LedgerTotal._meta.db_table}")  # as before the migration
        assert not totals()
        cursor.execute(MIGRATION.FILL)
    assert totals() == expected


def test_the_triggers_are_in_the_database():
    """A migration that rebuilds the ledger's table (SQLite does, to alter a column) drops its
    triggers: this fails until it puts them back (docs/decisions.md)."""
    expected = expected_triggers(tuple(MIGRATION.TRIGGERS), "ledger_total_truncate")
    assert triggers_on(LedgerEntry._meta.db_table) == expected


@pytest.mark.parametrize("page", ["campaigns:roster", "campaigns:ledger"])
def test_the_roster_and_the_ledger_page_sum_the_totals_not_the_ledger(campaign, client_as, page):
    """The day columns come from the totals; the ledger page still lists its window of rows
    (``LIMIT``), the roster none."""
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side="german",
            ledger="cpp",
            index=n % DAYS,
            kind="adjustment",
            amount=1 if n % 2 else -1,
            note="padding",
        )
        for n in range(300)
    )
    with CaptureQueriesContext(connection) as queries:
        response = client_as("german").get(reverse(page, args=[campaign.pk, "german"]))
    assert response.status_code == 200
    assert len(ledger_reads(queries, LedgerTotal)) == 1
    sums = [sql for sql in ledger_reads(queries) if "GROUP BY" in sql.upper()]
    assert not sums
    if page == "campaigns:roster":
        assert not ledger_reads(queries)
