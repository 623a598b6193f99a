"""campaigns/compiled.py: querysets compiled once (``CompiledQuery``: model objects; ``Reader``:
tuples; ``Tables``: several tables from one query) — each must read what the ORM reads, each
time with the values given; and the Django internals they rely on, each checked here."""

import inspect

import pytest
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from campaigns.compiled import CompiledQuery, Reader, Tables
from campaigns.models import (
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceRoll,
    LedgerEntry,
    Membership,
    OrbatEntry,
    Role,
    Scenario,
)
from campaigns.views import _members
from tests.campaigns.transfer.test_services import big_campaign

pytestmark = pytest.mark.django_db


# --- CompiledQuery -----------------------------------------------------------------------------


def seen(members):
    return [
        (m.pk, m.campaign_id, m.user.username, m.role, m.side, m.joined_at, m.consents)
        for m in members
    ]


def test_the_members_are_the_orms_for_each_campaign(campaign, people):
    from tests.conftest import red_factories_campaign

    other = red_factories_campaign(people, "rb-cg-2", "Another")
    Membership.objects.filter(campaign=other, role=Role.OBSERVER).delete()
    for each in (campaign, other, campaign):
        expected = seen(each.memberships.select_related("user"))
        with CaptureQueriesContext(connection) as queries:
            got = seen(_members(each.pk))
        assert got == expected and len(got) >= 3
        assert len(queries) == 1  # the users came with them
    assert seen(_members(other.pk)) != seen(_members(campaign.pk))
    assert _members(10**9) == []


def test_several_values_and_what_cannot_be_compiled(campaign, people):
    by_role = CompiledQuery(
        lambda campaign_id, user_id: Membership.objects.filter(
            campaign_id=campaign_id, user_id=user_id
        ),
        2,
    )
    for persona in ("german", "referee"):
        (got,) = by_role(campaign.pk, people[persona].pk)
        assert got == Membership.objects.get(campaign=campaign, user=people[persona])
    assert by_role(campaign.pk, None) == []  # any value: NULL matches nothing, as in the ORM
    with pytest.raises(TypeError):
        by_role(campaign.pk)
    unused = CompiledQuery(lambda campaign_id: Membership.objects.all(), 1)
    with pytest.raises(ValueError):
        unused(campaign.pk)


# --- Reader ------------------------------------------------------------------------------------

LEDGER = Reader(
    LedgerEntry,
    lambda campaign, sides, last: (
        LedgerEntry.objects.filter(campaign=campaign, side__in=sides, pk__lte=last)
        .order_by("side", "index", "id")
        .values_list("id", "side", "amount", "created_at", "note_words")
    ),
)


def orm(campaign, sides, last):
    return list(
        LedgerEntry.objects.filter(campaign=campaign, side__in=sides, pk__lte=last)
        .order_by("side", "index", "id")
        .values_list("id", "side", "amount", "created_at", "note_words")
    )


def test_the_rows_are_the_orms_for_each_campaign_side_list_and_limit(people, campaign):
    big = big_campaign(people, rows=60)
    top = LedgerEntry.objects.filter(campaign=big).order_by("-pk").first().pk
    cases = [
        (big.pk, ["german"], top),
        (big.pk, ["soviet"], top),
        (big.pk, ["german", "soviet"], top),
        (big.pk, ["german", "soviet"], top - 10),
        (campaign.pk, ["german", "soviet"], top),
        (big.pk, [], top),
        (big.pk, ["german"], 0),
    ]
    for values in cases * 2:  # the second time from the compiled SQL
        expected = orm(*values)
        assert list(LEDGER(*values, chunk=7)) == expected  # read a few rows at a time
        assert list(LEDGER(*values)) == expected  # all at once
    assert len(orm(big.pk, ["german", "soviet"], top)) > 30
    assert orm(big.pk, ["german"], top) != orm(big.pk, ["soviet"], top)


def test_one_query_run_when_read_and_none_for_an_empty_list(people, campaign):
    rows = LEDGER(campaign.pk, ["german"], 10**9)
    with CaptureQueriesContext(connection) as queries:
        list(LEDGER(campaign.pk, [], 10**9))
    assert len(queries) == 0  # nothing can match: not even asked
    with CaptureQueriesContext(connection) as queries:
        list(rows)
    assert len(queries) == 1


