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
from campaigns.models import ReinforcementGroup
from refit.purchases.html import chart_body, record_body, rg_rows_body
from refit.purchases.records import RgRecordRow
from refit.purchases.situation import ChartRow, RgRow
from refit.purchases.views import notes_urls
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
    # Every source, and one without a word (shown as it is, as get_source_display does).
    sources = [*ReinforcementGroup.Source.values, "odd & <source>"]
    for i, (removable, rollable, option, cost, summary) in enumerate(flags):
        source = sources[i % len(sources)]
        rg = SimpleNamespace(
            label=f"G<{i}>&",
            source=source,
            get_source_display=lambda source=source: str(
                dict(ReinforcementGroup.Source.choices).get(source, source)
            ),
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


RECORD_TEMPLATE = (  # fmt: skip
    "{% load i18n %}"
    "{% for item in rows %}{% with row=item.row %}\n"
    '    <tr data-rg="{{ row.label }}">\n'
    "      <td>{{ row.day }}</td>\n"
    '      <th scope="row">{{ row.rg_id }}{% if row.source == "initial" %} <span '
    'class="muted">({% translate "initial OB" %})</span>{% endif %}</th>\n'
    "      <td>{{ row.group_type }}</td>\n"
    '      <td class="num">{{ row.purchased_number|default_if_none:"—" }}</td>\n'
    '      <td class="num">{{ row.remaining|default_if_none:"—" }}</td>\n'
    '      <td>{{ row.strength|default:"—" }}</td>\n'
    '      <td class="num">{{ row.units|default_if_none:"—" }}</td>\n'
    '      <td>{{ row.sw_guns|default:"—" }}</td>\n'
    '      <td>{{ row.leaders|default:"—" }}</td>\n'
    "      <td>{{ row.other }}\n"
    "        {% if can_edit and item.rg %}\n"
    '        <details class="rg-notes"><summary>{% translate "Write hexes / obser'
    'ver / note" %}</summary>\n'
    '        <form method="post" action="{% url \'purchases:rg_notes\' campaign.pk '
    'side.key item.rg.pk %}"\n'
    "              hx-post=\"{% url 'purchases:rg_notes' campaign.pk side.key item"
    '.rg.pk %}" hx-target="#record" hx-swap="outerHTML">\n'
    '          {% csrf_token %}<input type="hidden" name="seen" value="{{ item.se'
    'en }}">\n'
    '          {% if rows_page %}<input type="hidden" name="rows" value="{{ rows_'
    'page }}">{% endif %}\n'
    "          {% if item.rg.details.pre_registered_hexes %}\n"
    '          <label for="id_hexes_{{ forloop.counter }}">{% translate "Pre-regi'
    'stered hexes" %}</label>\n'
    '          <input type="text" name="hexes" id="id_hexes_{{ forloop.counter }}'
    '" value="{{ item.rg.details.hexes|default:\'\' }}" maxlength="200">\n'
    "          {% endif %}\n"
    "          {% if item.observer %}\n"
    '          <label for="id_observer_{{ forloop.counter }}">{% translate "Offbo'
    'ard observer" %}</label>\n'
    '          <input type="text" name="observer_location" id="id_observer_{{ for'
    'loop.counter }}" value="{{ item.rg.details.observer_location|default:\'\' }}" '
    'maxlength="60">\n'
    "          {% endif %}\n"
    "          {% if item.stuka %}\n"
    '          <label for="id_e721_{{ forloop.counter }}">{% translate "Stukas: t'
    'he number E7.21 gives" %}</label>\n'
    '          <input type="number" name="e721" id="id_e721_{{ forloop.counter }}'
    '" min="0" max="9" value="{{ item.rg.details.e721|default_if_none:\'\' }}">\n'
    "          {% endif %}\n"
    '          <label for="id_note_{{ forloop.counter }}">{% translate "Note" %}<'
    "/label>\n"
    '          <input type="text" name="note" id="id_note_{{ forloop.counter }}" '
    'value="{{ item.rg.details.note|default:\'\' }}" maxlength="200">\n'
    '          <button type="submit">{% translate "Save" %}</button>\n'
    "        </form>\n"
    "        </details>\n"
    "        {% endif %}\n"
    "      </td>\n"
    "      <td>{{ row.onboard }}</td>\n"
    '      <td data-status="{{ row.status }}">{{ row.status_label }}</td>\n'
    "    </tr>\n"
    "  {% endwith %}{% empty %}\n"
    '    <tr><td colspan="12" class="muted">{% translate "No RGs yet." %}</td></t'
    "r>\n"
    "  {% endfor %}"
)


def _record_items():
    """Every branch of the record's row: initial OB or bought, #P/#R/units counted or not, words
    or none, the notes form (hexes, observer, Stuka) or none, values needing escapes."""
    items = []
    flags = product(["initial", "purchased"], [None, 0, 3], ["", "F <&>"], [None, 2], range(4))
    for i, (source, number, words, units, form) in enumerate(flags):
        details = [
            {},
            {"pre_registered_hexes": 2, "hexes": "A1 <b>", "note": "n&1", "e721": 0},
            {"pre_registered_hexes": 0, "observer_location": 'K5"', "e721": None},
            {"pre_registered_hexes": 3, "hexes": "", "observer_location": "", "e721": 4},
        ][form]
        row = RgRecordRow(
            pk=100 + i,
            label=f"G<{i}>#1",
            index=i % 3,
            day=f"Day <{i}>",
            rg_id=f"I{i}&",
            group_type=f"Rifle <company> {i}",
            source=source,
            purchased_number=number,
            remaining=None if number is None else number + 1,
            strength=words,
            units=units,
            sw_guns=words,
            leaders=words and f"{words}, 8-0",
            other=f"RB <{i}>" if i % 2 else "",
            onboard="O" if i % 3 else "",
            cpp_cost=i,
            received=bool(i % 2),
            status="bought" if i % 2 else "on_map",
            status_label=f"Bought <{i}>",
        )
        rg = SimpleNamespace(pk=100 + i, details=details) if i % 5 else None
        items.append(
            SimpleNamespace(
                row=row, rg=rg, seen=f"seen<{i}>&", observer=bool(form % 2), stuka=form > 0
            )
        )
    return items


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("can_edit", [False, True])
@pytest.mark.parametrize("rows_page", ["", "2&<"])
@pytest.mark.parametrize("empty", [False, True])
def test_record_rows_are_the_templates(language, can_edit, rows_page, empty):
    items = [] if empty else _record_items()
    context = {
        "rows": items,
        "can_edit": can_edit,
        "rows_page": rows_page,
        "campaign": SimpleNamespace(pk=3),
        "side": SimpleNamespace(key="german"),
        "csrf_token": "csrf&<token>",
    }
    with translation.override(language):
        expected = engines["django"].from_string(RECORD_TEMPLATE).render(context)
        written = record_body(
            items,
            can_edit=can_edit,
            notes_url=notes_urls(3, "german"),
            rows_page=rows_page,
            csrf_input=CsrfTokenNode().render(Context(context)),
        )
    assert written == expected
    forms = 0 if empty or not can_edit else sum(1 for item in items if item.rg)
    assert written.count("csrfmiddlewaretoken") == forms
