"""The CG Roster (RF 12.1, SaP 11.1): one row per CG day / time frame, one roster per side.

The filled roster shows what the roster page shows (campaigns.roster.rows), so a printout and
the screen never disagree; the blank form has the same columns with only the dates and the
values the rules print (the initial OB's CPP, ELR and SAN on the first day).
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from campaigns.games.rules import signed
from campaigns.models import Campaign
from campaigns.roster.rows import RosterRow, cpp_fpp_note, rf_columns, roster_rows
from campaigns.state import initial_ob
from rosters.builders.common import (
    first_column_heading,
    frame,
    period_label,
    side_label,
    side_name,
)
from rosters.sheets import Column, Row, Sheet, Table

Cell = Callable[[RosterRow], str]


def _multiples_note() -> str:
    return _("“×n” after an RG: bought n times that day, each for the CPP in brackets.")


def _announced(value: int | None, revealed: bool) -> str:
    if value is None:
        return ""
    return f"{value}" if revealed else f"{value}†"


def _side_day(row: RosterRow, name: str) -> int | None:
    return getattr(row.side_day, name) if row.side_day else None


def _hist_drm(row: RosterRow) -> str:
    """The day's Historical DRM; "?" until the referee enters it (11.6161)."""
    if row.hist_drms:  # RF CG I: one per map group (11.58), as the page shows them
        return " ".join(
            f"{group} {'?' if value is None else signed(value)}" for group, value in row.hist_drms
        )
    value = _side_day(row, "hist_drm")
    return "?" if value is None else signed(value)


def _repl(row: RosterRow) -> str:
    """Repl; in RF CG I with each map group's part, as the page shows it."""
    if row.cpp.repl is None:
        return ""
    return f"{row.cpp.repl} ({row.repl_parts})" if row.cpp.repl_by_group else str(row.cpp.repl)


def _cpp(value: Cell) -> Cell:
    """CPP and FPP cells stay blank on days not reached yet, as the page leaves them."""
    return lambda row: "" if row.future else value(row)


def _scenarios(value: Callable) -> Cell:
    return lambda row: " / ".join(value(cell) for cell in row.scenarios)


def _scenario_type(cell) -> str:
    return f"{cell.scenario_type} ({_('night')})" if cell.night else cell.scenario_type


def _columns(campaign: Campaign, has_adjustments: bool) -> list[tuple[Column, Cell]]:
    """The roster's columns in the printed form's order, then the app's own additions."""
    rf = rf_columns(campaign)
    cpp, fpp, scenario = _("CPP"), _("FPP"), _("Scenario")
    columns: list[tuple[Column, Cell]] = [
        (
            Column(first_column_heading(campaign), width=2.2),
            lambda row: period_label(campaign, row.index),
        ),
    ]
    if rf:
        columns += [
            (Column(_("Moon"), width=1.1), lambda row: row.day.moon if row.day else ""),
            (
                Column(_("Hist DRM"), width=0.9, numeric=True),
                _hist_drm,
            ),
        ]
    columns += [
        (Column(_("Weather"), width=1.3), lambda row: row.weather),
        (Column(_("EC"), width=1.2), lambda row: row.ec),
        (
            Column(_("ELR"), width=0.7, numeric=True),
            lambda row: _announced(
                _side_day(row, "elr"), bool(row.side_day and row.side_day.elr_san_revealed)
            ),
        ),
        (
            Column(_("SAN"), width=0.7, numeric=True),
            lambda row: _announced(
                _side_day(row, "san"), bool(row.side_day and row.side_day.elr_san_revealed)
            ),
        ),
        (Column(_("Start"), cpp, 0.8, True), _cpp(lambda row: str(row.cpp.start))),
        (
            Column(_("Repl"), cpp, 0.8, True),
            _cpp(_repl),
        ),
    ]
    if has_adjustments:
        columns.append(
            (
                Column(_("Referee adj."), cpp, 0.9, True),
                _cpp(lambda row: signed(row.cpp.adjustment) if row.cpp.adjustment else ""),
            )
        )
    columns += [
        (Column(_("Total"), cpp, 0.8, True), _cpp(lambda row: str(row.cpp.total))),
        (
            Column(_("RG purchased"), cpp, 2.6),
            _cpp(lambda row: row.cpp.purchased),
        ),
        (Column(_("Spent"), cpp, 0.8, True), _cpp(lambda row: str(row.cpp.spent))),
        (Column(_("Left"), cpp, 0.8, True), _cpp(lambda row: str(row.cpp.left))),
        (
            Column(_("Recon"), cpp, 0.8, True),
            _cpp(lambda row: "" if row.cpp.recon is None else str(row.cpp.recon)),
        ),
        (Column(_("Available"), fpp, 0.9, True), _cpp(lambda row: str(row.fpp.available))),
        (Column(_("Spent"), fpp, 0.8, True), _cpp(lambda row: str(row.fpp.spent))),
        (Column(_("Lost"), fpp, 0.8, True), _cpp(lambda row: str(row.fpp.lost))),
    ]
    if rf:
        columns += [
            (Column(_("Type"), scenario, 1.6), _scenarios(_scenario_type)),
            (Column(_("Attacker"), scenario, 1.2), _scenarios(lambda c: side_label(c.attacker))),
            (Column(_("Winner"), scenario, 1.2), _scenarios(lambda c: side_label(c.winner))),
        ]
    else:
        columns.append((Column(_("Winner"), width=1.2), _scenarios(lambda c: side_label(c.winner))))
    columns.append(
        (
            Column(_("CVP suffered"), width=0.9, numeric=True),
            lambda row: str(row.cvp) if row.cvp else "",
        )
    )
    if rf:
        columns += [
            (
                Column(_("Initiative chit"), width=1.1),
                lambda row: (
                    f"{row.chit}†"
                    if row.chit and not (row.side_day and row.side_day.chit_revealed)
                    else row.chit
                ),
            ),
            (Column(_("Idle day"), width=0.8), lambda row: _("Idle") if row.idle else ""),
        ]
    return columns


