"""The order of battle's lines written in Python (campaigns.orbat.html) are the markup of the
``orbat-row`` partial for a line not being edited, to the byte: ``TEMPLATE`` is that partial as
templates/campaigns/orbat/orbat.html had it, drawn for lines of every branch (one left, an RG's
origin, statuses, a note, text needing escapes) for a recorder and a reader, in English and
Japanese."""

from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from campaigns.history.html import csrf_input
from campaigns.orbat.html import line_html
from campaigns.orbat.page import _labels

TEMPLATE = (  # fmt: skip
    "{% load i18n %}"
    '\n      {# its address: row.url #}\n      <li id="entry-{{ row.oid }}" class="orbat-line{%'
    ' if row.editing %} editing{% endif %}">\n        {% if single_row %}{% include "_messages'
    '.html" %}{% endif %}\n        <div class="line">\n          {% if can_record %}\n          '
    '<input type="checkbox" name="lines" value="{{ row.oid }}:{{ row.version }}" form="move" '
    'id="check-{{ row.oid }}" aria-label="{{ row.check_label }}" title="{{ labels.check }}">\n'
    '          <form method="post" action="{{ row.url }}" class="inline"\n                hx-p'
    'ost="{{ row.url }}" hx-target="#entry-{{ row.oid }}" hx-swap="outerHTML">\n            {%'
    ' csrf_token %}<input type="hidden" name="action" value="quantity"><input type="hidden" n'
    'ame="version" value="{{ row.version }}">\n            <button type="submit" name="quantit'
    'y" value="{{ row.fewer }}" class="step" title="{{ labels.fewer }}" aria-label="−1 {{ lab'
    'els.fewer }}"{% if row.single %} disabled{% endif %}>−1</button>\n            <span class'
    '="qty"><strong>{{ row.quantity }}</strong> ×</span>\n            <strong class="unit">{{ '
    'row.unit }}</strong>\n            <button type="submit" name="quantity" value="{{ row.mor'
    'e }}" class="step" title="{{ labels.more }}" aria-label="+1 {{ labels.more }}">+1</butto'
    'n>\n          </form>\n          {% else %}\n          <span class="qty"><strong>{{ row.qua'
    'ntity }}</strong> ×</span>\n          <strong class="unit">{{ row.unit }}</strong>\n      '
    '    {% endif %}\n          <span class="muted">{{ row.kind_label }}</span>\n          {% i'
    'f row.origin_rg %}<span class="origin">{{ row.origin_text }}</span>{% endif %}\n         '
    ' {% for label in row.status_labels %}<span class="status">[{{ label }}]</span>{% endfor '
    '%}\n          {% if row.status_note %}<span class="note">({{ row.status_note }})</span>{%'
    ' endif %}\n          {% if not row.editing and can_record %}<a href="{{ row.edit_href }}"'
    ' hx-get="{{ row.edit_hx }}" hx-target="#entry-{{ row.oid }}" hx-swap="outerHTML">{{ labe'
    'ls.edit }}</a>{% endif %}\n        </div>\n        {% if row.errors %}<ul class="errorlist'
    '">{% for error in row.errors %}<li>{{ error }}</li>{% endfor %}</ul>{% endif %}\n        '
    '{% if row.editing and can_record %}\n        <div class="entry-forms">\n          <form me'
    'thod="post" action="{{ row.url }}" class="entry-edit"\n                hx-post="{{ row.ur'
    'l }}" hx-target="#entry-{{ row.oid }}" hx-swap="outerHTML">\n            {% csrf_token %}'
    '<input type="hidden" name="action" value="edit"><input type="hidden" name="version" valu'
    'e="{{ row.version }}">\n            <label>{% translate "Quantity" %} <input type="number'
    '" name="quantity" min="1" max="999" inputmode="numeric" required value="{{ row.quantity_'
    'value }}"></label>\n            <fieldset>\n              <legend>{% translate "Statuses" '
    "%}</legend>\n              {% for key, label, checked in row.status_checks %}<label class"
    '="check"><input type="checkbox" name="statuses" value="{{ key }}"{% if checked %} checke'
    "d{% endif %}> {{ label }}</label> {% endfor %}\n            </fieldset>\n            <labe"
    'l>{% translate "Where / details" %} <input type="text" name="status_note" maxlength="100'
    '" value="{{ row.note_value }}" placeholder="{% translate \'e.g. the isolated area\' %}"></'
    'label>\n            <button type="submit">{% translate "Save" %}</button>\n          </for'
    'm>\n          <form method="post" action="{{ row.url }}" class="inline"\n                h'
    'x-post="{{ row.url }}" hx-target="#orbat-boxes" hx-swap="outerHTML">\n            {% csrf'
    '_token %}<input type="hidden" name="action" value="move"><input type="hidden" name="vers'
    'ion" value="{{ row.version }}">\n            <label>{% translate "Move" %} <input type="n'
    'umber" name="move_quantity" min="1" max="{{ row.quantity }}" inputmode="numeric" require'
    'd value="{{ row.move_value|default:row.quantity }}"></label>\n            <label>{% trans'
    'late "to box" %} <select name="box" required>{{ row.move_options }}</select></label>\n   '
    '         <button type="submit">{% translate "Move" %}</button>\n          </form>\n       '
    '   <form method="post" action="{% url \'campaigns:orbat_remove\' campaign.pk side row.entr'
    'y.pk %}" class="inline"\n                hx-post="{% url \'campaigns:orbat_remove\' campaig'
    'n.pk side row.entry.pk %}" hx-target="#orbat-boxes" hx-swap="outerHTML">\n            {% '
    'csrf_token %}<input type="hidden" name="version" value="{{ row.version }}">\n            '
    '<button type="submit" class="danger">{% translate "Remove the line" %}</button>\n        '
    '  </form>\n          <a href="{{ orbat_url }}#entry-{{ row.oid }}" hx-get="{{ orbat_url }'
    '}?line={{ row.oid }}" hx-target="#entry-{{ row.oid }}" hx-swap="outerHTML">{% translate '
    '"Close" %}</a>\n        </div>\n        {% endif %}\n      </li>\n      '
)


