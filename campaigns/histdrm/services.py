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


class StaleChart(StaleEdit):
    """Rows changed since the page was shown; ``saved`` holds what they hold now."""

    def __init__(self, saved: dict[tuple[int, str], int | None]) -> None:
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
        (edit.index, edit.side): rows[edit.index, edit.side].hist_drm
        for edit in edits
        if rows[edit.index, edit.side].version != edit.version
    }
    if stale:
        raise StaleChart(stale)
    changes: dict[str, list] = {}
    for edit in sorted(edits, key=lambda edit: edit.index):
        row = rows[edit.index, edit.side]
        before = history.snapshot(row)
        save_versioned(row, edit.version, {"hist_drm": edit.value})
        changes.setdefault(edit.side, []).append((row, before, history.snapshot(row)))
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
            values=[value_text(row.hist_drm) for row, _before, _after in changes[side]],
        )
    return len(edits)
