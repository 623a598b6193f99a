"""The after-action report of a Red Factories / Slaughter at Ponyri campaign, as one viewer may
read it (rosters.report.data).

Every figure is read from the function the campaign's own pages use — none is computed a
second time here:

* CPP per day (Start, Repl, Total, Spent, Left, recon) and ELR/SAN: ``campaigns.roster.rows
  .roster_rows``, the CG Roster's rows;
* RGs bought and how they were rolled: ``refit.purchases.records.rg_purchase_record``, the RG
  Purchase Record's rows;
* CVP each way per scenario: ``campaigns.records.cvp_counts.scenario_cvp`` (the scenarios
  page); the running CVP Tally: ``cvp_counts.cvp_days`` (the CVP page);
* scenario record: ``campaigns.records.balance.win_loss`` (the summary sheet);
* Perimeter Area: ``refit.perimeters.recording.summary`` of each recorded perimeter (the
  history's words for it);
* dice luck: ``rosters.report.luck`` over the rolls' unmodified totals.

What the viewer may see comes from ``campaigns.access`` alone: a side's CPP, RGs and rolls
appear for the sides in ``viewer.visible_sides()``, rolls as ``viewer.filter_visible`` lets
through; calendar, scenarios, CVP and recorded perimeters are public. When the access module
lets a viewer see both sides (the referee; everyone once a campaign is revealed), the report
shows both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.compiled import Reader, Tables
from campaigns.games.names import table_name
from campaigns.games.registry import localized
from campaigns.games.weather import ec_types_of, label_of, types_of
from campaigns.models import CampaignDay, RefitPhase, RollTotal, Scenario, ScenarioType
from campaigns.records.balance import win_loss
from campaigns.records.cvp_counts import CvpLine, cvp_days, cvp_lines, rules_for, scenario_cvp
from campaigns.roster.rows import RosterRow, roster_rows
from refit.models import PerimeterState
from refit.perimeters.recording import summary as perimeter_summary
from refit.purchases.records import RgRecordRow, rg_purchase_record
from rosters.builders.common import current_index, first_column_heading, language, period_label
from rosters.report import luck as dice_luck
from rosters.report.data import BARS, LINE, Chart, Link, Report, Section, Series
from rosters.sheets import Column, Fact, Row, Table

# The report's own queries, compiled once (campaigns.compiled: the ORM's
# compilation costs more than their SQL); the campaign, and the scopes the viewer may see, given
# at each run.
SCENARIO_FIELDS = ("id", "index", "sequence", "scenario_type", "night", "attacker", "winner")
SCENARIOS, DAYS, FINISHED, RECORDED = range(4)
# The campaign's scenarios, CG days, finished Refit Phases (their outcome) and recorded perimeters
# from one query (campaigns.compiled.Tables), each table in its own order.
_TABLES = Tables(
    Scenario,
    lambda campaign: [
        (
            Scenario.objects.filter(campaign_id=campaign).order_by("index", "sequence", "id"),
            SCENARIO_FIELDS,
        ),
        (
            CampaignDay.objects.filter(campaign_id=campaign).order_by("index", "id"),
            ("index", "weather", "ec"),
        ),
        (
            RefitPhase.objects.filter(campaign_id=campaign, finished_at__isnull=False).order_by(
                "started_at", "id"
            ),
            ("index", "outcome"),
        ),
        (
            PerimeterState.objects.filter(campaign_id=campaign)
            .exclude(recorded={})
            .order_by("index", "id"),
            ("index", "recorded"),
        ),
    ],
)


class ScenarioRow(NamedTuple):
    """A scenario's columns the report reads (``SCENARIO_FIELDS``)."""

    pk: int
    index: int
    sequence: int
    scenario_type: str
    night: bool
    attacker: str
    winner: str


class DayRow(NamedTuple):
    index: int
    weather: str
    ec: str


# The rolls not voided, counted per scope, side, table, kind and total: the database keeps the
# counts (``RollTotal``), so the report reads a row per kind of roll, not one per roll.
_ROLL_COUNTS = Reader(
    RollTotal,
    lambda campaign, scopes: (
        RollTotal.objects.filter(campaign_id=campaign, visibility__in=scopes)
        .order_by()
        .values_list("side", "table_id", "kind", "original", "rolls")
    ),
)


def _announced(value: int | None, revealed: bool) -> str:
    if value is None:
        return ""
    return f"{value}" if revealed else f"{value}†"


