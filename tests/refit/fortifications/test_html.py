"""The fortification page's record lines written in Python (refit.fortifications.html) are the
markup the template wrote.

``TEMPLATE`` is the line loop as templates/refit/fortifications/page.html had it; every branch
(lost or not, a detail or none, initial OB or bought, under construction with hexes, placed in a
later time frame, the Location form or the Location in words, a line of the open Refit Phase
that may be taken back or not, text needing escapes) is rendered both ways and compared to the
byte, in English and Japanese. ``ITEMS_TEMPLATE`` the same for the purchase table's rows.
"""

from itertools import product
from types import SimpleNamespace

import pytest
from django.template import Context, engines
from django.template.defaulttags import CsrfTokenNode
from django.utils import translation

from refit.fortifications.html import items_body, line_urls, lines_body
from refit.fortifications.records import FortificationLine
from refit.fortifications.situation import ItemInputs, ItemRow

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


ITEMS_TEMPLATE = (  # fmt: skip
    "{% load i18n %}"
    "{% for row in items %}\n"
    '        <tr data-item="{{ row.item.id }}">\n'
    '          <th scope="row">{{ row.name }}</th>\n'
    "          <td>{{ row.price }}</td>\n"
    '          <td>{{ row.flags|default:"—" }}</td>\n'
    "          <td>\n"
    '            {% if row.refusals %}<p class="refusal">{% if row.offered %}{% t'
    'ranslate "Not available to the players now:" %}{% else %}{% translate "Not a'
    'vailable now:" %}{% endif %} {{ row.refusals|join:" " }}</p>{% endif %}\n'
    "            {% if row.offered %}\n"
    '            <form method="post" action="{{ buy_url }}" class="inline buy-for'
    'm"\n'
    '                  hx-post="{{ buy_url }}" hx-target="#fortifications" hx-swa'
    'p="outerHTML">\n'
    "              {% csrf_token %}\n"
    '              <input type="hidden" name="reph" value="{{ reph.pk }}">\n'
    '              <input type="hidden" name="token" value="{{ token }}-{{ forloo'
    'p.counter }}">\n'
    '              <input type="hidden" name="item" value="{{ row.item.id }}">\n'
    "              {% with n=forloop.counter %}\n"
    '              <label for="id_quantity_{{ n }}">{% translate "How many" %}</l'
    "abel>\n"
    '              <input type="number" name="quantity" id="id_quantity_{{ n }}" '
    'min="1" max="99" value="1" required>\n'
    "              {% if row.inputs.sizes %}\n"
    '              <label for="id_size_{{ n }}">{% translate "Size" %}</label>\n'
    '              <select name="size" id="id_size_{{ n }}" required>{% for size '
    'in row.inputs.sizes %}<option value="{{ size }}">{{ size }}S</option>{% endf'
    "or %}</select>\n"
    "              {% endif %}\n"
    "              {% if row.inputs.factors %}\n"
    '              <label for="id_factors_{{ n }}">{% translate "Factors" %}</lab'
    "el>\n"
    '              <input type="number" name="factors" id="id_factors_{{ n }}" mi'
    'n="1" max="99" required>\n'
    "              {% endif %}\n"
    "              {% if row.inputs.pillbox %}\n"
    '              <label for="id_capacity_{{ n }}">{% translate "Capacity" %}</l'
    'abel><input type="number" name="capacity" id="id_capacity_{{ n }}" min="1" m'
    'ax="9" required>\n'
    '              <label for="id_ca_{{ n }}">{% translate "CA DRM" %}</label><in'
    'put type="number" name="ca_drm" id="id_ca_{{ n }}" min="0" max="9" required>'
    "\n"
    '              <label for="id_nca_{{ n }}">{% translate "NCA DRM" %}</label><'
    'input type="number" name="nca_drm" id="id_nca_{{ n }}" min="0" max="9" requi'
    "red>\n"
    "              {% endif %}\n"
    "              {% if row.inputs.units %}\n"
    '              <label for="id_unit_{{ n }}">{% translate "Unit" %}</label>\n'
    '              <select name="unit" id="id_unit_{{ n }}" required>{% for unit,'
    ' words in row.inputs.units %}<option value="{{ unit }}">{{ words }}</option>'
    "{% endfor %}</select>\n"
    "              {% endif %}\n"
    "              {% if row.inputs.belts %}\n"
    '              <label for="id_belt_{{ n }}">{% translate "Mine Belt" %}</labe'
    "l>\n"
    '              <select name="belt" id="id_belt_{{ n }}" required>{% for belt,'
    ' words in row.inputs.belts %}<option value="{{ belt }}">{{ words }}</option>'
    "{% endfor %}</select>\n"
    "              {% endif %}\n"
    "              {% if row.inputs.trench_variants %}\n"
    '              <label for="id_trench_{{ n }}">{% translate "Trench" %}</label'
    ">\n"
    '              <select name="trench" id="id_trench_{{ n }}">\n'
    '                <option value="">{% translate "on its own" %}</option>\n'
    '                <option value="connected">{% translate "connected to an on-m'
    'ap trench" %}</option>\n'
    '                <option value="replaces_3s_foxhole">{% translate "replacing '
    'an on-map 3S foxhole" %}</option>\n'
    "              </select>\n"
    "              {% endif %}\n"
    "              {% if row.inputs.detonating_unit %}\n"
    '              <label for="id_detonating_{{ n }}">{% translate "Detonating un'
    'it" %}</label>\n'
    '              <input type="text" name="detonating_unit" id="id_detonating_{{'
    ' n }}" maxlength="60" required>\n'
    "              {% endif %}\n"
    "              {% if row.inputs.under_construction %}\n"
    '              <fieldset class="inline">\n'
    '                <legend>{% translate "Under Construction (50 %, placed next '
    'time frame)" %}</legend>\n'
    '                <label><input type="checkbox" name="under_construction"> {% '
    'translate "Under Construction" %}</label>\n'
    '                <label for="id_hexes_{{ n }}">{% translate "Placement hexes"'
    " %}</label>\n"
    '                <input type="text" name="hexes" id="id_hexes_{{ n }}" maxlen'
    'gth="200" size="12">\n'
    '                <label><input type="checkbox" name="hexes_confirmed"> {% tra'
    'nslate "Every hex is Russian-controlled and at least 8 hexes from every Germ'
    'an-controlled hex" %}</label>\n'
    "              </fieldset>\n"
    "              {% endif %}\n"
    "              {% if viewer.can_overrule %}\n"
    '              <label for="id_override_{{ n }}">{% translate "Referee: buy pa'
    'st a limit because" %}</label>\n'
    '              <input type="text" name="override_reason" id="id_override_{{ n'
    ' }}" maxlength="200">\n'
    "              {% endif %}\n"
    "              {% endwith %}\n"
    '              <button type="submit">{% translate "Buy" %}</button>\n'
    "            </form>\n"
    "            {% endif %}\n"
    "          </td>\n"
    "        </tr>\n"
    "      {% endfor %}"
)