def _notes(campaign: Campaign, has_adjustments: bool) -> tuple[str, ...]:
    total = (
        _("Total = Start + Repl + referee adjustments (their own column).")
        if has_adjustments
        else _("Total = Start + Repl.")
    )
    return (
        _(
            "† not yet announced to the opponent. Repl is blank on the first day, as on the "
            "printed form."
        ),
        total,
        cpp_fpp_note(campaign),
        _("Hist DRM “?”: not known yet (the Historical DRM chart is entered by the referee)."),
    )


def _title(campaign: Campaign, side: str) -> str:
    return _("%(side)s CG Roster") % {"side": side_name(campaign, side)}


def roster(campaign: Campaign, side: str) -> Sheet:
    rows = roster_rows(campaign, side)
    has_adjustments = any(row.cpp.adjustment for row in rows)
    columns = _columns(campaign, has_adjustments)
    repl = [column.heading for column, _cell in columns].index(_("Repl"))
    table = Table(
        columns=tuple(column for column, _cell in columns),
        rows=tuple(
            Row(
                cells=tuple(cell(row) for _column, cell in columns),
                shaded=(repl,) if row.index == 0 else (),
                current=row.current,
            )
            for row in rows
        ),
    )
    notes = _notes(campaign, has_adjustments)
    if campaign.module != "red_factories":
        notes = notes[:-1]
    if any(row.cpp.has_multiples for row in rows):
        notes += (_multiples_note(),)
    return frame(
        campaign, side, kind="roster", title=_title(campaign, side), tables=(table,), notes=notes
    )


def blank_roster(campaign: Campaign, side: str) -> Sheet:
    """Every date of the CG pre-printed; the first day's values as the rules print them."""
    columns = [column for column, _cell in _columns(campaign, has_adjustments=False)]
    headings = [column.heading for column in columns]
    first = initial_ob(campaign).get(side, {})
    printed = {_("Start"): first.get("cpp"), _("ELR"): first.get("elr"), _("SAN"): first.get("san")}
    repl = headings.index(_("Repl"))
    rows = []
    for index in range(len(campaign.cg.periods)):
        cells = [""] * len(columns)
        cells[0] = period_label(campaign, index)
        if index == 0:
            for heading, value in printed.items():
                if value is not None:
                    cells[headings.index(heading)] = str(value)
        rows.append(Row(cells=tuple(cells), shaded=(repl,) if index == 0 else ()))
    return frame(
        campaign,
        side,
        kind="blank-roster",
        title=_title(campaign, side),
        tables=(Table(columns=tuple(columns), rows=tuple(rows)),),
        blank=True,
    )
