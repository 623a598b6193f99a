"""campaigns/json_sql.py: a JSON column read without some top-level keys, on both databases."""

from __future__ import annotations

import pytest
from django.db import NotSupportedError

from campaigns.json_sql import WithoutKeys
from campaigns.models import CampaignEvent

pytestmark = pytest.mark.django_db

DATA = {
    "undo": {"rows": [{"id": 4, "amount": 12.5}], "undo": "nested stays"},
    "rg": "A1",
    "note": '減少戦力 \u00e9 "quoted" \\ back',
    "amount": -4,
    "ratio": 0.1,
    "big": 12345678901234567890,
    "flags": [True, False, None],
    "keep": {"undo": "only the top level goes"},
}


def read(campaign, *keys):
    event = CampaignEvent.objects.create(campaign=campaign, action="test.read", data=DATA)
    return (
        CampaignEvent.objects.filter(pk=event.pk)
        .values_list(WithoutKeys("data", keys), flat=True)
        .get()
    )


def test_the_keys_are_left_out_and_the_rest_is_as_stored(campaign):
    assert read(campaign, "undo") == {k: v for k, v in DATA.items() if k != "undo"}
    assert read(campaign, "undo", "rg", "absent") == {
        k: v for k, v in DATA.items() if k not in ("undo", "rg")
    }


def test_only_plain_keys():
    with pytest.raises(ValueError):
        WithoutKeys("data", ["a.b"])
    with pytest.raises(ValueError):
        WithoutKeys("data", [])


def test_another_database_is_refused(monkeypatch, campaign):
    from django.db import connection

    monkeypatch.setattr(connection, "vendor", "oracle")
    compiler = CampaignEvent.objects.values_list(WithoutKeys("data", ["undo"])).query.get_compiler(
        "default"
    )
    expression = WithoutKeys("data", ["undo"]).resolve_expression(compiler.query)
    with pytest.raises(NotSupportedError):
        expression.as_sql(compiler, connection)
