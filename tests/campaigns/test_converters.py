"""campaigns/converters.py: Django's JSON and SQLite date-and-time converters in one C call —
the same value as Django's for every input, Django's own converter for whatever is not the
plain case — and the compiled queries reading their rows with them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import DatabaseOperations as SQLiteOperations
from django.db.models import JSONField
from django.db.models.fields.json import KeyTransform
from django.db.models.sql.compiler import SQLCompiler

from campaigns.compiled import CompiledQuery, Reader
from campaigns.converters import faster
from campaigns.models import CampaignEvent, Membership

JSON_TEXTS = [
    "{}",
    "[]",
    "null",
    "true",
    "3",
    "-2.5e3",
    "NaN",
    "Infinity",
    '"Пехота \\u6e1b\\u5c11 \\ud83c\\udfb2"',
    '{"rg": "A1", "faces": [4, 5], "text": {"en": "Depleted", "ja": "減少戦力"}}',
    '{"a": {"b": [1, {"c": null}]}, "d": 1.0}',
    ' {"leading": "space"}',  # not JSON from its first letter: Django's answer
    '{"trailing": 1}  ',
    '{"two": 1} {"values": 2}',  # more after the value: not JSON, the text kept
    '{"broken": }',
    "",
    "plain text",
]


class _Field(JSONField):
    pass


@pytest.mark.parametrize("text", JSON_TEXTS)
def test_json_is_read_as_django_reads_it(text):
    field = JSONField()
    (convert,), _ = faster({0: ([field.from_db_value], None)})[0]
    assert convert is not field.from_db_value
    expected = field.from_db_value(text, None, connection)
    got = convert(text, None, connection)
    if expected != expected:  # NaN
        assert got != got
    else:
        assert got == expected and type(got) is type(expected)


def test_json_values_not_text_go_to_django():
    field = JSONField()
    (convert,), _ = faster({0: ([field.from_db_value], None)})[0]
    assert convert(None, None, connection) is None
    key = KeyTransform("rg", "data")
    assert convert(7, key, connection) == field.from_db_value(7, key, connection) == 7


def test_a_field_with_its_own_decoder_or_any_other_converter_is_kept():
    import json

    class Decoder(json.JSONDecoder):
        pass

    own = JSONField(decoder=Decoder)
    other = connection.ops.convert_booleanfield_value if connection.vendor == "sqlite" else str
    converters = {0: ([own.from_db_value], None), 3: ([other, str], None)}
    assert faster(converters) == converters


DATETIME_TEXTS = [
    "2026-11-28 23:33:16.733706",
    "2026-11-28 23:33:16",
    "2026-11-28T23:33:16.7",
    "2026-11-28 23:33:16+02:00",
    "2026-11-28 23:33:16.5Z",
    "2026-1-8 3:33:16",  # parse_datetime's pattern, not fromisoformat's: Django's answer
]


@pytest.mark.parametrize("text", DATETIME_TEXTS)
def test_sqlite_date_and_time_is_read_as_django_reads_it(text):
    ops = SQLiteOperations(connection)
    (convert,), _ = faster({0: ([ops.convert_datetimefield_value], None)})[0]
    assert convert is not ops.convert_datetimefield_value
    expected = ops.convert_datetimefield_value(text, None, connection)
    got = convert(text, None, connection)
    assert got == expected and got.tzinfo is not None
    assert got.utcoffset() == expected.utcoffset()


def test_sqlite_values_already_parsed_are_made_aware_as_django_makes_them():
    """A column declared ``datetime`` comes parsed by the sqlite3 module, naive."""
    ops = SQLiteOperations(connection)
    (convert,), _ = faster({0: ([ops.convert_datetimefield_value], None)})[0]
    assert convert(None, None, connection) is None
    naive = dt.datetime(2026, 11, 28, 23, 33, 16, 733706)
    expected = ops.convert_datetimefield_value(naive, None, connection)
    got = convert(naive, None, connection)
    assert got == expected and got.tzinfo is expected.tzinfo is not None
    aware = dt.datetime(2026, 11, 28, 23, 33, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert convert(aware, None, connection) is aware
    assert ops.convert_datetimefield_value(aware, None, connection) is aware
    with pytest.raises(ValueError):  # a date where a time must be: Django refuses it too
        ops.convert_datetimefield_value("2026-11-28 25:00", None, connection)
    with pytest.raises(ValueError):
        convert("2026-11-28 25:00", None, connection)


# --- the compiled queries read with them ---------------------------------------------------------


def test_results_iter_asks_get_converters_for_the_selected_columns(campaign):
    """The Django internal ``running`` relies on: ``results_iter`` converts with what
    ``self.get_converters(select[:col_count])`` answers."""
    compiler = (
        Membership.objects.filter(campaign=campaign)
        .values_list("joined_at", "side")
        .query.get_compiler("default")
    )
    compiler.as_sql()
    asked = []

    def kept(expressions):
        asked.append([column for column in expressions])
        return {0: ([lambda value, *_: "converted"], None)}

    compiler.get_converters = kept
    rows = list(compiler.results_iter(tuple_expected=True))
    assert rows and {row[0] for row in rows} == {"converted"}
    assert asked == [[s[0] for s in compiler.select[: compiler.col_count]]]


@pytest.mark.django_db
def test_a_compiled_query_reads_with_the_kept_faster_converters(campaign, monkeypatch):
    members = CompiledQuery(lambda c: Membership.objects.filter(campaign_id=c), 1)
    events = Reader(
        CampaignEvent,
        lambda c: CampaignEvent.objects.filter(campaign_id=c).values_list("created_at", "data"),
    )
    expected_members = [
        (m.pk, m.joined_at, m.consents) for m in Membership.objects.filter(campaign=campaign)
    ]
    expected_events = list(
        CampaignEvent.objects.filter(campaign=campaign).values_list("created_at", "data")
    )
    assert expected_events and expected_members
    assert [(m.pk, m.joined_at, m.consents) for m in members(campaign.pk)] == expected_members
    assert list(events(campaign.pk)) == expected_events
    # Run again: the converters kept are used, Django asked for none.
    calls = []
    real = SQLCompiler.get_converters
    monkeypatch.setattr(
        SQLCompiler, "get_converters", lambda self, e: calls.append(1) or real(self, e)
    )
    assert list(events(campaign.pk)) == expected_events
    assert [(m.pk, m.joined_at, m.consents) for m in members(campaign.pk)] == expected_members
    assert calls == []
    # And they are the faster ones where the column is a JSON or (SQLite) a date and time.
    compiled = next(iter(events._compiled.values()))
    converters = compiled[-1]
    functions = [convert for converts, _ in converters.values() for convert in converts]
    assert any(getattr(f, "__qualname__", "").startswith("_json_value") for f in functions)
    if connection.vendor == "sqlite":
        assert any(getattr(f, "__qualname__", "").startswith("_sqlite_datetime") for f in functions)
