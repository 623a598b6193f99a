"""What a short game records per turn for its after-action report (rosters.report.short):
the steps each side lost and the victory points at each turn's end.

- A loss (``UnitLoss``) is booked by ``campaigns.shortgames.services.change_unit`` as the unit's
  state changes — by hand on the unit's page (a combat's result), a CP tank breakdown, a DR
  airborne drop — counted by the pure rule ``rules.losses.step_loss``, in the same event as
  the change: taking the change back deletes it.
- The VP (``TurnVictoryPoints``) are written by ``turn_marks.advance`` as the turn ends, from
  the victory page's own builder (``pages.victory.victory_of``), never computed a second way;
  taking the advance back deletes them. The current turn's VP are the victory page's. An undo
  that would change what a recorded turn's VP were computed from (a unit, a place's control,
  the game's record, changed before that turn ended) is refused until the advance is taken back
  (``check_undo``, the pure ``rules.turn_vp``): the recorded VP always agree with the record.

Both are public like everything of a short game, and kept in the export file as the section
``short_game_turns`` (below).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, GameUnit, TurnVictoryPoints, UnitLoss
from campaigns.models.short_game import GAME_STATES
from campaigns.periods import day_label
from campaigns.shortgames.rules import turn_vp
from campaigns.shortgames.rules.losses import step_loss
from campaigns.transfer.format import ImportRefused
from campaigns.transfer.sections import register_section

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext


# --- booking ----------------------------------------------------------------------------------


def book_loss(
    campaign: Campaign, unit: GameUnit, state_before: str, index: int
) -> history.Change | None:
    """The loss of ``unit``'s change of state from ``state_before`` to its state now, saved,
    as a change for the event that records the unit's change (None: nothing lost)."""
    loss = step_loss(unit.steps, state_before, unit.state)
    if loss is None:
        return None
    row = UnitLoss.objects.create(
        campaign=campaign,
        index=index,
        side=unit.side,
        unit=unit.name[:60],
        steps=loss.steps,
        eliminated=loss.eliminated,
        state_before=state_before,
        state_after=unit.state,
    )
    return (row, None, history.snapshot(row))


def vp_now(campaign: Campaign) -> dict[str, int]:
    """Each scoring side's VP as the victory page shows them now."""
    from campaigns.shortgames.pages.victory import victory_of, vp_by_side

    return vp_by_side(victory_of(campaign))


def book_turn_vp(campaign: Campaign, index: int) -> list[history.Change]:
    """The VP at the end of turn ``index``, saved, as changes for the advance's event."""
    rows = [
        TurnVictoryPoints.objects.create(campaign=campaign, index=index, side=side, vp=vp)
        for side, vp in vp_now(campaign).items()
    ]
    return [(row, None, history.snapshot(row)) for row in rows]


# --- taking a change back ---------------------------------------------------------------------

ADVANCED = "turn.advanced"


def check_undo(event: CampaignEvent, steps: list[dict[str, Any]]) -> None:
    """Refuse the undo of ``event`` when a turn ended after it with its VP recorded and the
    change touched what those VP were computed from (``rules.turn_vp``): that turn's VP would
    no longer agree with the record. Taking back the advance itself takes its VP with it. The
    history page's preview of the same (``preview_undo``) for this one change."""
    message = preview_undo(event.campaign, [event]).get(event.pk)
    if message is not None:
        raise history.UndoError(message)


def _refusal(campaign: Campaign, touched: set[str], ended: Iterable[int]) -> str | None:
    """The sentence of ``rules.turn_vp``'s refusal, or None when the undo may go ahead."""
    reason = turn_vp.undo_keeps_turn_vp(touched, ended)
    if reason is None:
        return None
    first, last = reason.params["first"], reason.params["last"]
    words = {"first": day_label(campaign, first), "last": day_label(campaign, last)}
    if first == last:
        message = _(
            "The VP at the end of %(first)s were recorded with this change in place. Take back "
            "the turn marker's advance from %(first)s first (and what was done since)."
        )
    else:
        message = _(
            "The VP at the end of %(first)s to %(last)s were recorded with this change in "
            "place. Take back the turn marker's advances first, from %(last)s back to "
            "%(first)s (and what was done since)."
        )
    return message % words


def preview_undo(campaign: Campaign, events: list[CampaignEvent]) -> dict[int, str]:
    """``check_undo`` for a page of the history at once (two queries, only when a change of the
    rows the victory page reads is on it)."""
    relevant = []
    for event in events:
        steps = event.data.get("undo") or []
        touched = {step.get("model") for step in steps if isinstance(step, dict)}
        if event.action != ADVANCED and turn_vp.VP_SOURCES.intersection(touched):
            relevant.append((event, touched))
    if not relevant:
        return {}
    advanced = list(
        CampaignEvent.objects.filter(
            campaign=campaign, action=ADVANCED, undone_at__isnull=True
        ).values_list("pk", "data__index")
    )
    recorded = set(
        TurnVictoryPoints.objects.filter(campaign=campaign).values_list("index", flat=True)
    )
    refused = {}
    for event, touched in relevant:
        ended = [i for pk, i in advanced if pk > event.pk and isinstance(i, int) and i in recorded]
        message = _refusal(campaign, touched, ended)
        if message is not None:
            refused[event.pk] = message
    return refused