def _items():
    """Every branch of a table row: refused (the form shown to the referee or not) or not,
    marks or none, and each variant input alone and all together, with text needing escapes."""
    variants = [
        ItemInputs(),
        ItemInputs(sizes=(2, 3)),
        ItemInputs(factors=True),
        ItemInputs(pillbox=True),
        ItemInputs(units=(("squad", "Squad <&>"), ("hs", "HS"))),
        ItemInputs(belts=(("ap_6", "6-FP A-P"), ("at_2", 'AT "2"'))),
        ItemInputs(trench_variants=True),
        ItemInputs(detonating_unit=True),
        ItemInputs(under_construction=True),
        ItemInputs(
            sizes=(1,),
            factors=True,
            pillbox=True,
            units=(("u", "U"),),
            belts=(("b", "B"),),
            trench_variants=True,
            detonating_unit=True,
            under_construction=True,
        ),
    ]
    rows = []
    for i, (inputs, refused, offered, flags) in enumerate(
        product(variants, [False, True], [True, False], ["", "UC <x>"])
    ):
        rows.append(
            ItemRow(
                item={"id": f"mine<{i}>&"},
                name=f"Minefield <{i}>",
                price=f"{i} FPP & more",
                inputs=inputs,
                flags=flags,
                refusals=(f"SSR I.2 <{i}>", "CG-1.4 & co") if refused else (),
                offered=offered or not refused,
            )
        )
    return rows


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("can_overrule", [False, True])
def test_items_are_the_templates(language, can_overrule):
    rows = _items()
    context = {
        "items": rows,
        "buy_url": "/c/3/purchases/soviet/fortifications/buy/?a=1&b=<2>",
        "reph": SimpleNamespace(pk=7),
        "token": "tok<en>",
        "viewer": SimpleNamespace(can_overrule=can_overrule),
        "csrf_token": "csrf&<token>",
    }
    with translation.override(language):
        expected = engines["django"].from_string(ITEMS_TEMPLATE).render(context)
        written = items_body(
            rows,
            buy_url=context["buy_url"],
            reph_pk=7,
            token="tok<en>",
            csrf_input=CsrfTokenNode().render(Context(context)),
            can_overrule=can_overrule,
        )
    assert written == expected
    assert written.count("csrfmiddlewaretoken") == sum(1 for row in rows if row.offered)
