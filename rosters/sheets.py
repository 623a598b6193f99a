"""A printable sheet as plain data: title, facts, tables of column heads and rows of text.

Builders (rosters.builders) make a Sheet from a campaign for one side, in one language; the
renderers draw it (rosters.pdf as a reportlab PDF, templates/rosters/sheet.html as a printable
page). Everything here is already-translated plain text: a renderer never decides what a value
means, and escapes every string it draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Column:
    heading: str
    group: str = ""  # a heading printed once above neighbouring columns of the same group
    width: float = 1.0  # share of the table's width, relative to the other columns
    numeric: bool = False


@dataclass(frozen=True)
class HeadCell:
    """A header cell as HTML lays it out (a group spans columns, an ungrouped heading rows)."""

    text: str
    colspan: int = 1
    rowspan: int = 1
    numeric: bool = False


@dataclass(frozen=True)
class Row:
    """One printed line; its first cell is its label (a date, an RG, a unit)."""

    cells: tuple[str, ...]
    shaded: tuple[int, ...] = ()  # positions of cells printed grey, as on the paper form
    current: bool = False  # the campaign's current day, marked on the sheet

    @property
    def label(self) -> str:
        return self.cells[0] if self.cells else ""


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    title: str = ""
    empty_text: str = ""  # printed instead of rows when there are none

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise ValueError(
                    f"a row of {len(row.cells)} cells in a table of {len(self.columns)} columns"
                )

    @property
    def has_groups(self) -> bool:
        return any(column.group for column in self.columns)

    def group_spans(self) -> list[tuple[str, int, int]]:
        """(group, first column, last column) for each run of columns sharing a group."""
        spans: list[tuple[str, int, int]] = []
        for position, column in enumerate(self.columns):
            if column.group and spans and spans[-1][0] == column.group:
                spans[-1] = (column.group, spans[-1][1], position)
            elif column.group:
                spans.append((column.group, position, position))
        return spans

    def body(self) -> list[tuple[Row, list[tuple[str, bool, bool]]]]:
        """Each row with its cells as (text, numeric, shaded), for the HTML page."""
        return [
            (
                row,
                [
                    (text, column.numeric, position in row.shaded)
                    for position, (text, column) in enumerate(
                        zip(row.cells, self.columns, strict=True)
                    )
                ],
            )
            for row in self.rows
        ]

    def head_rows(self) -> list[list[HeadCell]]:
        if not self.has_groups:
            return [[HeadCell(c.heading, numeric=c.numeric) for c in self.columns]]
        starts = {first: (group, last) for group, first, last in self.group_spans()}
        top: list[HeadCell] = []
        bottom: list[HeadCell] = []
        for position, column in enumerate(self.columns):
            if not column.group:
                top.append(HeadCell(column.heading, rowspan=2, numeric=column.numeric))
                continue
            if position in starts:
                group, last = starts[position]
                top.append(HeadCell(group, colspan=last - position + 1))
            bottom.append(HeadCell(column.heading, numeric=column.numeric))
        return [top, bottom]


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


@dataclass(frozen=True)
class Sheet:
    kind: str  # the slug of the sheet kind (rosters.builders.KINDS)
    title: str
    campaign: str  # the campaign's name (user text)
    campaign_game: str  # e.g. "RB CG I Into the Factory"
    side: str  # the side's name
    date: str  # the campaign's current CG day / time frame
    data_version: str  # the game data version the campaign was created with
    language: str  # "en" or "ja"
    facts: tuple[Fact, ...] = ()
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = field(default=())
    blank: bool = False  # a blank form (dates pre-printed, rows to fill in by hand)

    def row_labels(self) -> list[str]:
        return [row.label for table in self.tables for row in table.rows if row.label]
