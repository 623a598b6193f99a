"""The roster's rows written in Python (campaigns.roster.html) are the markup the template wrote.

``TEMPLATE`` is the row loop as templates/campaigns/roster/roster.html had it; every branch of it
(Red Factories' and SaP's columns, RF CG I's Historical DRM per map group, unknown values, days
not reached, referee adjustments, scenarios at night and without an attacker, chits revealed or
not, the day being edited, text needing escapes) is rendered both ways and compared to the byte.
"""

from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from campaigns.games.registry import LocalizedText, Period, Side
from campaigns.roster.html import roster_body
from campaigns.roster.ledger import CppDay, FppDay, Purchase
from campaigns.roster.rows import RosterRow, ScenarioCell

pytestmark = pytest.mark.django_db

TEMPLATE = (  # fmt: skip
    "{% load i18n campaign_tags gamedata_tags %}"
    "{% for row in rows %}\n"
    '      <tr id="day-{{ row.index }}"{% if row.current %} aria-current="date"{% end'
    'if %}{% if row.index == edit_index %} class="editing"{% endif %}>\n'
    '        <th scope="row">{{ row.period.label|localized }}{% if row.current %} <sp'
    'an class="muted">({% translate "current" %})</span>{% endif %}</th>\n'
    '        {% if rf_columns %}<td class="moon">{{ row.day.moon }}</td>{% endif %}\n'
    '        <td class="weather">{{ row.weather }}</td>\n'
    '        <td class="ec">{{ row.ec }}</td>\n'
    '        {% if has_hist_drm %}<td class="num hist-drm">{% if row.hist_drms %}{% f'
    'or group, value in row.hist_drms %}<span class="hist-drm-group">{{ group }} {% i'
    'f value is None %}<span class="unknown">{% translate "unknown" %}</span>{% else '
    "%}{{ value|signed }}{% endif %}</span>{% if not forloop.last %}<br>{% endif %}{%"
    ' endfor %}{% elif row.side_day.hist_drm is None %}<span class="unknown">{% trans'
    'late "unknown" %}</span>{% else %}{{ row.side_day.hist_drm|signed }}{% endif %}<'
    "/td>{% endif %}\n"
    '        <td class="num elr">{{ row.side_day.elr|default_if_none:"" }}{% if row.s'
    'ide_day.elr is not None and not row.side_day.elr_san_revealed %}<abbr title="{% '
    "translate 'not yet announced' %}\">†</abbr>{% endif %}</td>\n"
    '        <td class="num san">{{ row.side_day.san|default_if_none:"" }}{% if row.s'
    'ide_day.san is not None and not row.side_day.elr_san_revealed %}<abbr title="{% '
    "translate 'not yet announced' %}\">†</abbr>{% endif %}</td>\n"
    "        {% if row.future %}\n"
    '        <td colspan="{% if has_adjustments %}11{% else %}10{% endif %}" class="m'
    'uted">{% translate "not reached yet" %}</td>\n'
    "        {% else %}\n"
    '        <td class="num cpp-start">{{ row.cpp.start }}</td>\n'
    '        <td class="num cpp-repl">{% if row.cpp.repl is not None %}{{ row.cpp.rep'
    'l }}{% if row.cpp.repl_by_group %} <span class="repl-parts">({{ row.repl_parts }'
    "})</span>{% endif %}{% endif %}</td>\n"
    '        {% if has_adjustments %}<td class="num cpp-adjustment">{% if row.cpp.adj'
    "ustment %}{{ row.cpp.adjustment|signed }}{% endif %}</td>{% endif %}\n"
    '        <td class="num cpp-total">{{ row.cpp.total }}</td>\n'
    '        <td class="cpp-purchases">{{ row.cpp.purchased }}</td>\n'
    '        <td class="num cpp-spent">{{ row.cpp.spent }}</td>\n'
    '        <td class="num cpp-left">{{ row.cpp.left }}</td>\n'
    '        <td class="num cpp-recon">{% if row.cpp.recon is not None %}{{ row.cpp.r'
    "econ }}{% endif %}</td>\n"
    '        <td class="num fpp-available">{{ row.fpp.available }}</td>\n'
    '        <td class="num fpp-spent">{{ row.fpp.spent }}</td>\n'
    '        <td class="num fpp-lost">{{ row.fpp.lost }}</td>\n'
    "        {% endif %}\n"
    '        {% if rf_columns %}<td class="scenario-type">{% for cell in row.scenario'
    's %}{{ cell.scenario_type }}{% if cell.night %} ({% translate "night" %}){% endi'
    "f %}{% if not forloop.last %}<br>{% endif %}{% endfor %}</td>\n"
    '        <td class="attacker">{% for cell in row.scenarios %}{% if cell.attacker '
    "%}{{ cell.attacker.name|localized }}{% else %}—{% endif %}{% if not forloop.last"
    " %}<br>{% endif %}{% endfor %}</td>{% endif %}\n"
    '        <td class="winner">{% for cell in row.scenarios %}{% if cell.winner %}{{'
    " cell.winner.name|localized }}{% else %}—{% endif %}{% if not forloop.last %}<br"
    ">{% endif %}{% endfor %}</td>\n"
    '        <td class="num cvp">{% if row.cvp %}{{ row.cvp }}{% endif %}</td>\n'
    '        {% if rf_columns %}<td class="chit">{{ row.chit }}{% if row.chit and not'
    " row.side_day.chit_revealed %}<abbr title=\"{% translate 'not yet revealed' %}\">†"
    "</abbr>{% endif %}</td>\n"
    '        <td class="idle">{% if row.idle %}{% translate "Idle" %}{% endif %}</td>'
    "{% endif %}\n"
    "        {% if can_edit %}\n"
    "        <td><a href=\"{% url 'campaigns:side_day' campaign.pk side row.index %}\"\n"
    "               hx-get=\"{% url 'campaigns:side_day' campaign.pk side row.index %}"
    '" hx-target="#roster-body" hx-swap="outerHTML show:top">{% translate "Edit" %}<s'
    'pan class="visually-hidden"> {{ row.period.label|localized }}</span></a></td>\n'
    "        {% endif %}\n"
    "      </tr>\n"
    "    {% endfor %}"
)

