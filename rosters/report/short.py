"""The after-action report of a short game (Defiant Russia, Cherkassy Pocket): turn by turn the
weather and each side's replacement and air points, the victory status, the dice luck.

Figures come from the games' own functions: points from ``turn_points.turn_sums`` (its left is
``turn_points.balance``'s figure), the victory status from the victory page's builder
(``campaigns.shortgames.pages.victory.victory_page``), the steps lost per turn and the VP at each
turn's end from what ``campaigns.shortgames.per_turn`` booked (the current turn's VP: the victory
page's). Nothing in these games is secret, so every member reads the same report; the rolls still
pass ``viewer.filter_visible``.
"""

from __future__ import annotations

from django.db.models import Count
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import CampaignDay, GameUnit, PointKind, UnitState
from campaigns.shortgames import per_turn, turn_points
from campaigns.shortgames import services as short_games
from campaigns.shortgames.pages.victory import VictoryPage, victory_page, vp_by_side
from campaigns.shortgames.rules.common import weather_key
from rosters.builders.common import current_index, first_column_heading, language, period_label
from rosters.report.build import frame, luck_section
from rosters.report.data import BARS, LINE, Chart, Report, Section, Series
from rosters.sheets import Column, Fact, Row, Table


def _weather_name(data: dict, written: str) -> str:
    if not written:
        return ""
    key = weather_key(data, written) or written
    for item in data.get("weather", {}).get("types", []):
        if item["key"] == key:
            return localized(item.get("name"), language())
    return key


def _victory_section(page: VictoryPage) -> Section:
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
                "Steps lost are counted in the turn a unit was reduced, eliminated or put in a "
                "Recovery box; a unit removed from play is not a loss, and a restore or rebuild "
                "is counted as replacement points."
            ),
        ),
    )


def _losses_and_vp(
    viewer: Viewer,
    page: VictoryPage,
    sides: list[tuple[str, str]],
    labels: tuple[str, ...],
) -> Section:
    """Turn by turn each side's steps lost and units eliminated (as booked with the units'
    changes) and the VP at each turn's end (as recorded when the turn marker advanced; the
    current turn's as the victory page shows them now). Two queries, whatever the turns."""
    campaign = viewer.campaign
    days = len(labels)
    losses = per_turn.losses_per_turn(campaign)
    recorded = per_turn.vp_per_turn(campaign)
    now = vp_by_side(page)
    names = dict(sides)
    scoring = [(key, names.get(key, key)) for key in now]
    vp: dict[int, dict[str, int]] = {**recorded, campaign.period_index: now}
    columns = [Column(first_column_heading(campaign), width=1.8)]
    for _key, name in sides:
        columns += [
            Column(_("Steps lost"), name, 0.7, True),
            Column(_("Units eliminated"), name, 0.7, True),
        ]
    columns += [Column(name, _("VP at the turn's end"), 0.7, True) for _key, name in scoring]
    rows = []
    for index in range(days):
        cells = [labels[index]]
        for key, _name in sides:
            turn = losses.get((index, key), per_turn.TurnLosses())
            cells += [str(turn.steps), str(turn.eliminated)]
        for key, _name in scoring:
            value = vp.get(index, {}).get(key)
            cells.append("—" if value is None else str(value))
        rows.append(Row(cells=tuple(cells), current=index == campaign.period_index))
    lost_chart = Chart(
        slug="losses",
        title=_("Steps lost per turn"),
        kind=BARS,
        labels=labels,
        series=tuple(
            Series(
                name,
                tuple(
                    float(losses.get((i, key), per_turn.TurnLosses()).steps) for i in range(days)
                ),
            )
            for key, name in sides
        ),
        summary=_("The steps each side lost in each turn."),
    )
    vp_chart = Chart(
        slug="vp",
        title=_("Victory points per turn"),
        kind=LINE,
        labels=labels,
        series=tuple(
            Series(
                name,
                tuple(
                    None if vp.get(i, {}).get(key) is None else float(vp[i][key])
                    for i in range(days)
                ),
            )
            for key, name in scoring
        ),
        y_label=_("VP"),
        summary=_(
            "Each side's victory points at the end of each turn, the current turn's as they "
            "stand now."
        ),
    )
    return Section(
        slug="losses",
        title=_("Strength lost and victory points per turn"),
        tables=(Table(columns=tuple(columns), rows=tuple(rows)),),
        charts=(lost_chart, vp_chart),
        notes=(
            _(
                "The VP of a finished turn are those recorded as its turn marker advanced; "
                "“—”: the turn ended before the app recorded VP."
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
    page = victory_page(viewer)
    return frame(
        viewer,
        [
            _victory_section(page),
            turns,
            _losses_and_vp(viewer, page, sides, labels),
            _units_section(viewer, sides),
            luck_section(viewer, every_side=True),
        ],
        scope_note=_("Nothing in this game is secret: every member reads the same report."),
    )
