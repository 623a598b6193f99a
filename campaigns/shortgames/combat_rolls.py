"""Combat rolls. Defiant Russia: one logged die per strength point (7.11), fleet dice apart
hitting on 6 only (11.51). Cherkassy Pocket: the odds column after the column shifts (11.6,
11.8, 11.12) and one die on the referee's CRT (11.9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.dice import services as dice
from campaigns.games.registry import LocalizedText
from campaigns.models import (
    Campaign,
    DiceRoll,
    PointEntry,
    PointKind,
)
from campaigns.shortgames import segment_record_dr, turn_points
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy import combat as cp_combat_rules
from campaigns.shortgames.rules.cherkassy import hexsides as cp_hexsides
from campaigns.shortgames.rules.cherkassy import referee as cp_referee
from campaigns.shortgames.rules.common import count_hits
from campaigns.shortgames.turn_steps import (
    TurnError,
    locked_campaign,
    reader_language,
)
from campaigns.state import StateError


@transaction.atomic
def roll_combat(
    campaign: Campaign,
    *,
    side: str,
    dice_count: int,
    fleet_dice: int,
    hit_on: Sequence[int],
    by: AbstractBaseUser,
    note: str = "",
    token: str = "",
) -> dict[str, Any]:
    """One die per strength point (DR 7.11), each through campaigns.dice.services; fleet dice
    apart, hitting
    on 6 only (11.51). Returns the faces and the hits. ``token`` comes from the page: the same
    form sent twice returns the dice of the first time instead of rolling again."""
    if dice_count > 60 or fleet_dice > 10:
        raise TurnError(_("That is more dice than a combat can roll."))
    token = slugify(token)[:20]
    label = (note.strip() or _("combat"))[:100]
    if token:
        earlier = list(
            DiceRoll.objects.filter(
                campaign=campaign, step__in=("7.11", "11.51"), form_token=token
            ).order_by("id")
        )
        if earlier:
            faces = [roll.original for roll in earlier if roll.step == "7.11"]
            fleet_faces = [roll.original for roll in earlier if roll.step == "11.51"]
            hits = count_hits(faces, hit_on) + count_hits(fleet_faces, (6,))
            return {"faces": faces, "fleet_faces": fleet_faces, "hits": hits}
    faces, fleet_faces = [], []
    for number in range(dice_count):
        made = dice.roll(
            campaign,
            by=by,
            kind="dr",
            step="7.11",
            index=campaign.period_index,
            side=side,
            visibility=PUBLIC,
            note=f"{label} ({number + 1}/{dice_count})",
            form_token=token,
        )
        faces.append(made.original)
    for number in range(fleet_dice):
        made = dice.roll(
            campaign,
            by=by,
            kind="dr",
            step="11.51",
            index=campaign.period_index,
            side=side,
            visibility=PUBLIC,
            note=f"{label} fleet ({number + 1}/{fleet_dice})",
            form_token=token,
        )
        fleet_faces.append(made.original)
    hits = count_hits(faces, hit_on) + count_hits(fleet_faces, (6,))
    return {"faces": faces, "fleet_faces": fleet_faces, "hits": hits}


@transaction.atomic
def roll_dr_combat(
    campaign: Campaign,
    *,
    side: str,
    dice_count: int,
    fleet_dice: int,
    hit_on: Sequence[int],
    air_points: int,
    by: AbstractBaseUser,
    note: str = "",
    token: str = "",
    entry: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A Defiant Russia attack's dice (``roll_combat``) and its air points spent (11.7), in one
    action: the side's air points of the turn go down by ``air_points`` (a ``used`` entry, undone
    from the history like any points entry) or nothing is rolled. The same form sent twice
    returns the first dice and spends nothing again. ``entry`` (what the form read) is kept in the
    turn's record, next in its combat order (campaigns.shortgames.segment_record_dr)."""
    slug = slugify(token)[:20]
    already = bool(slug) and (
        DiceRoll.objects.filter(
            campaign=campaign, step__in=("7.11", "11.51"), form_token=slug
        ).exists()
    )
    if air_points and not already:
        label = (note.strip() or _("combat"))[:100]
        try:
            turn_points.add_points(
                campaign,
                by=by,
                side=side,
                index=campaign.period_index,
                kind=PointKind.AIR,
                action=PointEntry.Action.USED,
                amount=-air_points,
                note=label,
            )
        except StateError as refused:
            raise TurnError(str(refused)) from None
    rolled = roll_combat(
        campaign,
        side=side,
        dice_count=dice_count,
        fleet_dice=fleet_dice,
        hit_on=hit_on,
        by=by,
        note=note,
        token=token,
    )
    if not already and entry is not None:
        segment_record_dr.record_combat(
            campaign,
            side=side,
            entry={**entry, "note": note},
            dice=dice_count,
            fleet_dice=fleet_dice,
            hit_on=hit_on,
            hits=rolled["hits"],
            by=by,
            token=slug,
        )
    return {**rolled, "air_points": 0 if already else air_points}


