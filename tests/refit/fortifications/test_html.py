"""The fortification page's record lines written in Python (refit.fortifications.html) are the
markup the template wrote.

``TEMPLATE`` is the line loop as templates/refit/fortifications/page.html had it; every branch
(lost or not, a detail or none, initial OB or bought, under construction with hexes, placed in a
later time frame, the Location form or the Location in words, a line of the open Refit Phase
that may be taken back or not, text needing escapes) is rendered both ways and compared to the
byte, in English and Japanese.
"""

from itertools import product
from types import SimpleNamespace

import pytest
from django.template import Context, engines
from django.template.defaulttags import CsrfTokenNode
from django.utils import translation

from refit.fortifications.html import line_urls, lines_body
from refit.fortifications.records import FortificationLine

TEMPLATE = (  # fmt: skip
    "{% load i18n oid %}"
    "{% for line in lines %}\n"
    '        <tr data-fortification="{{ line.item }}"{% if line.lost %} class="un'
    'done"{% endif %}>\n'
    "          <td>{{ line.day }}</td>\n"
    '          <th scope="row">{{ line.name }}</th>\n'
    '          <td>{{ line.detail|default:"—" }}</td>\n'
    '          <td class="num">{{ line.quantity }}</td>\n'
    '          <td class="num">{% if line.initial %}—{% else %}{{ line.fpp }}{% e'
    "ndif %}</td>\n"
    "          <td>{% if line.under_construction %}{{ line.hexes }}{% if line.pla"
    'ced_in %} <span class="muted">({% blocktranslate with when=line.placed_in %}'
    "placed in {{ when }}{% endblocktranslate %})</span>{% endif %}{% if line.los"
    't %} — <strong>{% translate "lost" %}</strong>{% endif %}{% else %}—{% endif'
    " %}</td>\n"
    "          <td>\n"
    "            {% if can_edit %}\n"
    '            <form method="post" action="{% url \'fortifications:location\' cam'
    'paign.pk side.key line.pk %}" class="inline"\n'
    "                  hx-post=\"{% url 'fortifications:location' campaign.pk side"
    '.key line.pk %}" hx-target="#fortifications" hx-swap="outerHTML">\n'
    '              {% csrf_token %}<input type="hidden" name="version" value="{{ '
    'line.version }}">\n'
    '              <label class="visually-hidden" for="id_location_{{ line.pk|oid'
    ' }}">{% translate "Set-up Location" %}</label>\n'
    '              <input type="text" name="location" id="id_location_{{ line.pk|'
    'oid }}" value="{{ line.location }}" maxlength="200" size="14">\n'
    '              {% if line.under_construction %}<label><input type="checkbox" '
    'name="lost"{% if line.lost %} checked{% endif %}> {% translate "lost" %}</la'
    "bel>{% endif %}\n"
    '              <button type="submit">{% translate "Save" %}</button>\n'
    "            </form>\n"
    '            {% else %}{{ line.location|default:"—" }}{% endif %}\n'
    "          </td>\n"
    "          <td>\n"
    "            {% if can_buy and reph and line.index == reph.index and not line"
    ".initial %}\n"
    '            <form method="post" action="{% url \'fortifications:remove\' campa'
    'ign.pk side.key line.pk %}" class="inline"\n'
    "                  hx-post=\"{% url 'fortifications:remove' campaign.pk side.k"
    'ey line.pk %}" hx-target="#fortifications" hx-swap="outerHTML">\n'
    '              {% csrf_token %}<input type="hidden" name="reph" value="{{ rep'
    'h.pk }}">\n'
    '              <button type="submit" class="danger">{% translate "Take back" '
    "%}</button>\n"
    "            </form>\n"
    "            {% endif %}\n"
    "          </td>\n"
    "        </tr>\n"
    "      {% endfor %}"
)


def _lines():
    lines = []
    flags = product([False, True], [False, True], [False, True], ["", "2S <&>"], ["", "T3"])
    for i, (lost, initial, building, detail, placed_in) in enumerate(flags):
        lines.append(
            FortificationLine(
                pk=200 + i,
                index=i % 3,
                day=f"Day <{i}>",
                item=f"mine<{i % 4}>&",
                name=f"Minefield <{i}> & co",
                detail=detail,
                quantity=i,
                fpp=i * 2,
                under_construction=building,
                hexes=f"A{i} <b>" if i % 2 else "",
                location=f'X{i} "q"' if i % 3 else "",
                version=i + 1,
                lost=lost,
                placed_in=placed_in and f"{placed_in} <{i}>",
                initial=initial,
            )
        )
    return lines


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("can_edit", [False, True])
@pytest.mark.parametrize("can_buy", [False, True])
@pytest.mark.parametrize("has_reph", [False, True])
def test_lines_are_the_templates(language, can_edit, can_buy, has_reph):
    lines = _lines()
    reph = SimpleNamespace(pk=7, index=1) if has_reph else None
    context = {
        "lines": lines,
        "can_edit": can_edit,
        "can_buy": can_buy,
        "reph": reph,
        "campaign": SimpleNamespace(pk=3),
        "side": SimpleNamespace(key="soviet"),
        "csrf_token": "csrf&<token>",
    }
    with translation.override(language):
        expected = engines["django"].from_string(TEMPLATE).render(context)
        written = lines_body(
            lines,
            can_edit=can_edit,
            removable_index=reph.index if can_buy and reph else None,
            location_url=line_urls(3, "soviet", "location"),
            remove_url=line_urls(3, "soviet", "remove"),
            reph_pk=reph.pk if reph else None,
            csrf_input=CsrfTokenNode().render(Context(context)),
        )
    assert written == expected
    removable = sum(1 for line in lines if line.index == 1 and not line.initial)
    forms = can_edit * len(lines) + (can_buy and has_reph) * removable
    assert written.count("csrfmiddlewaretoken") == forms