def test_a_value_used_twice_and_what_cannot_be_compiled(people, campaign):
    nameless = Reader(
        CampaignEvent,
        lambda campaign, scopes: CampaignEvent.objects.filter(
            campaign=campaign,
            visibility__in=scopes,
            target_id__in=DiceRoll.objects.filter(
                Q(rolled_by__isnull=True), campaign=campaign, visibility__in=scopes
            ).values("pk"),
        ).values_list("id"),
    )
    assert list(nameless(campaign.pk, ["public"])) == list(
        CampaignEvent.objects.filter(
            campaign=campaign,
            visibility__in=["public"],
            target_id__in=DiceRoll.objects.filter(
                rolled_by__isnull=True, campaign=campaign, visibility__in=["public"]
            ).values("pk"),
        ).values_list("id")
    )
    unused = Reader(Membership, lambda campaign: Membership.objects.values_list("id"))
    with pytest.raises(ValueError):
        list(unused(campaign.pk))
    with pytest.raises(TypeError):
        list(LEDGER(campaign.pk, ["german"], None))


# --- Tables ------------------------------------------------------------------------------------


def tables_of(campaign, sides, last):
    """Tables of every kind of column: text, integers (ids, references), date and time, JSON,
    booleans; a one-column table; an order by a related column, nulls first."""
    return [
        (
            Membership.objects.filter(campaign=campaign).order_by("joined_at", "id"),
            ("user__username", "role", "side", "joined_at"),
        ),
        (CampaignDay.objects.filter(campaign=campaign).order_by("index"), ("index",)),
        (
            LedgerEntry.objects.filter(campaign=campaign, side__in=sides, pk__lte=last).order_by(
                "side", "ledger", "index", "id"
            ),
            ("id", "side", "amount", "created_at", "note_words", "locations"),
        ),
        (
            Scenario.objects.filter(campaign=campaign).order_by("index", "sequence"),
            ("id", "night", "locations", "notes"),
        ),
        (
            CvpEntry.objects.filter(campaign=campaign, side__in=sides).order_by("index", "id"),
            ("scenario_id", "orbat_entry_id", "exited_uncontrolled", "no_cvp", "created_at"),
        ),
        (
            OrbatEntry.objects.filter(campaign=campaign, side__in=sides).order_by(
                "side", F("group__side").asc(nulls_first=True), "group__index", "id"
            ),
            ("id", "group_id", "statuses"),
        ),
    ]


TABLES = Tables(CampaignEvent, tables_of)


def orm_tables(*values):
    return [
        (n, row)
        for n, (queryset, names) in enumerate(tables_of(*values))
        for row in queryset.values_list(*names)
    ]


def test_several_tables_read_as_the_orm_reads_each(people, campaign):
    big = big_campaign(people, rows=60)
    top = LedgerEntry.objects.filter(campaign=big).order_by("-pk").first().pk
    cases = [
        (big.pk, ["german"], top),
        (big.pk, ["german", "soviet"], top - 10),
        (campaign.pk, ["german", "soviet"], top),
        (big.pk, [], top),  # the side tables left out of the union, their values with them
        (big.pk, ["soviet"], 0),
    ]
    for values in cases * 2:  # the second time from the compiled SQL
        expected = orm_tables(*values)
        assert list(TABLES(*values, chunk=7)) == expected
        assert list(TABLES(*values)) == expected
        by_table = TABLES.by_table(*values)
        assert [(n, row) for n, rows in by_table.items() for row in rows] == expected
    expected = orm_tables(big.pk, ["german", "soviet"], top)
    assert {n for n, _row in expected} == {0, 1, 2, 3, 4, 5}  # every table has rows
    assert len(expected) > 150


def test_several_tables_are_one_query(people, campaign):
    with CaptureQueriesContext(connection) as queries:
        rows = list(TABLES(campaign.pk, ["german"], 10**9))
    assert len(queries) == 1 and rows


def test_a_column_of_a_kind_not_shared_is_refused(campaign):
    from django.db.models import FloatField
    from django.db.models.functions import Cast

    odd = Tables(
        Membership,
        lambda campaign: [
            (
                Membership.objects.filter(campaign=campaign)
                .annotate(odd=Cast("id", FloatField()))
                .order_by("id"),
                ("odd",),
            )
        ],
    )
    with pytest.raises(TypeError):
        list(odd(campaign.pk))


