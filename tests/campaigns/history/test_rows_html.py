"""The history's rows written in Python (campaigns.history.html) are the markup the template's
row loop wrote, to the byte: ``TEMPLATE`` is that loop as templates/campaigns/history/history.html
had it, drawn for rows of every branch (undone, refused, an Undo form with and without the reason
a finished phase asks for, a change one may ask to undo, none, text needing escapes, no actor), in
English and Japanese. And a row's time drawn once per minute is the time drawn for each row."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import dateformat, translation
from django.utils.formats import get_format
from django.utils.safestring import mark_safe
from django.utils.timezone import override, template_localtime
from django.utils.translation import gettext_lazy as _lazy

from campaigns.history.html import history_rows
from campaigns.history.rows import when_drawn

TEMPLATE = (  # fmt: skip
    "{% load i18n %}{% for row in rows %}"
    '\n    <tr id="event-{{ row.oid }}"{% if row.undone %} class="undone"{% endif %}><td><time d'
    'atetime="{{ row.when_iso }}">{{ row.when }}</time></td><td>{{ row.actor|default:"—" }}</td'
    '><td>{{ row.text }}{% if row.undone %} <span class="muted">({% translate "undone" %})</spa'
    'n>{% endif %}</td>\n      <td>{% if row.can_undo and row.refused %}<span class="help">{% tr'
    'anslate "Cannot be undone now:" %} {{ row.refused }}</span>{% elif row.can_undo %}<form me'
    'thod="post" action="{{ row.undo_url }}" class="inline">{% csrf_token %}<input type="hidden'
    '" name="next" value="{{ listing.here }}">{% if row.closed %}<label for="undo-reason-{{ row'
    '.oid }}">{% translate "Of a finished phase: why undo it?" %}</label> <input type="text" na'
    'me="reason" id="undo-reason-{{ row.oid }}" required maxlength="200" size="16"> {% endif %}'
    '<button type="submit" class="danger">{% translate "Undo" %}</button></form>{% elif row.may'
    '_ask %}<a class="ask-correction" href="{{ corrections_url }}?event={{ row.oid }}#ask-corre'
    'ction">{% translate "Ask the other side to undo it" %}</a>{% endif %}</td></tr>\n  '
    "{% endfor %}"
)


def row(**given):
    values = dict(
        oid="k3Xa",
        when_iso="2026-11-28T10:00:00+01:00",
        when="11/28/2026 10 a.m.",
        actor="german",
        text="Marked step 3.1 done.",
        undone=False,
        can_undo=False,
        refused="",
        closed=False,
        may_ask=False,
        undo_url="/campaigns/1/history/k3Xa/undo/",
    )
    values.update(given)
    return SimpleNamespace(**values)


ROWS = [
    row(),
    row(oid="a1", undone=True, actor=""),
    row(oid="a2", can_undo=True, refused="a later step <depends> on it & more"),
    row(oid="a3", can_undo=True),
    row(oid="a4", can_undo=True, closed=True, text='Bought "AT" <b>2</b> & co'),
    row(oid="a5", may_ask=True, actor="o'brien <x>"),
    row(oid="a6", may_ask=True, can_undo=True),
    # Safe text kept as it is, lazy text translated, the same text in two rows escaped alike.
    row(oid="a7", text=mark_safe("<em>kept</em> &amp; safe"), can_undo=True, refused=_lazy("Undo")),
    row(oid="a8", text='Bought "AT" <b>2</b> & co', actor="o'brien <x>"),
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("token", ["tok-123", "NOTPROVIDED", ""])
def test_the_rows_are_the_templates_rows(language, token):
    template = engines["django"].from_string(TEMPLATE)
    here, corrections = "/campaigns/1/history/?page=2&kind=x", "/campaigns/1/corrections/"
    with translation.override(language):
        expected = template.render(
            {
                "rows": ROWS,
                "listing": {"here": here},
                "corrections_url": corrections,
                "csrf_token": token,
            }
        )
        written = history_rows(ROWS, here=here, corrections_url=corrections, csrf_token=token)
    assert "Undo" in expected or language == "ja"
    assert written == expected


def test_no_rows_write_nothing():
    assert history_rows([], here="", corrections_url="", csrf_token="x") == ""


@pytest.mark.parametrize("language", ["en", "ja", "de", "fr"])
def test_a_time_drawn_once_a_minute_is_the_time_drawn_each_time(language):
    start = datetime(2026, 3, 29, 0, 0, 5, tzinfo=UTC)  # Europe's clocks change at 01:00 UTC
    moments = [start + timedelta(seconds=41 * n) for n in range(240)]
    with translation.override(language), override("Europe/Berlin"):
        drawn = when_drawn()
        short = get_format("SHORT_DATETIME_FORMAT")
        for moment in moments:
            local = template_localtime(moment)
            assert drawn(moment) == (local.isoformat(), dateformat.format(local, short))
