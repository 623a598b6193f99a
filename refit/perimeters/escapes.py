"""Escape rolls of isolated units (11.6063–11.6065) through the dice service: public, like the
isolation itself, and each kept on the perimeter state with its history event."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer
from campaigns.dice import services as dice
from campaigns.games.registry import LocalizedText
from campaigns.history import services as history
from campaigns.models import Campaign
from campaigns.state import StateError
from refit.models import PerimeterState
from refit.perimeters.changes import check_version, lock_unchanged, write_state
from refit.perimeters.state import compute, read_versions, terrain_of, unit_rows
from refit.rules.perimeter import escapes as rules
from refit.rules.perimeter.board import VEHICLE

ESCAPE_RULE = rules.ESCAPE_RULE


def escape_table(campaign: Campaign) -> Any:
    prefix = "rf" if campaign.module == "red_factories" else "sap"
    return campaign.game.dice_table(f"{prefix}.escape")


def roll_escape(
    viewer: Viewer,
    state: PerimeterState,
    side: str,
    *,
    by: AbstractBaseUser,
    version: int,
    unit_ids: list[str],
    attempt: dict[str, Any],
) -> dict[str, Any]:
    """One Escape DR for a stack (or an AFV) of the side's isolated units (11.6063–.6064).
    Public, like the isolation itself. The roll is made once: the form's version guards it.

    The evaluation runs before the write transaction opens; the roll and its entry are written
    only if nothing the evaluation read changed since."""
    check_version(state, version)
    campaign = viewer.campaign
    terrain, rows = terrain_of(campaign), unit_rows(state)
    read = read_versions(viewer, state, terrain, rows)
    computation = compute(viewer, state, terrain, rows)
    result = computation.result
    isolated = result.isolated
    units = [
        u
        for u in computation.board.units
        if u.side == side and u.id in unit_ids and u.hex in isolated
    ]
    if not units or len(units) != len(set(unit_ids)):
        raise StateError(_("Choose isolated units of that side to escape."))
    if len({u.hex for u in units}) > 1:
        raise StateError(_("A stack escapes from one Location."))
    afv = bool(attempt.get("afv"))
    if afv and (len(units) != 1 or units[0].kind != VEHICLE):
        raise StateError(_("An AFV rolls alone."))
    facts = rules.EscapeAttempt(
        units=tuple(units),
        afv=afv,
        leader_drm=int(attempt.get("leader_drm", 0)),
        hs_equivalents=int(attempt.get("hs_equivalents", 1)),
        pp_over_ipc=int(attempt.get("pp_over_ipc", 0)),
        encircled=bool(attempt.get("encircled")),
        captured_afv=bool(attempt.get("captured_afv")),
        wounded=bool(attempt.get("wounded")),
    )
    table = escape_table(campaign)
    ids = rules.ESCAPE_DRMS[campaign.module]
    reasons = {m["id"]: m.get("when", {}) for m in _table_modifiers(campaign, table.id)}
    modifiers = [
        replace(drm, reason=_drm_reason(reasons.get(ids[drm.id]), drm.id), id=ids[drm.id])
        for drm in rules.escape_modifiers(result, facts)
    ]
    with transaction.atomic():
        locked = lock_unchanged(viewer, state, read)
        step = history.refit_step(state.reph, ESCAPE_RULE, side) if state.reph else nullcontext()
        with step:
            dice_roll = dice.roll(
                campaign,
                by=by,
                kind="DR",
                step=ESCAPE_RULE,
                index=state.index,
                side=side,
                visibility=PUBLIC,
                modifiers=modifiers,
                table=table,
                note=", ".join(u.id for u in units),
            )
        outcome = rules.escape_outcome(dice_roll.original, dice_roll.result, afv)
        left = [u.id for u in units] if (outcome.escaped or outcome.eliminated) else []
        entry = {
            "side": side,
            "units": [u.id for u in units],
            "roll": dice_roll.pk,
            "original": dice_roll.original,
            "final": dice_roll.final,
            "escaped": outcome.escaped,
            "eliminated": outcome.eliminated,
            "abandoned": outcome.abandoned,
            "replaced": outcome.replaced,
            "casualty_reduced": outcome.casualty_reduced,
            "heat_of_battle": outcome.heat_of_battle,
            "left": left,
        }
        write_state(
            locked,
            by,
            "perimeter.escape",
            {"escapes": [*locked.escapes, entry]},
            side=side,
            units=entry["units"],
            final=dice_roll.final,
            outcome=outcome_key(entry),
        )
    return entry


def _table_modifiers(campaign: Campaign, table_id: str) -> list[dict]:
    for table in campaign.game.files.get("tables", {}).get("dice_tables", []):
        if table.get("id") == table_id:
            return list(table.get("modifiers", []))
    return []


def _drm_reason(when: Any, what: str) -> LocalizedText | str:
    """The table's words for an escape DRM (the rule is added when it is logged)."""
    if isinstance(when, dict) and when.get("en"):
        return LocalizedText(en=when["en"], ja=when.get("ja", ""))
    return what


def outcome_key(entry: dict[str, Any]) -> str:
    if entry.get("eliminated"):
        return "eliminated"
    if entry.get("abandoned"):
        return "abandoned"
    return "escaped"
