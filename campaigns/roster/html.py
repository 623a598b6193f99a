"""The rows of the CG Roster's table and of the CPP/FPP ledgers, written as HTML in Python.

The same markup the templates wrote row by row (``templates/campaigns/roster/roster.html`` and
``ledger.html`` keep the table around them), escaped the same way; each word translated once per
table, not once per row. A template drew a roster day in ~0.3 ms and a ledger entry in
~0.15 ms (its variables, filters and ``{% url %}`` tags), which made these pages grow with the
campaign (docs/performance.md, branch ``sheets``); this writes one in ~20 µs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.urls import reverse
from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import Period, localized
from campaigns.games.rules import signed
from campaigns.models import Campaign, LedgerEntry, LedgerKind
from campaigns.roster.rows import RosterRow

# A line of the row inside the table, as the template indented it.
_CELL = "\n        "


def _side_name(side) -> str:
    return escape(localized(side.name, get_language())) if side else "—"


def _scenarios(row: RosterRow, text) -> str:
    return "<br>".join(text(cell) for cell in row.scenarios)


def roster_body(
    rows: Sequence[RosterRow],
    campaign: Campaign,
    side: str,
    *,
    rf_columns: bool,
    has_hist_drm: bool,
    has_adjustments: bool,
    can_edit: bool,
    edit_index: int | None = None,
) -> SafeString:
    """The roster table's ``<tr>`` rows, one per CG day."""
    language = get_language()
    current_word = escape(_("current"))
    unknown = f'<span class="unknown">{escape(_("unknown"))}</span>'
    not_announced = f'<abbr title="{escape(_("not yet announced"))}">†</abbr>'
    not_revealed = f'<abbr title="{escape(_("not yet revealed"))}">†</abbr>'
    not_reached = (
        f'<td colspan="{11 if has_adjustments else 10}" class="muted">'
        f"{escape(_('not reached yet'))}</td>"
    )
    night = escape(_("night"))
    idle_word = escape(_("Idle"))
    edit_word = escape(_("Edit"))
    # The side-day form's address with the day's index last (reversed once, not twice a row).
    edit_url = reverse("campaigns:side_day", args=[campaign.pk, side, 0])[: -len("0/")]
    out: list[str] = []
    add = out.append
    for row in rows:
        label = escape(localized(row.period.label, language))
        day = row.side_day
        add(
            f'\n      <tr id="day-{row.index}"'
            + (' aria-current="date"' if row.current else "")
            + (' class="editing"' if row.index == edit_index else "")
            + ">"
        )
        add(
            f'{_CELL}<th scope="row">{label}'
            + (f' <span class="muted">({current_word})</span>' if row.current else "")
            + "</th>"
        )
        add(_CELL)
        if rf_columns:
            add(f'<td class="moon">{escape(row.day.moon) if row.day else ""}</td>')
        add(f'{_CELL}<td class="weather">{escape(row.weather)}</td>')
        add(f'{_CELL}<td class="ec">{escape(row.ec)}</td>')
        add(_CELL)
        if has_hist_drm:
            if row.hist_drms:
                drm = "<br>".join(
                    f'<span class="hist-drm-group">{escape(group)} '
                    f"{unknown if value is None else escape(signed(value))}</span>"
                    for group, value in row.hist_drms
                )
            elif day is None or day.hist_drm is None:
                drm = unknown
            else:
                drm = escape(signed(day.hist_drm))
            add(f'<td class="num hist-drm">{drm}</td>')
        for name in ("elr", "san"):
            value = getattr(day, name) if day is not None else None
            mark = not_announced if value is not None and not day.elr_san_revealed else ""
            add(f'{_CELL}<td class="num {name}">{"" if value is None else value}{mark}</td>')
        add(_CELL)
        if row.future:
            add(f"{_CELL}{not_reached}{_CELL}")
        else:
            cpp, fpp = row.cpp, row.fpp
            repl = ""
            if cpp.repl is not None:
                repl = str(cpp.repl)
                if cpp.repl_by_group:
                    repl += f' <span class="repl-parts">({escape(row.repl_parts)})</span>'
            add(f'{_CELL}<td class="num cpp-start">{cpp.start}</td>')
            add(f'{_CELL}<td class="num cpp-repl">{repl}</td>')
            add(_CELL)
            if has_adjustments:
                adjustment = escape(signed(cpp.adjustment)) if cpp.adjustment else ""
                add(f'<td class="num cpp-adjustment">{adjustment}</td>')
            add(f'{_CELL}<td class="num cpp-total">{cpp.total}</td>')
            add(f'{_CELL}<td class="cpp-purchases">{escape(cpp.purchased)}</td>')
            add(f'{_CELL}<td class="num cpp-spent">{cpp.spent}</td>')
            add(f'{_CELL}<td class="num cpp-left">{cpp.left}</td>')
            recon = "" if cpp.recon is None else cpp.recon
            add(f'{_CELL}<td class="num cpp-recon">{recon}</td>')
            add(f'{_CELL}<td class="num fpp-available">{fpp.available}</td>')
            add(f'{_CELL}<td class="num fpp-spent">{fpp.spent}</td>')
            add(f'{_CELL}<td class="num fpp-lost">{fpp.lost}</td>{_CELL}')
        add(_CELL)
        if rf_columns:
            kinds = _scenarios(
                row,
                lambda cell: escape(cell.scenario_type) + (f" ({night})" if cell.night else ""),
            )
            attackers = _scenarios(row, lambda cell: _side_name(cell.attacker))
            add(f'<td class="scenario-type">{kinds}</td>')
            add(f'{_CELL}<td class="attacker">{attackers}</td>')
        winners = _scenarios(row, lambda cell: _side_name(cell.winner))
        add(f'{_CELL}<td class="winner">{winners}</td>')
        add(f'{_CELL}<td class="num cvp">{row.cvp or ""}</td>')
        add(_CELL)
        if rf_columns:
            chit = escape(row.chit)
            if row.chit and not (day is not None and day.chit_revealed):
                chit += not_revealed
            add(f'<td class="chit">{chit}</td>')
            add(f'{_CELL}<td class="idle">{idle_word if row.idle else ""}</td>')
        add(_CELL)
        if can_edit:
            url = f"{edit_url}{row.index}/"
            add(
                f'{_CELL}<td><a href="{url}"\n               hx-get="{url}" '
                'hx-target="#roster-body" hx-swap="outerHTML show:top">'
                f'{edit_word}<span class="visually-hidden"> {label}</span></a></td>{_CELL}'
            )
        add("\n      </tr>\n    ")
    return mark_safe("".join(out))  # noqa: S308 (every value above is escaped)


