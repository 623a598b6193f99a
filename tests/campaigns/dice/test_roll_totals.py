"""The rolls' counts (``RollTotal``) equal the rolls' ``GROUP BY`` whatever writes them.

The database keeps them (triggers, ``campaigns.kept_counts``, SQLite and PostgreSQL): these
tests write the rolls every way the app and its tools do — the dice service, a void, ``create``,
``bulk_create``, a queryset's ``update`` and ``delete`` of several rolls at once, an import, a
campaign's cascade delete — in random order, and compare the counts with the rolls counted here
in Python after each step. Run on PostgreSQL too (scripts/test-postgres.sh)."""

import importlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import event, given
from hypothesis import strategies as st

from campaigns.dice import services as dice
from campaigns.models import Campaign, DiceRoll, RollTotal
from tests.triggers import (
    COPY_STEPS,
    WRITES,
    copy_through_a_file,
    counted_triggers,
    delete_the_copy,
    equal_after_each,
    nth,
    refill,
    triggers_on,
)

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("campaigns.migrations.0045_rolls_roll_totals")
KEY = ("campaign_id", "visibility", "side", "table_id", "kind", "original")


def counted_rolls() -> set[tuple]:
    """What the counts must be: the rolls not voided counted per key, here in Python."""
    counts: dict[tuple, int] = {}
    for voided_at, *key in DiceRoll.objects.values_list("voided_at", *KEY):
        if voided_at is None:
            counts[tuple(key)] = counts.get(tuple(key), 0) + 1
    return {(*key, n) for key, n in counts.items()}


def totals() -> set[tuple]:
    return set(RollTotal.objects.values_list(*KEY, "rolls"))


@st.composite
def a_roll(draw) -> dict:
    kind = draw(st.sampled_from(("dr", "DR")))
    faces = [draw(st.integers(1, 6)) for _ in range(1 if kind == "dr" else 2)]
    return {
        "index": draw(st.integers(0, 2)),
        "side": draw(st.sampled_from(("german", "soviet", ""))),
        "visibility": draw(st.sampled_from(("german", "soviet", "public"))),
        "table_id": draw(st.sampled_from(("", "rf.san-adjustment"))),
        "kind": kind,
        "faces": faces,
        "original": sum(faces),
        "final": sum(faces),
        "step": "11.616",
        **draw(st.sampled_from(({}, {"voided_at": timezone.now(), "void_reason": "a test"}))),
    }


step = st.one_of(
    st.tuples(st.just("create"), a_roll()),
    st.tuples(st.just("bulk_create"), st.lists(a_roll(), min_size=1, max_size=6)),
    st.tuples(st.just("service"), st.sampled_from(("dr", "DR"))),
    st.tuples(st.just("void"), st.integers(0, 30)),
    st.tuples(st.just("unvoid_day"), st.integers(0, 2)),
    st.tuples(st.just("reveal_day"), st.integers(0, 2)),  # several rolls to another key at once
    st.tuples(st.just("update"), st.tuples(st.integers(0, 30), a_roll())),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("delete_day"), st.integers(0, 2)),
    *COPY_STEPS,
)


def play(campaign: Campaign, people: dict, action: str, value) -> None:
    referee = people["referee"]
    rolls = DiceRoll.objects.filter(campaign=campaign)
    if action == "create":
        DiceRoll.objects.create(campaign=campaign, **value)
    elif action == "bulk_create":
        DiceRoll.objects.bulk_create(DiceRoll(campaign=campaign, **row) for row in value)
    elif action == "service":
        dice.roll(
            campaign, by=referee, kind=value, step="11.616", index=0, side="german",
            visibility="german",
        )  # fmt: skip
    elif action == "void":
        found = nth(rolls.filter(voided_at=None), value)
        if found is not None:
            dice.void(found, by=referee, reason="a test")
            event("voided")
    elif action == "unvoid_day":
        rolls.filter(index=value).update(voided_at=None, void_reason="")
    elif action == "reveal_day":
        rolls.filter(index=value).update(visibility="public")
    elif action == "update":
        found = nth(rolls, value[0])
        if found is not None:
            DiceRoll.objects.filter(pk=found.pk).update(**value[1])
    elif action == "delete":
        found = nth(rolls, value)
        if found is not None:
            found.delete()
    elif action == "delete_day":
        rolls.filter(index=value).delete()
    elif action == "import":
        copy_through_a_file(campaign, referee)
    elif action == "delete_copy":
        delete_the_copy(campaign)


