"""The after-action report as plain data: sections of facts, tables, charts and links.

Built once (rosters.report.build, rosters.report.short) for one viewer in one language; the
page (templates/rosters/report/report.html) and the PDF (rosters.report.pdf) draw the same
``Report``. Every string is already translated plain text; the tables are
``rosters.sheets.Table``s, drawn as the sheets draw them; a chart is its series of numbers,
drawn by rosters.report.charts into SVG for the page and into the PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rosters.sheets import Fact, Table

LINE = "line"
BARS = "bars"


@dataclass(frozen=True)
class Series:
    name: str  # the legend's words
    values: tuple[float | None, ...]  # one per label; None: nothing that day (a gap)
    dashed: bool = False  # drawn dashed (the expected counts beside the rolls)


@dataclass(frozen=True)
class Chart:
    slug: str  # unique in the report (the SVG's ids are made from it)
    title: str
    kind: str  # LINE or BARS
    labels: tuple[str, ...]  # the x axis: days, turns, dice totals
    series: tuple[Series, ...]
    y_label: str = ""
    summary: str = ""  # what the chart shows, in words (its text alternative)

    def __post_init__(self) -> None:
        for series in self.series:
            if len(series.values) != len(self.labels):
                raise ValueError(f"{self.slug}: {series.name} has not one value per label")

    @property
    def empty(self) -> bool:
        return not any(value for series in self.series for value in series.values)


@dataclass(frozen=True)
class Link:
    text: str
    url: str


@dataclass(frozen=True)
class Section:
    slug: str
    title: str
    facts: tuple[Fact, ...] = ()
    tables: tuple[Table, ...] = ()
    charts: tuple[Chart, ...] = ()
    links: tuple[Link, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    title: str
    campaign: str  # the campaign's name (user text)
    campaign_game: str
    date: str  # the campaign's current CG day / time frame / turn
    data_version: str
    language: str
    shown_sides: str  # whose secrets this copy holds, in words ("German", "—")
    scope_note: str = ""  # what of the campaign this copy shows, in a sentence
    sections: tuple[Section, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def charts(self) -> list[Chart]:
        return [chart for section in self.sections for chart in section.charts]
