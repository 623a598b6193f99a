"""The short games' points stay balanced when a change is undone: no undo leaves a side's
replacement or air points of a turn below zero (points received taken back after some were spent
in the dice helper or on a unit). Registered with the history's undo
(``campaigns.history.services.UNDO_CHECKS``), the referee's undo included; a referee who wants
the points otherwise books an adjustment with a reason first."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import CampaignEvent, PointEntry, PointKind

POINT_ROW = PointEntry._meta.label_lower


def check_undo(event: CampaignEvent, steps: list[dict[str, Any]]) -> None:
    """Refuse the undo of ``event`` if a side's points of a turn would end below zero."""
    change: dict[tuple[str, int, str], int] = {}
    for step in steps:
        if step["model"] != POINT_ROW:
            continue
        if step["before"] is None and step["after"] is not None:  # the undo deletes the row
            row, sign = step["after"], -1
        elif step["after"] is None and step["before"] is not None:  # the undo makes it again
            row, sign = step["before"], 1
        else:
            continue
        # Cherkassy's air points count per activation segment (11.16; None elsewhere).
        key = (row.get("side", ""), row.get("index", 0), row.get("kind", ""), row.get("segment"))
        amount = sign * int(row.get("amount") or 0)
        change[(*key, None)] = change.get((*key, None), 0) + amount
        if row.get("front"):  # a Soviet Front's share of the air points (CP 11.16)
            change[(*key, row["front"])] = change.get((*key, row["front"]), 0) + amount
    for (side, index, kind, segment, front), delta in sorted(
        change.items(), key=lambda item: (*item[0][:3], item[0][3] or 0, item[0][4] or "")
    ):
        if delta >= 0:
            continue
        rows = PointEntry.objects.select_for_update(of=("self",)).filter(
            campaign=event.campaign, side=side, index=index, kind=kind, segment=segment
        )
        if front is not None:
            rows = rows.filter(front=front)
        list(rows)
        balance = rows.aggregate(total=Sum("amount"))["total"] or 0
        if balance + delta < 0:
            raise history.UndoError(
                _(
                    "Undoing this would leave the %(points)s at %(balance)s this turn. Undo "
                    "what spent them first, or the referee books an adjustment with a reason."
                )
                % {
                    "points": str(PointKind(kind).label).lower()
                    if kind in PointKind.values
                    else kind,
                    "balance": balance + delta,
                }
            )


history.UNDO_CHECKS.append(check_undo)
