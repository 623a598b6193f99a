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
from campaigns.models import Campaign, SideDay
from campaigns.state import known_hist_drm


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


def example_value(campaign: Campaign, key: str, side: str) -> int | None:
    """An example's value for the day and side (11.6195: the map group is not named), when every
    map group of the campaign game carries the same one."""
    day = _chart_day(campaign, key)
    values = {
        day.get(group, {}).get(side, {}).get("example_value") for group in map_groups(campaign)
    }
    return values.pop() if len(values) == 1 else None


def side_days(campaign: Campaign, sides: list[str]) -> dict[tuple[int, str], SideDay]:
    rows = SideDay.objects.filter(campaign=campaign, side__in=sides).only(
        "index", "side", "hist_drm", "version"
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
    form = ChartForm(data, campaign=campaign, saved=saved, editable=editable) if editable else None
    sides = tuple(campaign.side(key) for key in visible)
    rows = []
    unknown = 0
    for index, period in enumerate(periods):
        cells = []
        for side in sides:
            row = saved.get((index, side.key))
            value = row.hist_drm if row is not None else None
            unknown += value is None
            editable_cell = form is not None and row is not None
            cells.append(
                Cell(
                    side=side,
                    value=value,
                    rules_value=known_hist_drm(campaign, period.key, side.key),
                    example_value=example_value(campaign, period.key, side.key),
                    field=form[form.cell_name(index, side.key)] if editable_cell else None,
                    version=form[form.version_name(index, side.key)] if editable_cell else None,
                    stale=(index, side.key) in stale,
                    stale_value=stale.get((index, side.key)),
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
        rows=tuple(rows),
        form=form,
        unknown=unknown,
        map_groups=map_groups(campaign),
        stale=bool(stale),
    )