@dataclass(frozen=True)
class CpCombat:
    """A Cherkassy combat as the page shows it: the odds, the column after the shifts, and
    what stops the roll (empty: it can be made)."""

    attack: int
    defense: int
    odds: str
    shift: int
    shift_rules: tuple[str, ...]
    column: str
    blocked: tuple[LocalizedText, ...]
    air_points: int = 0  # the AIR shift (11.16): one air point of the attacker's, spent on the roll
    front: str = ""  # a Soviet combat's Front (11.16: its air point comes from that Front's share)
    shifts: tuple[str, ...] = ()  # the column shifts applied (the prepared attack's included)
    prepared_auto: bool = False  # 11.27's shift set from the attacker's declared order (5.4)
    river_part: int | None = None  # 11.14: the river attackers' sum as halved (None: none)
    # 11.14: the chart's halving row was chosen but the river ticks halved the attack instead.
    chart_halving_replaced: bool = False
    # What the attacker declared of the map (11.14, 11.22; combat.cp_declared), kept with the roll.
    declared: Mapping[str, Any] | None = None
    # The strengths typed by hand on top of the chosen units' (attack, defence): the players'
    # own figure (e.g. 11.25's artillery fire dice, units not in the roster), not judged;
    # kept with the roll so the record says which part was typed.
    typed: tuple[int, int] = (0, 0)


def cp_combat(
    campaign: Campaign,
    *,
    attack: int,
    defense: int,
    shifts: Sequence[str],
    terrain: str = "",
    side: str = "",
    front: str = "",
    river_ticked: bool = False,
) -> CpCombat:
    """The odds column (11.6, 11.8) after the chosen column shifts (11.9), terrain from the
    referee's TEC (its halving row not applied when ``river_ticked``: the attack was already
    halved by 11.14's count of the units ticked across a river).
    A missing CRT, or TEC when a terrain shift is asked, blocks the roll; so does
    an AIR shift the side's points (a Soviet Front's share, 11.16) cannot pay for."""
    data = short_games.game_data(campaign)
    tables = campaign.game.files["tables"]
    referee = short_games.referee_tables(campaign)
    missing = {m.slot_id: m for m in cp_referee.missing_rolls(referee, data)}
    blocked = []
    chart_halving_replaced = False
    if not cp_combat_rules.crt_entered(referee, data):
        blocked.append(_missing_text(missing["cp.crt"]))
    shift, rules = cp_combat_rules.column_shift([s for s in shifts if s != "terrain"], tables)
    if "terrain" in shifts:
        terrain_shifts = cp_combat_rules.terrain_shifts(referee, data)
        if "cp.tec" in missing:
            blocked.append(_missing_text(missing["cp.tec"]))
        elif terrain not in terrain_shifts:
            blocked.append(
                LocalizedText(
                    en="Choose the defender's terrain from the referee's terrain chart (11.12).",
                    ja="防御側の地形を審判の地形効果表から選んでください（11.12）。",
                )
            )
        else:
            shift += terrain_shifts[terrain]
            rules = (*rules, "11.12")
            row_halves = terrain in cp_combat_rules.terrain_halves(referee, data)
            if cp_hexsides.chart_halving_applies(row_halves, river_ticked):
                attack = cp_combat_rules.halved(attack)
                rules = (*rules, "11.14")
            chart_halving_replaced = row_halves and river_ticked
    column = cp_combat_rules.odds_column(attack, defense, shift, data)
    if not blocked and not cp_combat_rules.crt_answers(column, referee, data):
        blocked.append(
            LocalizedText(
                en=f"The referee's CRT has no full column {column} (11.9): no die is rolled.",
                ja=f"審判のCRTに{column}のコラムが揃っていません（11.9）：ダイスは振りません。",
            )
        )
    if "air" in shifts and side:
        _pool, refused = cp_air.front_to_spend(
            side, front, 1, turn_points.left_by_front(campaign, side, campaign.period_index)
        )
        if refused is not None:
            blocked.append(
                LocalizedText(en=refused.in_language("en"), ja=refused.in_language("ja"))
            )
    return CpCombat(
        attack=attack,
        defense=defense,
        odds=cp_combat_rules.odds(attack, defense),
        shift=shift,
        shift_rules=rules,
        column=column,
        blocked=tuple(blocked),
        air_points=1 if "air" in shifts else 0,
        front=front,
        shifts=tuple(shifts),
        chart_halving_replaced=chart_halving_replaced,
    )