GERMAN = Side("german", LocalizedText("German", "ドイツ軍"))
SOVIET = Side("soviet", LocalizedText("Soviet <&>", "ソ連軍"))


def cpp(index, **changes):
    values = dict(
        index=index,
        start=15,
        repl=None if index == 0 else 16,
        adjustment=0,
        total=15,
        spent=11,
        left=-2,
        recon=None,
        purchases=(),
        repl_by_group=(),
    )
    return CppDay(**{**values, **changes})


def side_day(**values):
    base = dict(
        hist_drm=None,
        elr=None,
        san=None,
        elr_san_revealed=False,
        initiative_chit="",
        chit_revealed=False,
    )
    return SimpleNamespace(**{**base, **values})


def rows():
    label = LocalizedText("17 Oct <1942>", "10月17日 & 夜")
    return [
        RosterRow(
            index=0,
            period=Period("d0", label),
            day=None,
            side_day=None,
            cpp=cpp(0),
            fpp=FppDay(0, 50, 44, 6),
            chit="",
        ),
        RosterRow(
            index=1,
            period=Period("d1", label),
            day=SimpleNamespace(moon="Full <moon>"),
            side_day=side_day(hist_drm=-1, elr=3, san=2, initiative_chit="b", chit_revealed=False),
            cpp=cpp(
                1,
                adjustment=-3,
                recon=5,
                purchases=(Purchase("I1", 5, 3), Purchase("A&5", 4)),
                repl_by_group=(("RB", 16), ("RO", 0)),
            ),
            fpp=FppDay(1, 0, 0, 0),
            chit="Attack <b>",
            scenarios=[
                ScenarioCell("Assault", GERMAN, None, True),
                ScenarioCell("Patrol & probe", None, SOVIET, False),
            ],
            cvp=12,
            idle=False,
            current=True,
            weather="Clear",
            ec="Moderate",
            hist_drms=(("RB", -1), ("RO", None)),
        ),
        RosterRow(
            index=2,
            period=Period("d2", label),
            day=SimpleNamespace(moon=""),
            side_day=side_day(
                hist_drm=2,
                elr=4,
                san=0,
                elr_san_revealed=True,
                initiative_chit="a",
                chit_revealed=True,
            ),
            cpp=cpp(2, repl=0, recon=0),
            fpp=FppDay(2, 3, 0, 3),
            chit="Defend",
            idle=True,
            scenarios=[ScenarioCell("Assault", None, None, False)],
        ),
        RosterRow(
            index=3,
            period=Period("d3", label),
            day=None,
            side_day=side_day(hist_drm=0),
            cpp=cpp(3),
            fpp=FppDay(3, 0, 0, 0),
            chit="",
            future=True,
        ),
    ]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("rf_columns", [True, False])