def row(**given):
    values = dict(
        oid="Q7",
        url="/campaigns/1/orbat/german/Q7/",
        quantity="3",
        version="2",
        fewer="2",
        more="4",
        single=False,
        unit="4-6-7",
        check_label="Check to move: 3 × 4-6-7",
        kind_label="Infantry",
        origin_rg="",
        origin_text="",
        status_labels=[],
        status_note="",
        editing=False,
        errors=[],
        edit_href="/campaigns/1/orbat/german/?rgs=2&edit=Q7#entry-Q7",
        edit_hx="/campaigns/1/orbat/german/?edit=Q7",
    )
    values.update(given)
    return SimpleNamespace(**values)


ROWS = [
    row(),
    row(
        oid="b1",
        quantity="1",
        fewer="0",
        more="2",
        single=True,
        origin_rg="A3",
        origin_text="from A3",
    ),
    row(oid="b2", status_labels=["broken", "<isolated>"], status_note="in “H41” & <b>2</b>"),
    row(oid="b3", unit="MMG <x>", kind_label='Gun "AT"', check_label="Check & move"),
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("can_record", [True, False])
@pytest.mark.parametrize("line", range(len(ROWS)))
def test_a_line_is_the_partials_line(language, can_record, line):
    template = engines["django"].from_string(TEMPLATE)
    with translation.override(language):
        labels = _labels()
        expected = template.render(
            {
                "row": ROWS[line],
                "can_record": can_record,
                "labels": labels,
                "single_row": False,
                "csrf_token": "tok-9",
            }
        )
        written = line_html(
            ROWS[line], can_record=can_record, labels=labels, csrf=csrf_input("tok-9")
        )
    assert written == expected
