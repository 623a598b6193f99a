"""The boxes of a side's order-of-battle divider (11.15), as read from the database.

Shared by the page (campaigns.orbat.views) and the printed sheets (rosters.builders), so that a
printout shows exactly what the page shows. Access is not checked here: callers go through
campaigns.access first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from campaigns.models import Campaign, OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat.lifecycle import WAITING

# The divider's boxes other than one per RG awaiting entry.
FIXED_BOXES = [box for box in OrbatBox if box not in (OrbatBox.RG, OrbatBox.ARRIVING)]

Line = TypeVar("Line")


@dataclass
class DividerBox(Generic[Line]):
    box: str  # an OrbatBox value
    lines: list[Line]
    group: ReinforcementGroup | None = None


def side_groups(campaign: Campaign, side: str) -> list[ReinforcementGroup]:
    """The side's RGs in the divider's order: by day, then id and number."""
    return list(
        ReinforcementGroup.objects.filter(campaign=campaign, side=side).order_by(
            "index", "rg_id", "number", "id"
        )
    )


def side_lines(campaign: Campaign, side: str) -> list[OrbatEntry]:
    return list(OrbatEntry.objects.filter(campaign=campaign, side=side).order_by("id"))


def divider_boxes(
    groups: Iterable[ReinforcementGroup],
    lines: Iterable[tuple[OrbatEntry, Line]],
) -> list[DividerBox[Line]]:
    """Retained first, then a SaP time frame's arriving units (when there are any), one box per
    RG awaiting entry, then the other fixed boxes.

    ``lines`` pairs each entry with what the caller shows for it (a page row, or the entry
    itself). An RG no longer waiting (campaigns.orbat.lifecycle.WAITING: bought, rolled, awaiting
    entry) keeps its box only while lines are still in it.
    """
    by_box: dict[tuple[str, int | None], list[Line]] = defaultdict(list)
    for entry, shown in lines:
        by_box[(entry.box, entry.group_id)].append(shown)
    rg_boxes = [
        DividerBox(OrbatBox.RG.value, by_box.get((OrbatBox.RG, group.pk), []), group)
        for group in groups
        if group.status in WAITING or (OrbatBox.RG, group.pk) in by_box
    ]
    fixed = {box: DividerBox(box.value, by_box.get((box.value, None), [])) for box in FIXED_BOXES}
    # SaP time-frame reinforcements outside RGs (issue 16): shown while some are in it; the app
    # fills it, players move lines out of it (never into it).
    arriving = by_box.get((OrbatBox.ARRIVING.value, None))
    return [
        fixed[OrbatBox.RETAINED],
        *([DividerBox(OrbatBox.ARRIVING.value, arriving)] if arriving else []),
        *rg_boxes,
        *(fixed[box] for box in FIXED_BOXES if box != OrbatBox.RETAINED),
    ]
