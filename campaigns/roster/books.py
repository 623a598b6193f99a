"""The books stay balanced when a change is undone: no undo leaves a side's CPP or FPP of any
CG day below zero (a credit taken back after it was spent, a take-back undone after the points
went elsewhere). Registered with the history's undo (``campaigns.history.services.UNDO_CHECKS``)
so that it holds for every action that touched a ledger row, the referee's undo included; a
referee who wants the books otherwise adjusts the ledger with a reason first.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.history.labels import side_label
from campaigns.models import CampaignEvent, LedgerEntry
from campaigns.periods import day_label
from campaigns.roster.ledger import Movement, new_shortfalls

LEDGER_ROW = LedgerEntry._meta.label_lower


def _movement(row: dict[str, Any]) -> Movement:
    return Movement(row["index"], row["kind"], row["amount"], row.get("rg", ""))


def check_undo(event: CampaignEvent, steps: list[dict[str, Any]]) -> None:
    """Refuse the undo of ``event`` if it would take a day of a ledger it touches below zero."""
    removed: dict[tuple[str, str], set[int]] = {}
    added: dict[tuple[str, str], list[Movement]] = {}
    for step in steps:
        if step["model"] != LEDGER_ROW:
            continue
        row = step["before"] or step["after"] or {}
        key = (row.get("side", ""), row.get("ledger", ""))
        if step["before"] is None:  # the change made the row: its undo deletes it
            removed.setdefault(key, set()).add(step["pk"])
        elif step["after"] is None:  # the change deleted the row: its undo makes it again
            added.setdefault(key, []).append(_movement(step["before"]))
    campaign = event.campaign
    day_count = len(campaign.cg.periods)
    for side, ledger in sorted(set(removed) | set(added)):
        # Locked: what is judged here stays true until the undo commits.
        rows = list(
            LedgerEntry.objects.select_for_update(of=("self",))
            .filter(campaign=campaign, side=side, ledger=ledger)
            .values_list("pk", "index", "kind", "amount", "rg")
        )
        gone = removed.get((side, ledger), set())
        before = [Movement(*row[1:]) for row in rows]
        after = [Movement(*row[1:]) for row in rows if row[0] not in gone]
        after += added.get((side, ledger), [])
        try:
            short = new_shortfalls(ledger, day_count, before, after)
        except ValueError:  # a row outside the calendar: nothing this check can judge
            continue
        if short:
            index = min(short)
            raise history.UndoError(
                _(
                    "Undoing this would leave %(side)s %(ledger)s at %(balance)s on %(day)s. "
                    "Undo what spent them first, or the referee adjusts the ledger with a reason."
                )
                % {
                    "side": side_label(campaign, side),
                    "ledger": ledger.upper(),
                    "balance": short[index],
                    "day": day_label(campaign, index),
                }
            )


history.UNDO_CHECKS.append(check_undo)
