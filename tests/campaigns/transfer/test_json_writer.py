"""The export's JSON writer gives the text ``json.dumps(…, indent=2)`` gives, to the letter."""

import datetime as dt
import json
from decimal import Decimal

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.transfer.export import _json


def json_text(value, depth):
    text = json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    return text.replace("\n", "\n" + "  " * depth)


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.dates()
    | st.datetimes(timezones=st.just(dt.UTC))
    | st.decimals(allow_nan=False, allow_infinity=False)
)
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(keys, inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(values, st.integers(min_value=0, max_value=3))
def test_any_value_is_written_as_json_writes_it(value, depth):
    assert _json(value, depth) == json_text(value, depth)


def test_the_rows_of_an_export_are_written_as_json_writes_them():
    row = {
        "id": 3,
        "data": {"original": {"actor": "ドイツ軍", "n": [1, 2.5, None, True, {}, []]}},
        "note": 'a "quote"\nand a line\u2028break',
        "when": dt.datetime(2026, 11, 28, 12, 0, tzinfo=dt.UTC),
        "amount": Decimal("1.50"),
        "word": gettext_lazy("Purchased"),
        "empty": {},
        "nothing": [],
    }
    for depth in (0, 1, 2):
        assert _json(row, depth) == json_text(row, depth)