def _missing_text(missing: Any) -> LocalizedText:
    return LocalizedText(
        en=f"{missing.name.en} ({missing.rule}): {missing.reason.en}",
        ja=f"{missing.name.ja or missing.name.en}（{missing.rule}）：{missing.reason.ja}",
    )


@transaction.atomic
def roll_cp_combat(
    campaign: Campaign,
    combat: CpCombat,
    *,
    index: int,
    side: str,
    by: AbstractBaseUser,
    token: str,
    note: str = "",
) -> DiceRoll:
    """One die on the referee's CRT column (11.9), logged with its result. ``token`` comes
    from the page: the same form sent twice returns the first roll."""
    campaign = locked_campaign(campaign, index)
    if combat.blocked:
        raise TurnError(combat.blocked[0].in_language(reader_language()))
    token = slugify(token)[:20]
    if not token:
        raise TurnError(_("That page was for an earlier turn; nothing was changed."))
    earlier = DiceRoll.objects.filter(campaign=campaign, step="11.9", form_token=token).first()
    if earlier is not None:
        return earlier
    referee, data = short_games.referee_tables(campaign), short_games.game_data(campaign)
    if not cp_combat_rules.crt_answers(combat.column, referee, data):
        # Checked again under the lock: the table may have changed since the page was read.
        raise TurnError(_("The referee's CRT cannot answer this column; no die was rolled (11.9)."))
    label = (note.strip() or _("combat"))[:100]
    if combat.air_points:
        # The air point committed to this combat (11.16) is spent in the same action as its die;
        # undone from the history like any points entry.
        try:
            turn_points.add_points(
                campaign,
                by=by,
                side=side,
                index=index,
                kind=PointKind.AIR,
                action=PointEntry.Action.USED,
                amount=-combat.air_points,
                note=label,
                front=combat.front,
            )
        except StateError as refused:
            raise TurnError(str(refused)) from None
    made = dice.roll(
        campaign,
        by=by,
        kind="dr",
        step="11.9",
        index=index,
        side=side,
        visibility=PUBLIC,
        note=f"{label} · {combat.attack}:{combat.defense} → {combat.column}",
        form_token=token,
    )
    try:
        cell = cp_combat_rules.crt_result(combat.column, made.original, referee, data)
    except (KeyError, TypeError):
        cell = None
    made.result = dict(cell) if cell is not None else None
    if made.result is not None and combat.front:
        made.result["front"] = combat.front  # the Soviet combat's Front (11.16), as data
    if made.result is not None and combat.declared:
        made.result["declared"] = dict(combat.declared)  # the map's facts (11.14, 11.22)
    if made.result is not None and any(combat.typed):
        made.result["typed"] = {"attack": combat.typed[0], "defense": combat.typed[1]}
    made.save(update_fields=["result"])
    return made