class LedgerRows:
    """Writes a ledger day's entry rows; the kinds' words are read once per page."""

    def __init__(self) -> None:
        self.language = get_language()
        self.kinds = {value: str(label) for value, label in LedgerKind.choices}
        # what the ``date:"SHORT_DATETIME_FORMAT"`` filter looks up for every entry
        self.when = get_format("SHORT_DATETIME_FORMAT")
        # Entries are booked a few a minute, and formatting a time costs ~20 µs: the times of
        # one page are formatted once per minute shown (when the format shows no seconds).
        # (nor the zone: in the hour a clock turns back, one local minute is two moments)
        self.to_minute = not set(self.when) & set("suvUcrBeOTIZ\\")
        self.formatted: dict[datetime, str] = {}

    def _when(self, moment: datetime) -> str:
        local = template_localtime(moment)
        key = local.replace(second=0, microsecond=0) if self.to_minute else local
        if key not in self.formatted:
            self.formatted[key] = dateformat.format(local, self.when)
        return self.formatted[key]

    def day(self, period: Period, entries: Iterable[LedgerEntry]) -> SafeString:
        """The ``<tr>`` of each entry, the day's label in the first cell of each."""
        label = escape(localized(period.label, self.language))
        out = []
        for entry in entries:
            by = escape(entry.created_by.get_username()) if entry.created_by else "—"
            when = self._when(entry.created_at)
            out.append(
                f"\n      <tr>{_CELL}<td>{label}</td>"
                f"{_CELL}<td>{escape(self.kinds.get(entry.kind, entry.kind))}</td>"
                f'{_CELL}<td class="num">{escape(signed(entry.amount))}</td>'
                f"{_CELL}<td>{escape(entry.rg)}</td>"
                f"{_CELL}<td>{escape(entry.note_text)}</td>"
                f"{_CELL}<td>{by}</td>"
                f"{_CELL}<td>{escape(when)}</td>\n      </tr>\n      "
            )
        return mark_safe("".join(out))  # noqa: S308 (every value above is escaped)