# --- the Django internals relied on ------------------------------------------------------------


def test_the_django_internals_compiled_queries_rely_on(campaign, people):
    queryset = Membership.objects.filter(campaign_id=campaign.pk).values_list("id", "side")
    # query.get_compiler(using=…) gives an SQLCompiler whose as_sql() is (sql, params), the
    # values among the params.
    compiler = queryset.query.get_compiler(using="default")
    assert isinstance(compiler, SQLCompiler)
    sql, params = compiler.as_sql()
    assert isinstance(sql, str) and campaign.pk in list(params)
    # as_sql() fills compiler.select, each column's expression with its output_field.
    assert [column.output_field.name for column, _sql, _alias in compiler.select] == ["id", "side"]
    # as_sql() raises EmptyResultSet for a WHERE that can match nothing, the select filled.
    empty = Membership.objects.filter(side__in=[]).values_list("side").query.get_compiler("default")
    with pytest.raises(EmptyResultSet):
        empty.as_sql()
    assert [column.output_field.name for column, _sql, _alias in empty.select] == ["side"]
    # results_iter takes these arguments, and runs the SQL self.as_sql() gives on
    # self.connection.
    parameters = inspect.signature(SQLCompiler.results_iter).parameters
    assert {"tuple_expected", "chunked_fetch", "chunk_size"} <= set(parameters)
    other = Membership.objects.filter(campaign_id=10**9).values_list("id", "side")
    other_sql, other_params = other.query.get_compiler("default").as_sql()
    compiler.as_sql = lambda *args, **kwargs: (other_sql, other_params)
    compiler.connection = connection
    assert list(compiler.results_iter(tuple_expected=True)) == []
    compiler.as_sql = lambda *args, **kwargs: (sql, params)
    assert list(compiler.results_iter(tuple_expected=True)) == list(queryset)
    # A QuerySet made of (model, query, using) with these attributes, whose iteration asks
    # query.get_compiler for its compiler.
    for name in (
        "_iterable_class",
        "_fields",
        "_prefetch_related_lookups",
        "_hints",
        "_known_related_objects",
        "_db",
    ):
        assert hasattr(queryset, name), name
    asked = []
    models_ = Membership.objects.filter(campaign_id=campaign.pk)
    query = models_.query.clone()
    real = query.get_compiler
    query.get_compiler = lambda *args, **kwargs: asked.append(1) or real(*args, **kwargs)
    clone = QuerySet(model=Membership, query=query, using=None)
    assert len(list(clone)) == models_.count() and asked
    # A union's converters are its first part's columns': a typed NULL there (Cast) converts
    # the other parts' values of that column (a datetime read from SQLite's text).
    from django.db.models import DateTimeField, Value
    from django.db.models.functions import Cast

    first = Membership.objects.filter(pk=0).annotate(t=Cast(Value(None), DateTimeField()))
    second = Membership.objects.filter(campaign_id=campaign.pk).annotate(t=F("joined_at"))
    union = first.order_by().values_list("t").union(second.order_by().values_list("t"), all=True)
    assert sorted(t for (t,) in union) == sorted(
        Membership.objects.filter(campaign_id=campaign.pk).values_list("joined_at", flat=True)
    )


@pytest.mark.django_db
def test_a_stand_in_out_of_its_columns_range_is_refused_not_answered_as_nothing(campaign):
    """A CG day is a small-integer column: the ORM drops a stand-in out of its range as "matches
    nothing" (Django's integer field overflow), which would answer nothing for every day. The
    compiled query refuses instead (on SQLite and PostgreSQL alike)."""
    LedgerEntry.objects.create(
        campaign=campaign, side="german", ledger="CPP", index=0, kind="initial", amount=3
    )
    by_day = CompiledQuery(
        lambda campaign_id, day: LedgerEntry.objects.filter(campaign_id=campaign_id, index=day),
        2,
    )
    assert LedgerEntry.objects.filter(campaign=campaign, index=0).exists()
    with pytest.raises(ValueError, match="out of its column's range"):
        by_day(campaign.pk, 0)
