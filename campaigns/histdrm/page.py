"""Everything the Historical DRM chart page shows, built by one function.

Rows are the campaign game's CG days, columns the sides whose values the viewer may see (a
side's Historical DRM sits on its secret CG Roster, so a player sees their own column and the
referee both). Each cell says what is saved, what the rules give (pre-filled when the campaign
was created, ``campaigns.state.known_hist_drm``) and what an example of the rules hints at
without naming the map group. One query reads every side day shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.forms import BoundField

from campaigns.access import Viewer
from campaigns.games.registry import Period, Side
from campaigns.histdrm.forms import ChartForm
from campaigns.histdrm.services import cell_value, column_key
from campaigns.models import Campaign, SideDay
from campaigns.state import known_hist_drm, split_map_groups


@dataclass(frozen=True)
class Column:
    """A column of the chart: a side, or in RF CG I a side on one map group (11.6161 prints an
    RB CG and an RO CG column)."""

    side: Side
    map_group: str = ""

    @property
    def key(self) -> str:
        return column_key(self.side.key, self.map_group)


@dataclass(frozen=True)
class Cell:
    side: Side
    value: int | None  # saved now
    rules_value: int | None  # given by the rules (an example naming day, map group and side)
    example_value: int | None  # an example's value whose map group the rules do not name
    field: BoundField | None  # the input, when the viewer may set this cell
    version: BoundField | None
    stale: bool = False  # changed by someone else since the page was shown
    stale_value: int | None = None
    map_group: str = ""


@dataclass(frozen=True)
class Row:
    index: int
    period: Period
    cells: tuple[Cell, ...]
    current: bool
    outside_printed_rows: bool  # a date the printed chart's rows may not cover (RO CG III)


@dataclass(frozen=True)
class ChartPage:
    viewer: Viewer
    campaign: Campaign
    sides: tuple[Side, ...]
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    form: ChartForm | None  # None: the viewer reads the chart only
    unknown: int  # cells shown still unknown
    map_groups: tuple[str, ...]
    stale: bool

    def context(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _chart_day(campaign: Campaign, key: str) -> dict[str, Any]:
    return campaign.game.files.get("historical_drm", {}).get("days", {}).get(key, {})


def map_groups(campaign: Campaign) -> tuple[str, ...]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return tuple((definitions.get(campaign.campaign_game) or {}).get("map_groups") or ())


def example_value(campaign: Campaign, key: str, side: str, group: str = "") -> int | None:
    """An example's value for the day and side (11.6195: the map group is not named), when every
    map group of the campaign game carries the same one; for a map group's column, that
    group's."""
    day = _chart_day(campaign, key)
    values = {
        day.get(g, {}).get(side, {}).get("example_value")
        for g in ((group,) if group else map_groups(campaign))
    }
    return values.pop() if len(values) == 1 else None


def rules_value(campaign: Campaign, key: str, side: str, group: str = "") -> int | None:
    """What the rules give for the day and side: in a map group's column, that group's value."""
    if not group:
        return known_hist_drm(campaign, key, side)
    value = _chart_day(campaign, key).get(group, {}).get(side, {}).get("value")
    return None if value is None else int(value)


def side_days(campaign: Campaign, sides: list[str]) -> dict[tuple[int, str], SideDay]:
    rows = SideDay.objects.filter(campaign=campaign, side__in=sides).only(
        "index", "side", "hist_drm", "hist_drms", "version"
    )
    return {(row.index, row.side): row for row in rows}


def chart_page(
    viewer: Viewer,
    *,
    data: Any = None,
    saved: dict[tuple[int, str], SideDay] | None = None,
    stale: dict[tuple[int, str], int | None] | None = None,
) -> ChartPage:
    """The page as ``viewer`` sees it; with ``data`` the form the viewer posted (kept as typed),
    with ``stale`` the cells someone else saved meanwhile and what they hold now."""
    campaign = viewer.campaign
    visible = viewer.visible_sides()
    editable = visible if viewer.can_act_for_campaign else []
    if saved is None:
        saved = side_days(campaign, visible)
    stale = stale or {}
    periods = campaign.cg.periods
    groups = split_map_groups(campaign)
    form = (
        ChartForm(data, campaign=campaign, saved=saved, editable=editable, groups=groups)
        if editable
        else None
    )
    sides = tuple(campaign.side(key) for key in visible)
    columns = tuple(Column(side, group) for side in sides for group in (groups or ("",)))
    rows = []
    unknown = 0
    for index, period in enumerate(periods):
        cells = []
        for column in columns:
            side, group, key = column.side, column.map_group, column.key
            row = saved.get((index, side.key))
            value = cell_value(row, group) if row is not None else None
            unknown += value is None
            editable_cell = form is not None and row is not None
            cells.append(
                Cell(
                    side=side,
                    value=value,
                    rules_value=rules_value(campaign, period.key, side.key, group),
                    example_value=example_value(campaign, period.key, side.key, group),
                    field=form[form.cell_name(index, key)] if editable_cell else None,
                    version=form[form.version_name(index, key)] if editable_cell else None,
                    stale=(index, key) in stale,
                    stale_value=stale.get((index, key)),
                    map_group=group,
                )
            )
        rows.append(
            Row(
                index=index,
                period=period,
                cells=tuple(cells),
                current=index == min(campaign.period_index, len(periods) - 1),
                outside_printed_rows=bool(
                    _chart_day(campaign, period.key).get("outside_printed_rows")
                ),
            )
        )
    return ChartPage(
        viewer=viewer,
        campaign=campaign,
        sides=sides,
        columns=columns,
        rows=tuple(rows),
        form=form,
        unknown=unknown,
        map_groups=map_groups(campaign),
        stale=bool(stale),
    )
