"""The RG chart's rows written in Python (refit.purchases.html) are the markup the template wrote.

``TEMPLATE`` is the row loop as templates/refit/purchases/page.html had it; every branch of it
(one map group or two, an offer refused with its reasons, a day maximum or none, a CG maximum or
none, a form or none, options to choose, pre-registered hexes, the 2-CPP Stuka, the referee's
override, text needing escapes) is rendered both ways and compared to the byte.
"""

from itertools import product
from types import SimpleNamespace

import pytest
from django.template import Context, engines
from django.template.defaulttags import CsrfTokenNode
from django.utils import translation

from campaigns.games.rules import Reason
from refit.purchases.html import chart_body, rg_rows_body
from refit.purchases.situation import ChartRow, RgRow
from refit.rules.purchase import Offer

TEMPLATE = (  # fmt: skip
    "{% load i18n %}"
    "{% for row in chart %}\n"
    '        <tr data-rg="{{ row.offer.rg_id }}" class="{% if row.offer.available %}a'
    'vailable{% else %}unavailable{% endif %}">\n'
    '          <th scope="row">{{ row.offer.rg_id }}</th>\n'
    "          <td>{{ row.name }}</td>\n"
    '          {% if map_groups|length > 1 %}<td data-label="{{ map_group_label }}">{'
    "{ row.offer.map_group }}</td>{% endif %}\n"
    '          <td class="num" data-label="{{ cpp_label }}">{{ row.cost }}</td>\n'
    '          <td class="num" data-label="{{ today_label }}">{{ row.offer.bought_tod'
    "ay }}{% if row.offer.day_max is not None %} / {{ row.offer.day_max }}{% endif %}"
    "</td>\n"
    '          <td class="num" data-label="#P">{{ row.offer.bought_in_cg }}</td>\n'
    '          <td class="num" data-label="#R">{% if row.offer.remaining is not None '
    "%}{{ row.offer.remaining }}{% else %}—{% endif %}</td>\n"
    '          <td class="actions">\n'
    '            {% if row.reasons %}<ul class="reasons">{% for reason in row.reasons'
    " %}<li>{{ reason }}</li>{% endfor %}</ul>{% endif %}\n"
    "            {% if row.show_form %}\n"
    '            <form method="post" action="{{ buy_url }}" class="inline buy-form"\n'
    '                  hx-post="{{ buy_url }}" hx-target="#purchases" hx-swap="outerH'
    'TML">\n'
    "              {% csrf_token %}\n"
    '              <input type="hidden" name="reph" value="{{ reph.pk }}">\n'
    '              <input type="hidden" name="token" value="{{ token }}-{{ forloop.co'
    'unter }}">\n'
    '              <input type="hidden" name="rg" value="{{ row.offer.rg_id }}">\n'
    '              {% if map_groups|length > 1 %}<input type="hidden" name="map_group'
    '" value="{{ row.offer.map_group }}">{% endif %}\n'
    "              {% if row.placements|length > 1 %}\n"
    '              <label for="id_placement_{{ forloop.counter }}">{% translate "Opti'
    'on" %}</label>\n'
    '              <select name="placement" id="id_placement_{{ forloop.counter }}">\n'
    '                {% for value, label, cost in row.placements %}<option value="{{ '
    'value }}">{{ label }} ({{ cost }} CPP)</option>{% endfor %}\n'
    "              </select>\n"
    "              {% endif %}\n"
    "              {% if row.pre_registration %}\n"
    '              <label for="id_hexes_{{ forloop.counter }}">{% translate "Pre-regi'
    'stered hexes" %}</label>\n'
    '              <input type="number" name="pre_registered_hexes" id="id_hexes_{{ f'
    'orloop.counter }}" min="0" max="{{ row.pre_registration }}" value="0">\n'
    "              {% endif %}\n"
    "              {% if row.two_cpp %}\n"
    '              <label><input type="checkbox" name="stuka_two_cpp"> {% translate "'
    'For 2 CPP (−2 arrival drm)" %}</label>\n'
    "              {% endif %}\n"
    "              {% if viewer.can_overrule and not row.offer.available %}\n"
    '              <label for="id_override_{{ forloop.counter }}">{% translate "Refer'
    'ee: buy past a limit because" %}</label>\n'
    '              <input type="text" name="override_reason" id="id_override_{{ forlo'
    'op.counter }}" maxlength="200" required>\n'
    "              {% endif %}\n"
    '              <button type="submit">{% translate "Buy" %}</button>\n'
    "            </form>\n"
    "            {% endif %}\n"
    "          </td>\n"
    "        </tr>\n"
    "      {% endfor %}"
)


def _row(i, *, refused, day_max, cg_max, form, placements, hexes, two_cpp, group):
    offer = Offer(
        group={"id": f"G<{i}>&"},
        map_group=group,
        cg_max=cg_max,
        bought_in_cg=i % 3,
        day_max=day_max,
        bought_today=i % 2,
        placements=tuple(p for p, _l, _c in placements),
        reasons=(Reason("cg_max", "11.6196", {}),) if refused else (),
    )
    return ChartRow(
        offer=offer,
        name=f'Rifle <company> & "{i}"',
        cost=4 + i,
        reasons=["CG Max reached: 1 of 1 <bought>.", "Other"] if refused else [],
        placements=placements,
        pre_registration=hexes,
        two_cpp=two_cpp,
        show_form=form,
    )