@WRITES
@given(steps=st.lists(step, max_size=10))
def test_the_counts_equal_the_rolls_whatever_writes_them(campaign, people, steps):
    equal_after_each(totals, counted_rolls, steps, lambda a, v: play(campaign, people, a, v))


@pytest.mark.parametrize("write", ["delete", "reveal", "void"])
def test_one_statement_taking_every_roll_of_a_key(campaign, write):
    """PostgreSQL fires row triggers once the statement is done: the counts still go down one
    by one and the key's row goes with its last roll."""
    row = {"side": "german", "visibility": "german", "table_id": "", "kind": "dr", "original": 3}
    DiceRoll.objects.bulk_create(
        DiceRoll(campaign=campaign, index=1, step="x", faces=[3], final=3, **row) for _ in range(3)
    )
    assert RollTotal.objects.get(campaign=campaign, **row).rolls == 3
    day = DiceRoll.objects.filter(campaign=campaign, index=1)
    if write == "delete":
        day.delete()
    elif write == "reveal":
        day.update(visibility="public")
    else:
        day.update(voided_at=timezone.now(), void_reason="a test")
    assert totals() == counted_rolls()
    assert not RollTotal.objects.filter(campaign=campaign, **row).exists()
    revealed = RollTotal.objects.filter(campaign=campaign, **{**row, "visibility": "public"})
    assert revealed.exists() == (write == "reveal")


def test_a_save_that_changes_no_key_counts_nothing_again(campaign):
    found = DiceRoll.objects.create(
        campaign=campaign, index=0, step="x", kind="dr", faces=[2], original=2, final=2,
        visibility="public",
    )  # fmt: skip
    found.note = "a note"
    found.save()
    assert RollTotal.objects.get(campaign=campaign, visibility="public", original=2).rolls == 1


def test_the_migration_counts_the_rolls_already_in_the_database(campaign):
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign, index=0, step="x", kind="dr", faces=[1 + n % 6],
            original=1 + n % 6, final=1 + n % 6, visibility=("german", "public")[n % 2],
            voided_at=timezone.now() if n % 5 == 0 else None,
        )
        for n in range(20)
    )  # fmt: skip
    expected = totals()
    assert expected == counted_rolls() and expected
    refill(MIGRATION.ROLL_TOTALS)
    assert totals() == expected


def test_the_triggers_are_in_the_database():
    """A migration that rebuilds the rolls' table (SQLite does, to alter a column) drops its
    triggers: this fails until it puts them back (docs/decisions.md)."""
    assert triggers_on(DiceRoll._meta.db_table) == counted_triggers(MIGRATION.ROLL_TOTALS)


@pytest.mark.parametrize("page", ["campaigns:dice_log", "report:page"])
def test_the_statistics_read_the_counts_not_the_rolls(campaign, people, client_as, page):
    """The dice log's statistics and the report's dice luck count nothing roll by roll: the
    rolls themselves are read only for a page of the log."""
    for _ in range(30):
        dice.roll(
            campaign, by=people["referee"], kind="DR", step="11.616", index=0, side="german",
            visibility="german",
        )  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        response = client_as("german").get(reverse(page, args=[campaign.pk]))
    assert response.status_code == 200
    table = DiceRoll._meta.db_table
    grouped = [q["sql"] for q in queries if table in q["sql"] and "GROUP BY" in q["sql"].upper()]
    assert not grouped
    assert any(RollTotal._meta.db_table in q["sql"] for q in queries)