@pytest.mark.parametrize("has_hist_drm", [True, False])
@pytest.mark.parametrize("has_adjustments", [True, False])
@pytest.mark.parametrize("can_edit, edit_index", [(True, None), (True, 2), (False, None)])
def test_the_rows_are_the_templates_to_the_byte(
    campaign, language, rf_columns, has_hist_drm, has_adjustments, can_edit, edit_index
):
    columns = dict(
        rf_columns=rf_columns,
        has_hist_drm=has_hist_drm,
        has_adjustments=has_adjustments,
        can_edit=can_edit,
    )
    with translation.override(language):
        expected = (
            engines["django"]
            .from_string(TEMPLATE)
            .render(
                {
                    "rows": rows(),
                    "campaign": campaign,
                    "side": "german",
                    "edit_index": edit_index,
                    **columns,
                }
            )
        )
        written = roster_body(rows(), campaign, "german", edit_index=edit_index, **columns)
    assert written == expected
    assert ("&lt;1942&gt;" if language == "en" else "10月17日 &amp; 夜") in written


def test_the_template_shows_the_rows_where_its_loop_was(campaign, client_as):
    from django.urls import reverse

    html = client_as("german").get(reverse("campaigns:roster", args=[campaign.pk, "german"]))
    body = html.content.decode()
    assert body.count('<tr id="day-') == len(campaign.cg.periods)
    assert '<tbody>\n    \n      <tr id="day-0"' in body


# --- the ledgers' entries ------------------------------------------------------------------

LEDGER_TEMPLATE = (  # fmt: skip
    "{% load i18n campaign_tags gamedata_tags %}"
    "{% for entry in day.entries %}\n"
    "      <tr>\n"
    "        <td>{{ day.period.label|localized }}</td>\n"
    "        <td>{{ entry.get_kind_display }}</td>\n"
    '        <td class="num">{{ entry.amount|signed }}</td>\n'
    "        <td>{{ entry.rg }}</td>\n"
    "        <td>{{ entry.note_text }}</td>\n"
    "        <td>{% if entry.created_by %}{{ entry.created_by.get_username }}{% else %}—"
    "{% endif %}</td>\n"
    '        <td>{{ entry.created_at|date:"SHORT_DATETIME_FORMAT" }}</td>\n'
    "      </tr>\n"
    "      {% endfor %}"
)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo"])
def test_the_ledger_rows_are_the_templates_to_the_byte(campaign, people, language, zone):
    from django.utils import timezone

    from campaigns.models import LedgerEntry
    from campaigns.roster.html import LedgerRows
    from tests.campaigns.builders import add

    add(campaign, people["german"], "german", "cpp", 0, "rg_purchase", -5, "I1")
    LedgerEntry.objects.filter(campaign=campaign, rg="I1").update(rg="I<1>")
    add(campaign, people["referee"], "german", "cpp", 0, "adjustment", 3, note="Said & <done>")
    add(campaign, people["german"], "german", "cpp", 0, "recon", -1, locations=2)
    LedgerEntry.objects.filter(campaign=campaign, kind="recon").update(created_by=None)
    entries = list(LedgerEntry.objects.filter(campaign=campaign).select_related("created_by"))
    day = SimpleNamespace(period=campaign.cg.periods[0], entries=entries)
    with translation.override(language), timezone.override(zone):
        expected = engines["django"].from_string(LEDGER_TEMPLATE).render({"day": day})
        written = LedgerRows().day(day.period, entries)
    assert written == expected
    assert "Said &amp; &lt;done&gt;" in written and "I&lt;1&gt;" in written and "—" in written