def _rows():
    options = [[], [("a", "A", 3)], [("a", "A <1>", 3), ("b&", "B", 5)]]
    rows = []
    flags = product([False, True], [None, 2], [None, 0, 3], [False, True], range(3))
    for i, (refused, day_max, cg_max, form, option) in enumerate(flags):
        rows.append(
            _row(
                i,
                refused=refused,
                day_max=day_max,
                cg_max=cg_max,
                form=form,
                placements=options[option],
                hexes=i % 4,
                two_cpp=bool(i % 5 == 0),
                group="RB" if i % 2 else "VB",
            )
        )
    return rows


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("groups", [(), ("RB",), ("RB", "VB")])
@pytest.mark.parametrize("can_overrule", [False, True])
def test_chart_rows_are_the_templates(language, groups, can_overrule):
    rows = _rows()
    assert any(r.show_form and r.placements and len(r.placements) > 1 for r in rows)
    context = {
        "chart": rows,
        "map_groups": groups,
        "buy_url": "/c/1/purchases/german/buy/?a=1&b=<2>",
        "reph": type("Reph", (), {"pk": 7})(),
        "token": "tok<en>",
        "viewer": type("Viewer", (), {"can_overrule": can_overrule})(),
        "csrf_token": "csrf&<token>",
        "map_group_label": None,
    }
    with translation.override(language):
        # the labels the page said once before the loop
        context["map_group_label"] = translation.gettext("Map group")
        context["cpp_label"] = translation.gettext("CPP")
        context["today_label"] = translation.gettext("Today")
        expected = engines["django"].from_string(TEMPLATE).render(context)
        written = chart_body(
            rows,
            map_groups=groups,
            buy_url=context["buy_url"],
            reph_pk=7,
            token="tok<en>",
            csrf_input=CsrfTokenNode().render(Context(context)),
            can_overrule=can_overrule,
        )
    assert written == expected
    assert "csrfmiddlewaretoken" in written and "id_override_" in written or not can_overrule


RG_TEMPLATE = (  # fmt: skip
    "{% load i18n %}"
    "{% for row in rgs %}\n"
    '        <tr data-rg="{{ row.rg.label }}">\n'
    '          <th scope="row">{{ row.rg.label }}</th>\n'
    "          <td>{{ row.name }}</td>\n"
    "          <td>{{ row.rg.get_source_display }}{% if row.rg.option %} · {{ row.rg."
    "option_label }}{% endif %}</td>\n"
    '          <td class="num">{{ row.rg.cpp_cost }}</td>\n'
    '          <td>{{ row.summary|default:"—" }}</td>\n'
    "          <td>\n"
    "            {% if row.removable %}\n"
    '            <form method="post" action="{{ row.remove_url }}" class="inline"\n'
    '                  hx-post="{{ row.remove_url }}" hx-target="#purchases" hx-swap='
    '"outerHTML">\n'
    '              {% csrf_token %}<input type="hidden" name="reph" value="{{ reph.pk'
    ' }}">\n'
    '              <button type="submit" class="danger">{% translate "Take back" %}</'
    "button>\n"
    "            </form>\n"
    "            {% endif %}\n"
    "            {% if row.rollable %}\n"
    '            <form method="post" action="{{ row.receive_url }}" class="inline"\n'
    '                  hx-post="{{ row.receive_url }}" hx-target="#purchases" hx-swap'
    '="outerHTML">\n'
    '              {% csrf_token %}<input type="hidden" name="reph" value="{{ reph.pk'
    ' }}">\n'
    '              <button type="submit">{% blocktranslate with rg=row.rg.label %}Rol'
    "l for {{ rg }}{% endblocktranslate %}</button>\n"
    "            </form>\n"
    "            {% endif %}\n"
    "          </td>\n"
    "        </tr>\n"
    "      {% endfor %}"
)


def _rg_rows():
    rows = []
    flags = product([False, True], [False, True], ["", "hth"], [None, 3], ["", "6 squads <x>"])
    for i, (removable, rollable, option, cost, summary) in enumerate(flags):
        rg = SimpleNamespace(
            label=f"G<{i}>&",
            get_source_display=lambda i=i: f"Bought & <{i}>",
            option=option,
            option_label=f"with <{option}>",
            cpp_cost=cost,
        )
        rows.append(
            RgRow(
                rg=rg,
                name=f"Rifle <company> & {i}",
                removable=removable,
                rollable=rollable,
                summary=summary,
                remove_url=f"/c/1/rg/{i}/remove/?a=1&b=2" if removable else "",
                receive_url=f"/c/1/rg/{i}/receive/?a=1&b=2" if rollable else "",
            )
        )
    return rows


@pytest.mark.parametrize("language", ["en", "ja"])
def test_rg_rows_are_the_templates(language):
    rows = _rg_rows()
    context = {"rgs": rows, "reph": SimpleNamespace(pk=7), "csrf_token": "csrf&<token>"}
    with translation.override(language):
        expected = engines["django"].from_string(RG_TEMPLATE).render(context)
        written = rg_rows_body(rows, reph_pk=7, csrf_input=CsrfTokenNode().render(Context(context)))
    assert written == expected
    assert written.count("csrfmiddlewaretoken") == sum(r.removable + r.rollable for r in rows)