history.UNDO_CHECKS.append(check_undo)
history.UNDO_PREVIEWS.append(preview_undo)


# --- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnLosses:
    steps: int = 0
    eliminated: int = 0  # units that left the map by a loss


def losses_per_turn(campaign: Campaign) -> dict[tuple[int, str], TurnLosses]:
    """(turn, side) → the steps lost and units eliminated in it. One query."""
    totals: dict[tuple[int, str], TurnLosses] = {}
    for index, side, steps, eliminated in UnitLoss.objects.filter(campaign=campaign).values_list(
        "index", "side", "steps", "eliminated"
    ):
        now = totals.get((index, side), TurnLosses())
        totals[(index, side)] = TurnLosses(now.steps + steps, now.eliminated + int(eliminated))
    return totals


def vp_per_turn(campaign: Campaign) -> dict[int, dict[str, int]]:
    """turn → side → the VP recorded at its end. One query."""
    result: dict[int, dict[str, int]] = {}
    for index, side, vp in TurnVictoryPoints.objects.filter(campaign=campaign).values_list(
        "index", "side", "vp"
    ):
        result.setdefault(index, {})[side] = vp
    return result


# --- the export file --------------------------------------------------------------------------

SECTION = "short_game_turns"
LOSSES, VPS = f"{SECTION}.losses", f"{SECTION}.vp"
LOSS_FIELDS = ("index", "side", "unit", "steps", "eliminated", "state_before", "state_after")
VP_FIELDS = ("index", "side", "vp")


def export_section(context: ExportContext) -> dict[str, Any] | None:
    campaign = context.campaign
    if campaign.module not in GAME_STATES:
        return None
    return {
        "losses": [
            {**row, "created_at": row["created_at"].isoformat()}
            for row in UnitLoss.objects.filter(campaign=campaign)
            .order_by("index", "id")
            .values("created_at", *LOSS_FIELDS)
        ],
        "vp": list(
            TurnVictoryPoints.objects.filter(campaign=campaign)
            .order_by("index", "side")
            .values(*VP_FIELDS)
        ),
    }


def check_section(checker: Checker, section: Any) -> dict[str, list[dict[str, Any]]] | None:
    if section is None:
        return None
    module = checker.module.key
    if module not in GAME_STATES:
        raise ImportRefused(_("The file's “short_game_turns” belongs to another game."))
    if not isinstance(section, Mapping) or set(section) - {"losses", "vp"}:
        raise ImportRefused(_("The file's “short_game_turns” is not a short game's record."))
    states = {str(state) for state in GAME_STATES[module]}
    sides = checker.module.side_keys
    losses = []
    for n, row in checker.entries(LOSSES, section.get("losses") or []):
        values = checker.values(LOSSES, n, row, UnitLoss, LOSS_FIELDS)
        if values["side"] not in sides:
            raise checker.error(LOSSES, n, "side", _("is not a side of this game."))
        for name in ("state_before", "state_after"):
            if values[name] not in states:
                raise checker.error(LOSSES, n, name, _("is not a state of this game."))
        if not 1 <= values["steps"] <= 2:
            raise checker.error(LOSSES, n, "steps", _("must be 1 or 2."))
        losses.append(
            {
                "values": values,
                "created_at": checker.timestamp(LOSSES, n, row, "created_at"),
            }
        )
    vps, seen = [], set()
    for n, row in checker.entries(VPS, section.get("vp") or []):
        values = checker.values(VPS, n, row, TurnVictoryPoints, VP_FIELDS)
        if values["side"] not in sides:
            raise checker.error(VPS, n, "side", _("is not a side of this game."))
        key = (values["index"], values["side"])
        if key in seen:
            raise checker.error(VPS, n, "side", _("is given twice in one turn."))
        seen.add(key)
        vps.append(values)
    return {"losses": losses, "vp": vps}


def load_section(context: LoadContext, parsed: dict[str, list[dict[str, Any]]]) -> None:
    made = context.create(
        UnitLoss,
        [UnitLoss(campaign=context.campaign, **row["values"]) for row in parsed["losses"]],
    )
    context.restore_times(UnitLoss, made, parsed["losses"])
    context.create(
        TurnVictoryPoints,
        [TurnVictoryPoints(campaign=context.campaign, **values) for values in parsed["vp"]],
    )


def register() -> None:
    register_section(
        SECTION,
        models=(UnitLoss, TurnVictoryPoints),
        export=export_section,
        check=check_section,
        load=load_section,
    )
