"""An escape roll's result (11.6063) applied to the order-of-battle lines of the stack that
rolled, in one action: for each unit of the stack, the side's player names its OB line; the
eliminated go to the eliminated box, an abandoned AFV is marked abandoned, a replaced or
casualty-reduced unit becomes the unit the player names (the app does not know a unit's lower
type). One ``orbat.result`` event, secret to the side, tagged with the roll: undone from the
history, it puts the lines back. The escape roll itself stays public, as the isolation is.
"""

from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, OrbatEntry
from campaigns.orbat.entry import UnitEntryError, parse_line
from campaigns.state import StateError, vehicles_of
from refit.models import PerimeterState
from refit.rules import ob_results as rules
from refit.rules.perimeter.escapes import ESCAPE_RULE
from refit.walker import ob_results


@dataclass(frozen=True)
class Escape:
    """One escape roll of the side, as the apply form shows it."""

    entry: dict[str, Any]
    key: str  # what the roll did to the stack: eliminated, abandoned, escaped …
    applied: bool

    @property
    def roll(self) -> int:
        return int(self.entry["roll"])

    @property
    def units(self) -> list[str]:
        return list(self.entry.get("units", []))

    @property
    def needs_lines(self) -> bool:
        return self.key != "escaped"

    @property
    def asks_new_type(self) -> bool:
        return self.key in ("replaced", "casualty_reduced")


def outcome_of(entry: dict[str, Any]) -> str:
    """The key of what an escape entry does to each unit of its stack."""
    if entry.get("eliminated"):
        return "eliminated"
    if entry.get("abandoned"):
        return "abandoned"
    if entry.get("casualty_reduced"):
        return "casualty_reduced"
    if entry.get("replaced"):
        return "replaced"
    return "escaped"


def state_of(campaign: Campaign, reph_id: int | None) -> PerimeterState | None:
    if reph_id is None:
        return None
    return PerimeterState.objects.filter(campaign=campaign, reph_id=reph_id).first()


def applied_rolls(campaign: Campaign, side: str) -> set[int]:
    """The escape rolls whose result is on the side's OB lines (not undone)."""
    rows = CampaignEvent.objects.filter(
        campaign=campaign,
        action="orbat.result",
        data__side=side,
        data__table="escape",
        undone_at__isnull=True,
    ).values_list("data", flat=True)
    return {int(data["refit_step"]["roll"]) for data in rows if data.get("refit_step")}


def escape_of(campaign: Campaign, state: PerimeterState, side: str, roll: int) -> Escape | None:
    for entry in state.escapes:
        if entry.get("side") == side and int(entry.get("roll", 0)) == roll:
            return Escape(entry, outcome_of(entry), roll in applied_rolls(campaign, side))
    return None


def live_lines(campaign: Campaign, side: str) -> list[OrbatEntry]:
    """The side's lines a unit of the stack may be: those not already eliminated."""
    return [e for e in ob_results.side_entries(campaign, side) if e.box != rules.CASUALTIES]


@transaction.atomic
def apply_escape(
    campaign: Campaign,
    state: PerimeterState,
    side: str,
    *,
    roll: int,
    lines: list[int],
    becomes: str = "",
    by: AbstractBaseUser,
) -> str:
    """Apply escape roll ``roll`` of ``side`` to ``lines`` (one per unit of the stack; a line
    named twice gives two of its counters). Returns what was booked, for the player."""
    escape = escape_of(campaign, state, side, roll)
    if escape is None:
        raise StateError(_("That is not an escape roll of this side in this Refit Phase."))
    if escape.applied:
        raise StateError(_("This escape roll is already applied to the order of battle."))
    if not escape.needs_lines:
        raise StateError(_("The stack escaped: nothing changes in the order of battle."))
    if not lines or len(lines) > len(escape.units):
        raise StateError(
            _("Name one order-of-battle line for each unit of the stack (%(n)s).")
            % {"n": len(escape.units)}
        )
    new_type = ""
    if escape.asks_new_type:
        try:
            new_type = parse_line(becomes, vehicles_of(campaign)).unit_type
        except UnitEntryError as error:
            raise StateError(
                _("Name the unit the escaped unit becomes: %(why)s") % {"why": error}
            ) from None
    entries = {e.pk: e for e in ob_results.side_entries(campaign, side, lock=True)}
    changes: list[rules.LineChange] = []
    for line_id, count in Counter(lines).items():
        entry = entries.get(line_id)
        if entry is None or entry.box == rules.CASUALTIES:
            raise StateError(_("That line is not in this side's order of battle."))
        try:
            outcome = rules.escape(ob_results.to_line(entry), escape.key, count)
        except rules.ResultError as error:
            raise StateError(ob_results.refusal(error.key)) from None
        if new_type:
            changes.append(rules.LineChange(line=line_id, count=count, unit_type=new_type))
        else:
            changes += outcome.changes
    result = rules.Outcome(escape.key, tuple(changes))
    tag = history.refit_step(state.reph, ESCAPE_RULE, side, roll=roll) if state.reph else None
    with tag or nullcontext():
        event = ob_results.book(
            campaign,
            side=side,
            outcome=result,
            entries=entries,
            by=by,
            table="escape",
            line=lines[0],
            index=state.index,
        )
    units = event.data["units"] if event is not None else []
    return ob_results.sentence(rules.Outcome(escape.key), units)