def _number(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def sides_in_words(viewer: Viewer) -> str:
    names = [
        viewer.campaign.side(key).name.in_language(language()) for key in viewer.visible_sides()
    ]
    return ", ".join(names) if names else _("public facts only")


def frame(
    viewer: Viewer,
    sections: Sequence[Section],
    notes: Sequence[str] = (),
    *,
    scope_note: str | None = None,
) -> Report:
    campaign = viewer.campaign
    cg = campaign.cg
    if scope_note is None:
        scope_note = _(
            "This copy shows the secrets of: %(sides)s. Calendar, scenarios, CVP and recorded "
            "perimeters are public."
        ) % {"sides": sides_in_words(viewer)}
    return Report(
        title=_("After-action report"),
        campaign=campaign.name,
        campaign_game=cg.title.in_language(language()),
        date=period_label(campaign, current_index(campaign)),
        data_version=campaign.data_version,
        language=language(),
        shown_sides=sides_in_words(viewer),
        scope_note=scope_note,
        sections=tuple(sections),
        notes=tuple(notes),
    )


# --- the calendar and the scenarios (public) -------------------------------------------------


def _scenario_type(scenario: ScenarioRow) -> str:
    label = (
        ScenarioType(scenario.scenario_type).label
        if scenario.scenario_type in ScenarioType.values
        else scenario.scenario_type
    )
    return f"{label} ({_('night')})" if scenario.night else str(label)


def _days_section(
    viewer: Viewer,
    days: int,
    scenarios: list[ScenarioRow],
    calendar_days: list[DayRow],
    cvp_by_scenario,
) -> Section:
    campaign = viewer.campaign
    names = {side.key: side.name.in_language(language()) for side in campaign.sides}
    calendar = {day.index: day for day in calendar_days}
    weathers, ecs = types_of(campaign.game.files), ec_types_of(campaign.game.files)
    by_day: dict[int, list[ScenarioRow]] = defaultdict(list)
    for scenario in sorted(scenarios, key=lambda s: (s.index, s.sequence)):
        by_day[scenario.index].append(scenario)
    columns = (
        Column(first_column_heading(campaign), width=1.6),
        Column(_("Weather"), width=1.2),
        Column(_("EC"), width=1.0),
        Column(_("Scenario"), width=1.6),
        Column(_("Attacker"), width=1.1),
        Column(_("Winner"), width=1.1),
        *(
            Column(_("CVP lost by %(side)s") % {"side": name}, width=0.9, numeric=True)
            for name in names.values()
        ),
    )
    rows = []
    reader = language()
    # Each stored weather and EC put in words once (a campaign repeats a handful of them).
    words: dict[tuple[int, str], str] = {}

    def label(kind: int, types, stored: str) -> str:
        found = words.get((kind, stored))
        if found is None:
            found = words[kind, stored] = label_of(types, stored, reader)
        return found

    for index in range(days):
        day = calendar.get(index)
        weather = label(0, weathers, day.weather) if day else ""
        ec = label(1, ecs, day.ec) if day else ""
        played = by_day.get(index, [])
        if not played:
            idle = _("Idle day") if index < campaign.period_index else ""
            cells = (period_label(campaign, index), weather, ec, idle, "", "")
            rows.append(
                Row(cells=cells + ("",) * len(names), current=index == campaign.period_index)
            )
            continue
        for scenario in played:
            lost = cvp_by_scenario.get(scenario.pk, {})
            rows.append(
                Row(
                    cells=(
                        period_label(campaign, index),
                        weather,
                        ec,
                        _scenario_type(scenario),
                        names.get(scenario.attacker, "—"),
                        names.get(scenario.winner, "—"),
                        *(str(lost.get(key, 0)) for key in names),
                    ),
                    current=index == campaign.period_index,
                )
            )
    return Section(
        slug="days",
        title=_("Day by day"),
        tables=(Table(columns=columns, rows=tuple(rows), empty_text=_("Nothing recorded yet.")),),
        notes=(
            _(
                "CVP each way: the CVP each side lost in the scenario as its victory "
                "conditions count them (11.6031)."
            ),
        ),
    )


def _running_tally(
    campaign, days: int, lines: list[CvpLine]
) -> tuple[list[str], dict[str, list[int]], dict[str, int]]:
    """Each side's CVP Tally through each day (the CVP page's running figures) and its total."""
    keys = [side.key for side in campaign.sides]
    per_day, totals = cvp_days(lines, keys, rules_for(campaign.module))
    running = dict.fromkeys(keys, 0)
    through: dict[int, list] = dict(per_day)
    series: dict[str, list[int]] = {key: [] for key in keys}
    for index in range(days):
        if index in through:
            for key, sums in zip(keys, through[index], strict=True):
                running[key] = sums.running
        for key in keys:
            series[key].append(running[key])
    return keys, series, {key: sums.tally for key, sums in zip(keys, totals, strict=True)}


def _cvp_section(
    viewer: Viewer, days: int, labels: tuple[str, ...], lines: list[CvpLine]
) -> Section:
    campaign = viewer.campaign
    keys, series, totals = _running_tally(campaign, days, lines)
    names = {side.key: side.name.in_language(language()) for side in campaign.sides}
    chart = Chart(
        slug="cvp",
        title=_("Cumulative CVP suffered"),
        kind=LINE,
        labels=labels,
        series=tuple(Series(names[key], tuple(series[key])) for key in keys),
        y_label=_("CVP"),
        summary=_("The CVP Tally of each side through each day: %(totals)s.")
        % {"totals": ", ".join(f"{names[key]} {totals[key]}" for key in keys)},
    )
    return Section(
        slug="cvp",
        title=_("CVP"),
        facts=tuple(
            Fact(_("CVP suffered by %(side)s") % {"side": names[k]}, str(totals[k])) for k in keys
        ),
        charts=(chart,),
    )


# --- each side's CPP and RGs (the side's secrets) --------------------------------------------


def _side_cpp_table(viewer: Viewer, side: str, rows: list[RosterRow], days: int) -> Table:
    campaign = viewer.campaign
    columns = (
        Column(first_column_heading(campaign), width=1.6),
        Column(_("ELR"), width=0.5, numeric=True),
        Column(_("SAN"), width=0.5, numeric=True),
        Column(_("Start"), _("CPP"), 0.6, True),
        Column(_("Repl"), _("CPP"), 0.6, True),
        Column(_("Total"), _("CPP"), 0.6, True),
        Column(_("Spent"), _("CPP"), 0.6, True),
        Column(_("On what"), _("CPP"), 2.4),
        Column(_("Recon"), _("CPP"), 0.6, True),
        Column(_("Left"), _("CPP"), 0.6, True),
    )
    body = []
    for row in rows[:days]:
        side_day = row.side_day
        revealed = bool(side_day and side_day.elr_san_revealed)
        body.append(
            Row(
                cells=(
                    period_label(campaign, row.index),
                    _announced(side_day.elr if side_day else None, revealed),
                    _announced(side_day.san if side_day else None, revealed),
                    str(row.cpp.start),
                    "" if row.cpp.repl is None else str(row.cpp.repl),
                    str(row.cpp.total),
                    str(row.cpp.spent),
                    row.cpp.purchased,
                    str(row.cpp.recon_cpp) if row.cpp.recon_cpp else "",
                    str(row.cpp.left),
                ),
                current=row.current,
            )
        )
    name = campaign.side(side).name.in_language(language())
    return Table(
        title=_("%(side)s: CPP per day") % {"side": name}, columns=columns, rows=tuple(body)
    )


def _rg_table(viewer: Viewer, side: str, record: Sequence[RgRecordRow]) -> Table:
    name = viewer.campaign.side(side).name.in_language(language())
    columns = (
        Column(first_column_heading(viewer.campaign), width=1.4),
        Column(_("RG"), width=0.7),
        Column(_("Group type"), width=2.0),
        Column(_("CPP"), width=0.5, numeric=True),
        Column(_("Str"), width=0.5),
        Column(_("#Units"), width=0.6, numeric=True),
        Column(_("SW / Guns"), width=1.6),
        Column(_("Leaders"), width=1.2),
        Column(_("Status"), width=1.1),
    )
    return Table(
        title=_("%(side)s: RGs and how they were rolled") % {"side": name},
        columns=columns,
        rows=tuple(
            Row(
                cells=(
                    row.day,
                    row.label,
                    row.group_type,
                    str(row.cpp_cost) if row.source == "purchased" else "",
                    row.strength
                    or (_("not rolled") if row.source == "purchased" and not row.received else ""),
                    "" if row.units is None else str(row.units),
                    row.sw_guns,
                    row.leaders,
                    row.status_label,
                )
            )
            for row in record
        ),
        empty_text=_("None."),
    )


def _rg_window(
    viewer: Viewer, side: str, window: int | None
) -> tuple[Sequence[RgRecordRow], Link | None]:
    """The side's RG Purchase Record rows the report lists: every one, or (``window``, the
    page) the last ``window`` in the record's order and, when there are more, a link to the
    record's own pages (one query either way: a row past the window says there are more)."""
    campaign = viewer.campaign
    record = rg_purchase_record(campaign, side)
    if window is None:
        return record, None
    last = record.last(window + 1)
    if len(last) <= window:
        return last, None
    name = campaign.side(side).name.in_language(language())
    link = Link(
        _(
            "%(side)s: the last %(shown)s RGs are listed here; all of them are in the RG "
            "Purchase Record and in this report's PDF."
        )
        % {"side": name, "shown": window},
        reverse("purchases:record", args=[campaign.pk, side]),
    )
    return last[1:], link


def _cpp_section(
    viewer: Viewer,
    days: int,
    labels: tuple[str, ...],
    rosters: dict[str, list[RosterRow]],
    window: int | None = None,
) -> Section:
    campaign = viewer.campaign
    tables: list[Table] = []
    series: list[Series] = []
    links: list[Link] = []
    for side in viewer.visible_sides():
        rows = rosters[side]
        name = campaign.side(side).name.in_language(language())
        tables.append(_side_cpp_table(viewer, side, rows, days))
        record, link = _rg_window(viewer, side, window)
        tables.append(_rg_table(viewer, side, record))
        if link is not None:
            links.append(link)
        series.append(
            Series(
                _("%(side)s available") % {"side": name},
                tuple(float(row.cpp.total) for row in rows[:days]),
            )
        )
        series.append(
            Series(
                _("%(side)s spent") % {"side": name},
                tuple(float(row.cpp.spent) for row in rows[:days]),
                dashed=True,
            )
        )
    if not tables:
        return Section(
            slug="cpp",
            title=_("CPP and RGs"),
            notes=(
                _(
                    "Each side's CPP, purchases and rolls are secret to its players and "
                    "the referee."
                ),
            ),
        )
    chart = Chart(
        slug="cpp",
        title=_("CPP available and spent per day"),
        kind=LINE,
        labels=labels,
        series=tuple(series),
        y_label=_("CPP"),
        summary=_("CPP available (Total) and spent on RGs each day, per side."),
    )
    return Section(
        slug="cpp",
        title=_("CPP and RGs"),
        tables=tuple(tables),
        charts=(chart,),
        links=tuple(links),
        notes=(
            _(
                "Total = Start + Repl (+ referee adjustments); Left = Total − Spent − recon. "
                "† ELR/SAN not yet announced to the opponent."
            ),
        ),
    )


# --- perimeters (public) ---------------------------------------------------------------------


def perimeter_areas(recorded_rows: list[tuple[int, dict]]) -> dict[int, dict[str, int]]:
    """Each day's recorded perimeter: the hexes in each side's Perimeter Area (the last record
    of the day), from the recorded perimeters in their order (``RECORDED``)."""
    found: dict[int, dict[str, int]] = {}
    for index, recorded in recorded_rows:
        if recorded and "perimeter_area" in recorded:
            found[index] = perimeter_summary(recorded)["areas"]
    return found


def _perimeter_section(
    viewer: Viewer, days: int, labels: tuple[str, ...], recorded_rows: list[tuple[int, dict]]
) -> Section | None:
    campaign = viewer.campaign
    if "maps" not in campaign.game.files:
        return None
    areas = perimeter_areas(recorded_rows)
    names = {side.key: side.name.in_language(language()) for side in campaign.sides}
    map_url = reverse("rosters:perimeter_map", args=[campaign.pk])
    rows = tuple(
        Row(
            cells=(
                period_label(campaign, index),
                *(str(areas[index].get(key, 0)) for key in names),
            )
        )
        for index in sorted(areas)
        if index < days
    )
    table = Table(
        columns=(
            Column(first_column_heading(campaign), width=1.6),
            *(
                Column(_("%(side)s Perimeter Area (hexes)") % {"side": n}, width=1.0, numeric=True)
                for n in names.values()
            ),
        ),
        rows=rows,
        empty_text=_("No perimeter recorded yet."),
    )
    chart = Chart(
        slug="perimeter",
        title=_("Perimeter Area per day"),
        kind=LINE,
        labels=labels,
        series=tuple(
            Series(
                name,
                tuple(
                    float(areas[i][key]) if i in areas and key in areas[i] else None
                    for i in range(days)
                ),
            )
            for key, name in names.items()
        ),
        y_label=_("hexes"),
        summary=_(
            "The number of hexes in each side's Perimeter Area on each day a perimeter was "
            "recorded."
        ),
    )
    links = tuple(
        Link(
            _("Reduced map, %(day)s (PDF)") % {"day": period_label(campaign, index)},
            f"{map_url}?day={index}",
        )
        for index in sorted(areas)
        if index < days
    )
    return Section(
        slug="perimeters",
        title=_("Perimeters"),
        tables=(table,),
        charts=(chart,) if areas else (),
        links=links,
    )


# --- dice luck -------------------------------------------------------------------------------


def _luck_sides(viewer: Viewer, every_side: bool) -> list[str]:
    """The sides whose dice luck the viewer reads: those whose secrets the viewer sees — a side
    counted on its public rolls alone would be a wrong figure. ``every_side``: a game with no
    secret rolls (the short games)."""
    return list(viewer.campaign.game.side_keys) if every_side else viewer.visible_sides()


def roll_counts(
    viewer: Viewer, every_side: bool = False
) -> dict[str, dict[tuple[str, str], dict[int, int]]]:
    """The rolls the viewer may see, not voided, counted per side, (table, kind) and total —
    of the sides whose luck the viewer reads, and the rolls made for no side (one query of the
    kept counts, summed here over the scopes)."""
    sides = set(_luck_sides(viewer, every_side))
    counted: dict[str, dict[tuple[str, str], dict[int, int]]] = {}
    rows = _ROLL_COUNTS(viewer.campaign.pk, viewer.visible_scopes())
    for side, table_id, kind, total, times in rows:
        if side and side not in sides:
            continue
        if kind not in dice_luck.KINDS or total not in dice_luck.faces(kind):
            continue
        tables = counted.setdefault(side, {})
        totals = tables.setdefault((table_id, kind), {})
        totals[total] = totals.get(total, 0) + times
    return counted


def luck_section(viewer: Viewer, every_side: bool = False) -> Section:
    counted = roll_counts(viewer, every_side)
    campaign = viewer.campaign
    owners = [*_luck_sides(viewer, every_side), ""]
    tables: list[Table] = []
    charts: list[Chart] = []
    for owner in owners:
        found = counted.get(owner)
        if not found:
            continue
        name = (
            campaign.side(owner).name.in_language(language()) if owner else _("Rolls for no side")
        )
        rows = []
        overall: dict[str, dict[int, int]] = {}
        for (table_id, kind), totals in sorted(
            found.items(), key=lambda item: (item[0][1], item[0][0])
        ):
            measured = dice_luck.luck(kind, totals)
            merged = overall.setdefault(kind, {})
            for total, times in totals.items():
                merged[total] = merged.get(total, 0) + times
            rows.append(
                _luck_row(
                    table_name(table_id, language()) if table_id else _("Other rolls"), measured
                )
            )
        for kind in dice_luck.KINDS:
            if kind not in overall:
                continue
            measured = dice_luck.luck(kind, overall[kind])
            rows.append(_luck_row(_("All %(kind)s rolls") % {"kind": kind}, measured))
            charts.append(_luck_chart(owner or "none", name, measured))
        tables.append(
            Table(
                title=name,
                columns=(
                    Column(_("Table"), width=2.6),
                    Column(_("Roll"), width=0.5),
                    Column(_("Rolls"), width=0.6, numeric=True),
                    Column(_("Mean"), width=0.6, numeric=True),
                    Column(_("Fair dice"), width=0.6, numeric=True),
                    Column(_("Chi-square"), width=0.7, numeric=True),
                    Column(_("p"), width=0.6, numeric=True),
                    Column(_("Mean percentile"), width=0.8, numeric=True),
                ),
                rows=tuple(rows),
            )
        )
    notes = (
        _(
            "Each table's rolls (unmodified, voided rolls left out) against fair dice. p: the "
            "chance fair dice would stray at least this far from the expected counts (small = "
            "unusual). Mean percentile: 50 is exactly average; 95 means only 5 % of fair rolls "
            "average higher."
        ),
    )
    if not _luck_sides(viewer, every_side):
        notes += (_("Each side's rolls are counted for its players and the referee."),)
    return Section(
        slug="luck",
        title=_("Dice luck"),
        tables=tuple(tables),
        charts=tuple(charts),
        notes=notes,
    )


def _luck_row(label: str, measured: dice_luck.Luck) -> Row:
    return Row(
        cells=(
            label,
            measured.kind,
            str(measured.rolls),
            _number(measured.mean, 2),
            _number(measured.expected_mean, 2),
            _number(measured.chi_square, 1),
            _number(measured.p_value, 2),
            _number(measured.mean_percentile, 0),
        )
    )


def _luck_chart(owner: str, name: str, measured: dice_luck.Luck) -> Chart:
    return Chart(
        slug=f"luck-{owner}-{measured.kind.lower()}{'2' if measured.kind == 'DR' else '1'}",
        title=_("%(side)s: %(kind)s totals rolled against fair dice")
        % {"side": name, "kind": measured.kind},
        kind=BARS,
        labels=tuple(str(total) for total, _times in measured.counts),
        series=(
            Series(_("Rolled"), tuple(float(times) for _total, times in measured.counts)),
            Series(
                _("Fair dice"),
                tuple(round(expected, 2) for _total, expected in measured.expected_counts()),
                dashed=True,
            ),
        ),
        y_label=_("rolls"),
        summary=_("%(n)s %(kind)s rolls, mean %(mean)s against %(fair)s for fair dice; p = %(p)s.")
        % {
            "n": measured.rolls,
            "kind": measured.kind,
            "mean": _number(measured.mean, 2),
            "fair": _number(measured.expected_mean, 2),
            "p": _number(measured.p_value, 2),
        },
    )


# --- the CG's victory conditions -------------------------------------------------------------


def _victory_section(
    viewer: Viewer, scenarios: list[ScenarioRow], finished: list[tuple[int, dict | None]]
) -> Section:
    campaign = viewer.campaign
    definition = (
        campaign.game.files.get("campaign_games", {})
        .get("campaign_games", {})
        .get(campaign.campaign_game)
        or {}
    )
    victory = definition.get("victory") or {}
    winners = [
        scenario.winner for scenario in sorted(scenarios, key=lambda s: (s.index, s.sequence))
    ]
    facts = [
        Fact(_("CG victory conditions"), localized(victory.get("campaign"), language()) or "—")
    ]
    for side in campaign.sides:
        won, lost = win_loss(winners, side.key)
        facts.append(
            Fact(
                _("%(side)s scenario record") % {"side": side.name.in_language(language())},
                _("%(won)s won, %(lost)s lost") % {"won": won, "lost": lost},
            )
        )
    won_on = [
        (index, (outcome or {}).get("cg_winner") or "")
        for index, outcome in finished
        if (outcome or {}).get("cg_won")
    ]
    last = len(campaign.cg.periods) - 1
    side_names = {side.key: side.name.in_language(language()) for side in campaign.sides}
    if won_on and won_on[0][1] in side_names:
        standing = _(
            "The %(side)s side met its CG victory conditions (recorded after %(day)s): the CG "
            "is over."
        ) % {"side": side_names[won_on[0][1]], "day": period_label(campaign, won_on[0][0])}
    elif won_on:
        standing = _(
            "A side met its CG victory conditions (recorded after %(day)s): the CG is over."
        ) % {"day": period_label(campaign, won_on[0][0])}
    elif campaign.period_index >= last:
        standing = _("The CG has reached its last %(period)s.") % {
            "period": first_column_heading(campaign)
        }
    else:
        standing = _(
            "No side has met its CG victory conditions so far (as recorded at the end of "
            "each Refit Phase)."
        )
    facts.append(Fact(_("How they stand"), standing))
    return Section(slug="victory", title=_("CG victory conditions"), facts=tuple(facts))


# --- the report ------------------------------------------------------------------------------


def campaign_report(viewer: Viewer, *, window: int | None = None) -> Report:
    campaign = viewer.campaign
    days = current_index(campaign) + 1
    labels = tuple(period_label(campaign, index) for index in range(days))
    read = _TABLES.by_table(campaign.pk)
    scenarios = [ScenarioRow(*row) for row in read.get(SCENARIOS, ())]
    lines = cvp_lines(campaign)
    cvp_by_scenario = scenario_cvp(
        lines,
        {scenario.pk: scenario.index for scenario in scenarios},
        rules_for(campaign.module),
    )
    rosters = {side: roster_rows(campaign, side) for side in viewer.visible_sides()}
    sections = [
        _victory_section(viewer, scenarios, read.get(FINISHED, [])),
        _days_section(
            viewer, days, scenarios, [DayRow(*row) for row in read.get(DAYS, ())], cvp_by_scenario
        ),
        _cvp_section(viewer, days, labels, lines),
        _cpp_section(viewer, days, labels, rosters, window),
        _perimeter_section(viewer, days, labels, read.get(RECORDED, [])),
        luck_section(viewer),
    ]
    return frame(viewer, [section for section in sections if section is not None])
