"""Saving the Historical DRM chart: every changed cell in one transaction.

The values live where they always did, in each side's CG Roster row (``SideDay.hist_drm``), so
the roster, the purchase limits and the rolls read them as before. A save writes only the cells
the user changed, each refused when its row moved on since the page was shown
(``campaigns.state.save_versioned``): then nothing is saved. Each side's changed cells are one
history event, secret to that side like its roster, and undone together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.games.rules import signed
from campaigns.histdrm.chart import LIMIT
from campaigns.history import services as history
from campaigns.models import Campaign, SideDay
from campaigns.state import StaleEdit, StateError, check_day, check_side, save_versioned

ACTION = "side_day.hist_drm"


def has_chart(campaign: Campaign) -> bool:
    """Whether the campaign's game has a Historical DRM chart (Red Factories)."""
    return "historical_drm" in campaign.game.files


@dataclass(frozen=True)
class Edit:
    """One cell as the user set it, with the version of its row when the page was shown."""

    index: int
    side: str
    version: int
    value: int | None
    map_group: str = ""  # RF CG I: the map group's column (11.6161 prints RB CG and RO CG)

    @property
    def column(self) -> str:
        return column_key(self.side, self.map_group)


def column_key(side: str, map_group: str = "") -> str:
    """A column of the chart: a side, or in RF CG I a side on one map group ("german-RB")."""
    return f"{side}-{map_group}" if map_group else side


def cell_value(row: SideDay, map_group: str = "") -> int | None:
    """What a row holds for a column: its one value, or a map group's (RF CG I)."""
    if not map_group:
        return row.hist_drm
    value = (row.hist_drms or {}).get(map_group)
    return None if value is None else int(value)


class StaleChart(StaleEdit):
    """Rows changed since the page was shown; ``saved`` holds what they hold now."""

    def __init__(self, saved: dict[tuple[int, str], int | None]) -> None:
        # ``saved``: (CG day index, column key) → the value saved now.
        StateError.__init__(
            self,
            _(
                "Someone else changed the marked cells in the meantime; nothing was saved. Your "
                "values are still in the form, beside what is saved now: Save again to keep "
                "yours."
            ),
        )
        self.saved = saved


def value_text(value: int | None) -> str:
    return "?" if value is None else signed(value)


@transaction.atomic
def save_chart(campaign: Campaign, *, by: AbstractBaseUser, edits: Iterable[Edit]) -> int:
    """Write ``edits``; the number of cells written. Raises StaleChart (nothing written) when
    a row's version moved on, StateError for a day, side or value the chart cannot hold."""
    edits = list(edits)
    if not edits:
        return 0
    for edit in edits:
        check_day(campaign, edit.index)
        check_side(campaign, edit.side)
        if edit.value is not None and abs(edit.value) > LIMIT:
            raise StateError(
                _("A Historical DRM lies between −%(limit)s and +%(limit)s.") % {"limit": LIMIT}
            )
    rows = {
        (row.index, row.side): row
        for row in SideDay.objects.select_for_update(of=("self",)).filter(
            campaign=campaign,
            index__in={edit.index for edit in edits},
            side__in={edit.side for edit in edits},
        )
    }
    missing = [edit for edit in edits if (edit.index, edit.side) not in rows]
    if missing:
        raise StateError(_("That day is not in this campaign's calendar."))
    stale = {
        (edit.index, edit.column): cell_value(rows[edit.index, edit.side], edit.map_group)
        for edit in edits
        if rows[edit.index, edit.side].version != edit.version
    }
    if stale:
        raise StaleChart(stale)
    by_row: dict[tuple[int, str], list[Edit]] = {}
    for edit in edits:
        by_row.setdefault((edit.index, edit.side), []).append(edit)
    changes: dict[str, list] = {}
    texts: dict[str, list[str]] = {}
    for key in sorted(by_row):
        row = rows[key]
        before = history.snapshot(row)
        fields: dict[str, object] = {}
        groups = dict(row.hist_drms or {})
        for edit in by_row[key]:
            if edit.map_group:  # one save for the row's map groups: one version moves on
                if edit.value is None:
                    groups.pop(edit.map_group, None)
                else:
                    groups[edit.map_group] = edit.value
                fields["hist_drms"] = groups
            else:
                fields["hist_drm"] = edit.value
        save_versioned(row, by_row[key][0].version, fields)
        changes.setdefault(row.side, []).append((row, before, history.snapshot(row)))
        texts.setdefault(row.side, []).append(_row_text(row, by_row[key]))
    for side in campaign.game.side_keys:
        if side not in changes:
            continue
        history.record_change(
            campaign,
            by,
            "side_day.hist_drm",  # ACTION, as a literal: the history test reads it here
            visibility=side,
            changes=changes[side],
            side=side,
            indexes=[row.index for row, _before, _after in changes[side]],
            values=texts[side],
        )
    return len(edits)


def _row_text(row: SideDay, edits: list[Edit]) -> str:
    """A row's new value as the history shows it: "−2", or per map group "RB −1 RO ?"."""
    groups = [edit.map_group for edit in edits if edit.map_group]
    if not groups:
        return value_text(row.hist_drm)
    return " ".join(f"{group} {value_text(cell_value(row, group))}" for group in groups)
