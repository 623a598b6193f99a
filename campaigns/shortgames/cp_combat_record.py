"""Cherkassy Pocket's combats of a turn, in the order they were rolled, each with its column,
die, result and what the attacker declared of the map (11.14 river and lake, 11.22 artillery
distance and range; kept in the roll's result, campaigns.shortgames.combat_rolls). Shown on the
turn page and the status sheet. The rolls are public: anyone who may open the campaign reads
them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.models import Campaign, DiceRoll

CRT_STEP = "11.9"


@dataclass(frozen=True)
class CombatLine:
    order: int
    side: str
    text: str


def declared_text(declared: Mapping[str, Any] | None) -> str:
    """The map's facts of one combat in the reader's language ("" when none were declared)."""
    if not declared:
        return ""
    parts = []
    if declared.get("river"):
        parts.append(
            _("across a river: %(units)s (11.14)") % {"units": ", ".join(declared["river"])}
        )
    if declared.get("lake"):
        parts.append(_("across a lake (11.14)"))
    for support in declared.get("artillery") or ():
        distance = support.get("distance")
        distance = "?" if distance is None else distance
        unit = support.get("unit", "")
        if support.get("defending"):
            unit = _("%(unit)s supporting the defence") % {"unit": unit}
        if support.get("range") is None:
            parts.append(
                _("%(unit)s: %(distance)s hexes, range unknown (11.22)")
                % {"unit": unit, "distance": distance}
            )
        else:
            parts.append(
                _("%(unit)s: %(distance)s hexes, range %(range)s (11.22)")
                % {"unit": unit, "distance": distance, "range": support["range"]}
            )
    return " · ".join(parts)


def typed_text(typed: Mapping[str, Any] | None) -> str:
    """The strengths typed by hand with a combat, said as the players' own figure ("" when
    none were typed)."""
    if not typed or not (typed.get("attack") or typed.get("defense")):
        return ""
    return _(
        "typed by hand: attack +%(attack)s, defence +%(defense)s (the players' own figure, "
        "not checked)"
    ) % {"attack": typed.get("attack") or 0, "defense": typed.get("defense") or 0}


def _line(order: int, made: DiceRoll) -> CombatLine:
    result = made.result if isinstance(made.result, Mapping) else {}
    parts = [made.note or _("combat"), _("die %(n)s") % {"n": made.original}]
    if "attacker_steps" in result:
        parts.append(
            _("attacker loses %(a)s, defender loses %(d)s")
            % {"a": result["attacker_steps"], "d": result.get("defender_steps", 0)}
        )
    declared = declared_text(result.get("declared"))
    if declared:
        parts.append(declared)
    typed = typed_text(result.get("typed"))
    if typed:
        parts.append(typed)
    return CombatLine(order, made.side, " · ".join(parts))


def turn_combats(campaign: Campaign, index: int) -> list[CombatLine]:
    """The turn's combats (CRT rolls not voided) in the order rolled. One query."""
    rolls = DiceRoll.objects.filter(
        campaign=campaign, index=index, step=CRT_STEP, visibility=PUBLIC, voided_at__isnull=True
    ).order_by("rolled_at", "id")
    return [_line(n, made) for n, made in enumerate(rolls, start=1)]
