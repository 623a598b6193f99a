"""The after-action report of a short game (Defiant Russia, Cherkassy Pocket): turn by turn the
weather and each side's replacement and air points, the victory status, the dice luck.

Figures come from the games' own functions: points from ``turn_points.turn_sums`` (its left is
``turn_points.balance``'s figure), the victory status from the victory page's builder
(``campaigns.shortgames.pages.victory.victory_page``). Nothing in these games is secret, so
every member reads the same report; the rolls still pass ``viewer.filter_visible``.
"""

from __future__ import annotations

from django.db.models import Count
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import CampaignDay, GameUnit, PointKind, UnitState
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_points
from campaigns.shortgames.pages.victory import victory_page
from campaigns.shortgames.rules.common import weather_key
from rosters.builders.common import current_index, first_column_heading, language, period_label
from rosters.report.build import frame, luck_section
from rosters.report.data import LINE, Chart, Report, Section, Series
from rosters.sheets import Column, Fact, Row, Table


def _weather_name(data: dict, written: str) -> str:
    if not written:
        return ""
    key = weather_key(data, written) or written
    for item in data.get("weather", {}).get("types", []):
        if item["key"] == key:
            return localized(item.get("name"), language())
    return key


def _victory_section(viewer: Viewer) -> Section:
    page = victory_page(viewer)
    facts: list[Fact] = []
    if page.is_dr and page.status is not None:
        facts.append(
            Fact(
                _("Victory points"),
                _("Axis %(axis)s – %(soviet)s Soviet")
                % {"axis": page.status.axis, "soviet": page.status.soviet},
            )
        )
        if page.automatic:
            facts.append(Fact(_("Automatic victory"), page.automatic))
    else:
        vp = str(page.vp_total) if page.vp_max is None else f"{page.vp_total} / {page.vp_max}"
        facts.append(Fact(_("Soviet VP"), vp))
        if page.level:
            facts.append(Fact(_("Level of victory"), page.level))
        for condition in page.conditions:
            facts.append(
                Fact(
                    condition["text"],
                    (_("met, %(vp)s VP") % {"vp": condition["vp"]})
                    if condition["met"]
                    else _("not met"),
                )
            )
    return Section(slug="victory", title=_("Victory"), facts=tuple(facts))


def _units_section(viewer: Viewer, sides: list[tuple[str, str]]) -> Section:
    """How many of each side's units are in each state now (the units page's rows, counted)."""
    counts: dict[tuple[str, str], int] = {
        (side, state): n
        for side, state, n in GameUnit.objects.filter(campaign=viewer.campaign)
        .order_by()
        .values_list("side", "state")
        .annotate(n=Count("id"))
    }
    states = [
        (key, label)
        for key, label in UnitState.choices
        if any(counts.get((side, key)) for side, _name in sides)
    ]
    table = Table(
        title=_("Units by state now"),
        columns=(
            Column(_("State"), width=2.0),
            *(Column(name, width=0.8, numeric=True) for _side, name in sides),
        ),
        rows=tuple(
            Row(cells=(str(label), *(str(counts.get((side, key), 0)) for side, _n in sides)))
            for key, label in states
        ),
        empty_text=_("No units entered yet."),
    )
    return Section(
        slug="units",
        title=_("Units"),
        tables=(table,),
        notes=(
            _(
                "The app keeps each unit's state, not the turn it lost a step in: losses per "
                "turn are not counted here."
            ),
        ),
    )


def short_report(viewer: Viewer) -> Report:
    campaign = viewer.campaign
    days = current_index(campaign) + 1
    labels = tuple(period_label(campaign, index) for index in range(days))
    data = short_games.game_data(campaign)
    calendar = {day.index: day for day in CampaignDay.objects.filter(campaign=campaign)}
    sums = turn_points.turn_sums(campaign)
    sides = [(side.key, side.name.in_language(language())) for side in campaign.sides]
    kinds = ((PointKind.REPLACEMENT, _("Replacement points")), (PointKind.AIR, _("Air points")))
    columns = [Column(first_column_heading(campaign), width=1.8), Column(_("Weather"), width=1.2)]
    for _key, name in sides:
        for _kind, kind_name in kinds:
            group = f"{name}: {kind_name}"
            columns += [
                Column(_("Received"), group, 0.6, True),
                Column(_("Spent"), group, 0.6, True),
                Column(_("Left"), group, 0.6, True),
            ]
    rows = []
    for index in range(days):
        day = calendar.get(index)
        cells = [period_label(campaign, index), _weather_name(data, day.weather if day else "")]
        for key, _name in sides:
            for kind, _kind_name in kinds:
                points = sums.get((index, key, kind), turn_points.TurnPoints())
                cells += [str(points.received), str(points.spent), str(points.left)]
        rows.append(Row(cells=tuple(cells), current=index == campaign.period_index))
    chart = Chart(
        slug="points",
        title=_("Replacement points received and spent per turn"),
        kind=LINE,
        labels=labels,
        series=tuple(
            Series(
                (_("%(side)s received") if not spent else _("%(side)s spent")) % {"side": name},
                tuple(
                    float(
                        getattr(
                            sums.get((i, key, PointKind.REPLACEMENT), turn_points.TurnPoints()),
                            "spent" if spent else "received",
                        )
                    )
                    for i in range(days)
                ),
                dashed=spent,
            )
            for key, name in sides
            for spent in (False, True)
        ),
        y_label=_("points"),
        summary=_("Each side's replacement points received and spent in each turn."),
    )
    turns = Section(
        slug="turns",
        title=_("Turn by turn"),
        tables=(Table(columns=tuple(columns), rows=tuple(rows)),),
        charts=(chart,),
    )
    return frame(
        viewer,
        [
            _victory_section(viewer),
            turns,
            _units_section(viewer, sides),
            luck_section(viewer, every_side=True),
        ],
        scope_note=_("Nothing in this game is secret: every member reads the same report."),
    )
