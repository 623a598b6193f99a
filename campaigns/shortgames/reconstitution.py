"""Cherkassy Pocket: German infantry reconstitution (12.1), from the roster's Eligible for
Reconstitution box."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns import state
from campaigns.access import PUBLIC
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    GameUnit,
    UnitState,
)
from campaigns.shortgames.rules.cherkassy import losses as cp_losses
from campaigns.shortgames.turn_steps import (
    TurnError,
    locked_campaign,
    reader_language,
)


def reconstitution_options(units: Sequence[GameUnit]) -> list[Any]:
    """12.1 for each division's battalions in the Eligible for Reconstitution box (the
    Stemmermann Group's counted apart), from the roster."""
    return cp_losses.reconstitution(
        [
            cp_losses.BoxUnit(str(u.pk), u.formation, u.size, u.in_pocket)
            for u in units
            if u.side == "german" and u.state == UnitState.RECONSTITUTION and u.formation
        ],
        divisions_used={u.formation for u in units if u.reconstituted and u.formation},
        divisions_on_map={
            u.formation
            for u in units
            if u.state in (UnitState.FULL, UnitState.REDUCED) and u.hex and u.formation
        },
    )


@transaction.atomic
def reconstitute(
    campaign: Campaign,
    unit: GameUnit,
    *,
    index: int,
    version: int,
    hex: str,
    by: AbstractBaseUser,
) -> GameUnit:
    """12.1: ``unit`` (a battalion in the Eligible box) returns on its reduced side in ``hex``,
    with or next to a unit of its division; the division's other units in the box go to
    Permanently Eliminated and the division never reconstitutes again. Refused with the rule."""
    campaign = locked_campaign(campaign, index)
    units = list(GameUnit.objects.select_for_update(of=("self",)).filter(campaign=campaign))
    unit = next((u for u in units if u.pk == unit.pk), None)
    if unit is None:
        raise TurnError(_("That unit is not in this game."))
    if unit.version != version:
        raise state.StaleEdit
    if unit.side != "german" or unit.state != UnitState.RECONSTITUTION or unit.size != "battalion":
        raise TurnError(
            _(
                "Only a German infantry battalion in the Eligible for Reconstitution box "
                "returns (12.1)."
            )
        )
    option = next(
        (
            o
            for o in reconstitution_options(units)
            if o.division == unit.formation and o.stemmermann == unit.in_pocket
        ),
        None,
    )
    if option is None or not option.returns:
        reason = option.reason.in_language(reader_language()) if option and option.reason else ""
        raise TurnError(f"{reason} (12.1)".strip())
    hex = hex.strip()
    if not hex or len(hex) > 20:
        raise TurnError(
            _("Give the hex, with or next to a unit of its division (12.1; at most 20 characters).")
        )
    changes = []
    for other in units:
        returning = other.pk == unit.pk
        in_box = other.state == UnitState.RECONSTITUTION and other.formation == unit.formation
        if not (returning or in_box):
            continue
        before = history.snapshot(other)
        if returning:
            fields = {
                "state": UnitState.REDUCED if other.steps == 2 else UnitState.FULL,
                "hex": hex,
                "reconstituted": True,
            }
        else:
            fields = {"state": UnitState.ELIMINATED, "hex": ""}
        state.save_versioned(other, other.version, fields)
        changes.append((other, before, history.snapshot(other)))
    history.record_change(
        campaign,
        by,
        "unit.changed",
        visibility=PUBLIC,
        changes=changes,
        side=unit.side,
        unit=f"{unit.name} ({unit.formation})",
        fields=["reconstituted (12.1)", "state", "hex"],
        division=unit.formation,
        hex=hex,
        eliminated=[u.name for u, _before, _after in changes if u.pk != unit.pk],
        reconstituted=True,
        index=index,
    )
    return unit
