"""The report's tables written in Python (rosters/report/html.py) and its charts' SVG kept per
process (rosters/report/charts.py): the same text as the template and the renderer give."""

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.access import viewer_for
from rosters.pdf import sheet_font
from rosters.report import build_report, charts
from rosters.report.data import LINE, Chart, Link, Report, Section, Series
from rosters.report.html import sections_html, table_html
from rosters.report.views import shown_sections
from rosters.sheets import Column, Fact, Row, Table

pytestmark = pytest.mark.django_db


def template(table):
    return render_to_string("rosters/_sheet_table.html", {"table": table})


def test_each_table_of_each_members_report_is_the_templates_to_the_byte(reported, people):
    tables = 0
    for who in ("german", "soviet", "referee", "observer"):
        for language in ("en", "ja"):
            report = build_report(viewer_for(people[who], reported.pk), language)
            for section in report.sections:
                for table in section.tables:
                    assert table_html(table) == template(table)
                    tables += 1
    assert tables > 8


@pytest.mark.parametrize("game", ["cp_game", "dr_game"])
def test_each_table_of_a_short_games_report_is_the_templates_to_the_byte(request, people, game):
    campaign = request.getfixturevalue(game)
    tables = 0
    for who in ("german", "soviet", "referee", "observer"):
        if not campaign.memberships.filter(user=people[who]).exists():
            continue
        report = build_report(viewer_for(people[who], campaign.pk), "ja")
        for section in report.sections:
            for table in section.tables:
                assert table_html(table) == template(table)
                tables += 1
    assert tables > 1


def test_groups_shading_the_current_row_escaping_and_no_rows():
    columns = (
        Column("Day"),
        Column("<A & B>", numeric=True, group="CPP"),
        Column("Spent", numeric=True, group="CPP"),
        Column("Note"),
    )
    table = Table(
        columns,
        (
            Row(("17 Oct", "5", "-2", "a <b>")),
            Row(("18 Oct", "", "3", "“x” & y"), shaded=(1, 3), current=True),
        ),
        title="T",
    )
    assert table_html(table) == template(table)
    assert 'class="num shaded"' in table_html(table) and "&lt;A &amp; B&gt;" in table_html(table)
    plain = Table((Column("Day"), Column("Note")), (Row(("1", "2")),))
    assert table_html(plain) == template(plain)
    for empty in (Table(columns, (), empty_text="None <yet>"), Table(columns, ())):
        assert table_html(empty) == template(empty)


def test_a_chart_is_drawn_once_for_an_equal_chart_and_anew_for_another():
    from reportlab.graphics import renderSVG

    def chart(values):
        return Chart("cpp", "CPP", LINE, ("1", "2", "3"), (Series("German", values),))

    font = sheet_font()
    charts._svg.cache_clear()
    first = charts.svg(chart((1.0, 2.0, 3.0)), font)
    assert charts.svg(chart((1.0, 2.0, 3.0)), font) is first  # kept
    other = charts.svg(chart((3.0, 2.0, 1.0)), font)
    assert other != first
    # What is kept is what the renderer draws for that chart.
    charts._svg.cache_clear()
    assert charts.svg(chart((3.0, 2.0, 1.0)), font) == other
    assert "<svg " in renderSVG.drawToString(charts.drawing(chart((3.0, 2.0, 1.0)), font))


# The page's loop over the sections as templates/rosters/report/report.html held it before
# rosters.report.html.sections_html replaced it.
SECTIONS_LOOP = """  {% for shown in sections %}{% with section=shown.section %}
  <section id="report-{{ section.slug }}" aria-labelledby="report-{{ section.slug }}-heading">
    <h2 id="report-{{ section.slug }}-heading">{{ section.title }}</h2>
    {% if section.facts %}
    <dl class="facts">
      {% for fact in section.facts %}<dt>{{ fact.label }}</dt><dd>{{ fact.value }}</dd>{% endfor %}
    </dl>
    {% endif %}
    {% for item in shown.charts %}
    <figure class="report-chart" id="chart-{{ item.chart.slug }}">
      <figcaption id="chart-{{ item.chart.slug }}-title">{{ item.chart.title }}<span class="visually-hidden"> — {{ item.chart.summary }}</span></figcaption>
      {{ item.svg }}
    </figure>
    {% endfor %}
    {% for item in shown.tables %}
    {% if item.table.title %}<h3>{{ item.table.title }}</h3>{% endif %}
    {{ item.html }}
    {% endfor %}
    {% if section.links %}<ul class="report-links">{% for link in section.links %}<li><a href="{{ link.url }}">{{ link.text }}</a></li>{% endfor %}</ul>{% endif %}
    {% for note in section.notes %}<p class="help">{{ note }}</p>{% endfor %}
  </section>
  {% endwith %}{% endfor %}"""  # noqa: E501


def loop(sections):
    return Template(SECTIONS_LOOP).render(Context({"sections": sections}))


def test_the_sections_of_each_members_report_are_the_templates_loop_to_the_byte(
    reported, cp_game, dr_game, people
):
    compared = 0
    for campaign in (reported, cp_game, dr_game):
        for who in ("german", "soviet", "referee", "observer"):
            if not campaign.memberships.filter(user=people[who]).exists():
                continue
            for language in ("en", "ja"):
                with translation.override(language):
                    report = build_report(viewer_for(people[who], campaign.pk), language)
                    sections = shown_sections(report)
                    assert "  " + sections_html(sections) == loop(sections)
                compared += 1
    assert compared >= 10


def test_sections_escape_their_words_and_links_as_the_template_did():
    table = Table((Column("<Day>"),), (Row(("a & b",)),), title="T <1>")
    section = Section(
        slug="s&1",
        title="<Title>",
        facts=(Fact("<label>", "a & b"),),
        tables=(table,),
        charts=(
            Chart("c<1>", "t & t", LINE, ("1", "2"), (Series("x", (1.0, 2.0)),), summary="<s>"),
        ),
        links=(Link("map <1>", "/x/?a=1&b=2"),),
        notes=("note <b>", "“two”"),
    )
    report = Report("r", "c", "cg", "d", "1", "en", "—", sections=(section, Section("e", "E")))
    sections = shown_sections(report)
    assert "  " + sections_html(sections) == loop(sections)
    assert "&lt;Title&gt;" in sections_html(sections)
