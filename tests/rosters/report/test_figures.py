"""The report's figures are the campaign's own: each equals what the CG Roster, the CVP page,
the dice and the recorded perimeters give — the report computes none of them again — and a
page costs the same queries however long the campaign."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.records.views.cvp import _cvp_context
from refit.models import PerimeterState
from rosters.builders import build_sheet
from rosters.report import build_report
from tests.campaigns.builders import make_big_campaign
from tests.rosters.conftest import grown_campaign
from tests.rosters.report.conftest import GERMAN_ROLLS, roll

pytestmark = pytest.mark.django_db


def section(report, slug):
    return next(s for s in report.sections if s.slug == slug)


def table(found, title):
    return next(t for t in found.tables if t.title == title)


def column(found, heading, group=""):
    headings = [(c.heading, c.group) for c in found.columns]
    return headings.index((heading, group))


def by_day(found, *columns):
    return {row.cells[0]: tuple(row.cells[i] for i in columns) for row in found.rows}


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_the_cpp_figures_are_the_cg_rosters(reported, people, side):
    referee = viewer_for(people["referee"], reported.pk)
    report = build_report(referee, "en")
    name = reported.side(side).name.in_language("en")
    mine = table(section(report, "cpp"), f"{name}: CPP per day")
    roster = build_sheet(referee, side, "roster", "en").tables[0]
    heads = ("Start", "Repl", "Total", "Spent", "Left")
    ours = by_day(mine, *(column(mine, h, "CPP") for h in heads))
    theirs = by_day(roster, *(column(roster, h, "CPP") for h in heads))
    assert ours and all(ours[day] == theirs[day] for day in ours)
    if side == "german":  # the seeded numbers (11.6162's example)
        assert list(ours.values())[1] == ("2", "16", "18", "5", "13")


def test_the_cvp_figures_are_the_cvp_pages(reported, people):
    viewer = viewer_for(people["observer"], reported.pk)
    report = build_report(viewer, "en")
    facts = {fact.label: fact.value for fact in section(report, "cvp").facts}
    totals = _cvp_context(viewer, None)["totals"]
    assert facts["CVP suffered by German"] == str(totals[0].tally) == "23"
    assert facts["CVP suffered by Soviet"] == str(totals[1].tally)
    chart = section(report, "cvp").charts[0]
    assert chart.series[0].values[-1] == totals[0].tally
    days = section(report, "days").tables[0]
    lost = column(days, "CVP lost by German")
    assert [row.cells[lost] for row in days.rows if row.cells[3]] == ["23"]


def test_the_dice_luck_counts_the_sides_rolls_but_not_the_voided(reported, people):
    report = build_report(viewer_for(people["german"], reported.pk), "en")
    luck = section(report, "luck")
    german = next(t for t in luck.tables if t.title == "German")
    overall = next(row for row in german.rows if row.cells[0] == "All DR rolls")
    totals = [sum(faces) for faces in GERMAN_ROLLS]
    assert overall.cells[2] == str(len(totals))
    assert overall.cells[3] == f"{sum(totals) / len(totals):.2f}"
    assert [t.title for t in luck.tables] == ["German"]
    chart = luck.charts[0]
    assert sum(chart.series[0].values) == len(totals)
    assert sum(chart.series[1].values) == pytest.approx(len(totals), abs=0.05)


def test_the_perimeter_area_is_the_recorded_perimeters(reported, people):
    report = build_report(viewer_for(people["observer"], reported.pk), "en")
    found = section(report, "perimeters")
    assert found.tables[0].rows[0].cells[1:] == ("3", "2")
    assert found.charts[0].series[0].values[0] == 3.0
    assert found.charts[0].series[0].values[1] is None  # nothing recorded on 18 Oct


def _fill(campaign, rolls: int, perimeters: int) -> None:
    for n in range(rolls):
        roll(
            campaign,
            "german" if n % 2 else "soviet",
            (1 + n % 6, 1 + n % 5),
            visibility="german" if n % 2 else "soviet",
        )
    for index in range(perimeters):
        PerimeterState.objects.create(
            campaign=campaign,
            index=index,
            recorded={"perimeter_area": {"german": ["A1"] * index}, "isolated_areas": []},
        )


def _queries(client, campaign, name) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse(name, args=[campaign.pk]), {"lang": "en"})
        assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["report:page", "report:pdf"])
def test_the_query_count_does_not_grow_with_the_campaign(people, client_as, name):
    small = make_big_campaign(people)
    _fill(small, rolls=3, perimeters=1)
    large = grown_campaign(people, 40, 80)
    _fill(large, rolls=120, perimeters=25)
    for campaign in (small, large):
        campaign.period_index = 29
        campaign.save()
    client = client_as("referee")
    _queries(client, small, name)  # warm the caches (game data, fonts)
    counts = [_queries(client, campaign, name) for campaign in (small, large)]
    assert counts[0] == counts[1], counts
    # The referee (both sides): the request's own, the report's scenarios, days, finished
    # Refit Phases and perimeters in one query, each side's roster and RG record, the CVP, the
    # rolls (18; 21 when the report read its four small tables one query each).
    assert counts[1] <= 18, counts


def _rg_tables(report) -> dict[str, list[tuple[str, ...]]]:
    found = section(report, "cpp")
    return {t.title: [row.cells for row in t.rows] for t in found.tables if "RGs" in t.title}


@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_the_page_lists_each_sides_last_rgs_and_the_pdf_every_one(
    people, who, monkeypatch, client_as
):
    """A list that grows with the campaign: the page holds each side's last RGs (the window)
    and links to the whole; the PDF prints every one. Only for the sides the viewer sees."""
    campaign = grown_campaign(people, 12, 0)
    viewer = viewer_for(people[who], campaign.pk)
    whole = build_report(viewer, "en")
    windowed = build_report(viewer, "en", window=5)
    assert _rg_tables(build_report(viewer, "en", window=100)) == _rg_tables(whole)
    links = [link.url for link in section(windowed, "cpp").links]
    record = reverse("purchases:record", args=[campaign.pk, "german"])
    if "german" not in viewer.visible_sides():
        assert not _rg_tables(whole).get("German: RGs and how they were rolled")
        assert record not in links
        return
    title = "German: RGs and how they were rolled"
    every, last = _rg_tables(whole)[title], _rg_tables(windowed)[title]
    assert len(every) >= 12 and last == every[-5:]
    assert record in links
    monkeypatch.setattr("rosters.report.views.PAGE_WINDOW", 5)
    page = client_as(who).get(reverse("report:page", args=[campaign.pk]), {"lang": "en"})
    text = page.content.decode()
    assert f'href="{record}"' in text
    assert all(f">{cells[1]}<" in text for cells in last)
    others = {cells[1] for t, rows in _rg_tables(whole).items() if t != title for cells in rows}
    hidden = [cells[1] for cells in every[:-5] if cells[1] not in others]
    assert hidden and not any(f">{label}<" in text for label in hidden)
