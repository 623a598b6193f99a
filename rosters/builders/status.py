"""The short games' status sheet: enough to set the map up again next week.

One sheet per side (Defiant Russia, Cherkassy Pocket): the turn, its weather, the optional rules,
the side's points this turn, every unit with its state and hex, the reinforcements still to come,
the places and who holds them, and the victory status — read from the same rows and rules as the
short-game pages. Nothing in these games is hidden, so every member may print it.
"""

from __future__ import annotations

from django.db.models import Sum
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.models import Campaign, ControlPoint, GameUnit, PointEntry, PointKind, UnitState
from campaigns.shortgames import (
    cp_combat_record,
    cp_segments,
    cp_victory,
    segment_record_dr,
    turn_points,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.common import weather_key
from campaigns.shortgames.units import type_label
from rosters.builders.common import frame as sheet_frame
from rosters.builders.common import language, side_name
from rosters.sheets import Column, Fact, Row, Sheet, Table

_STATES = dict(UnitState.choices)


def _flags(unit: GameUnit) -> str:
    flags = []
    if unit.out_of_supply:
        flags.append(_("out of supply"))
    if unit.msl:
        flags.append("MSL")
    if unit.artillery_used:
        flags.append("ACT")
    if unit.in_pocket:
        flags.append(_("Stemmermann"))
    if unit.marked_n:
        flags.append("N")
    if unit.reconstituted:
        flags.append(_("reconstituted"))
    return ", ".join(flags)


def _arrival(unit: GameUnit) -> str:
    if unit.arrival_turn is None:
        return unit.setup
    text = _("turn %(turn)s") % {"turn": unit.arrival_turn}
    return f"{text} {unit.arrival_edge}".strip()


def _weather(campaign: Campaign) -> str:
    day = campaign.days.filter(index=campaign.period_index).first()
    written = day.weather if day is not None else ""
    if not written:
        return _("not known yet")
    # Typed on the calendar as "Mud" or "light mud": the game's name for it, else as written.
    key = weather_key(short_games.game_data(campaign), written) or written
    for item in short_games.game_data(campaign)["weather"]["types"]:
        if item["key"] == key:
            return localized(item.get("name"), language())
    return key


def status(campaign: Campaign, side: str) -> Sheet:
    game = short_games.setup_of(campaign)
    index = campaign.period_index
    turn = short_games.turn_number(campaign)
    units = list(GameUnit.objects.filter(campaign=campaign, side=side))
    options = {
        o["id"]: localized(o.get("name"), language()) for o in short_games.option_choices(campaign)
    }
    points = dict(
        PointEntry.objects.filter(campaign=campaign, side=side, index=index)
        .values_list("kind")
        .annotate(total=Sum("amount"))
    )
    facts = [
        Fact(_("Turn"), str(turn)),
        Fact(_("Weather"), _weather(campaign)),
        Fact(
            _("Optional rules"),
            ", ".join(options.get(o, o) for o in (game.options if game else [])) or "—",
        ),
        Fact(_("Replacement points left"), str(points.get(PointKind.REPLACEMENT, 0))),
        Fact(_("Air points left"), str(points.get(PointKind.AIR, 0))),
    ]
    if campaign.module == "cherkassy_pocket":
        # 11.16: the air points of the activation segment the turn is at; the others lapsed.
        facts[-1] = Fact(_("Air points left"), turn_points.air_now(campaign, side).words())
    if campaign.module == "cherkassy_pocket":
        formed = game is not None and game.pocket_formed_index is not None
        facts.append(Fact(_("Pocket"), _("closed") if formed else _("not closed")))
        facts.append(Fact(_("Soviet VP"), str(cp_victory.cp_victory(campaign, game).vp)))
        names = {key: side_name(campaign, key) for key in campaign.game.side_keys}
        orders = cp_segments.orders_text(cp_segments.segment_orders(campaign, index), names)
        facts.append(Fact(_("Declared order (5.4)"), orders or "—"))
        if side == "soviet":
            fronts = turn_points.front_points(campaign, index)
            facts.append(
                Fact(
                    _("Air points per Front (11.16)"),
                    turn_points.fronts_text(fronts) or _("not split now"),
                )
            )
    belongs = _("Nationality") if campaign.module == "defiant_russia" else _("Formation")
    on_map = [u for u in units if u.state != UnitState.AWAITING]
    roster = Table(
        title=_("Units"),
        columns=(
            Column(_("Unit"), width=2.2),
            Column(_("Type"), width=1.3),
            Column(belongs, width=1.3),
            Column(_("Full"), width=0.8),
            Column(_("Reduced"), width=0.8),
            Column(_("State"), width=1.6),
            Column(_("Hex"), width=0.8),
            Column(_("Set-up / arrival"), width=1.0),
            Column(_("Marks"), width=1.4),
        ),
        rows=tuple(
            Row(
                cells=(
                    unit.name,
                    type_label(unit.unit_type),
                    type_label(unit.nationality)
                    if campaign.module == "defiant_russia"
                    else unit.formation,
                    unit.full,
                    unit.reduced if unit.steps == 2 else "—",
                    str(_STATES.get(unit.state, unit.state)),
                    unit.hex,
                    _arrival(unit),
                    _flags(unit),
                )
            )
            for unit in on_map
        ),
        empty_text=_("No units entered yet."),
    )
    waiting = sorted(
        (u for u in units if u.state == UnitState.AWAITING),
        key=lambda u: (u.arrival_turn if u.arrival_turn is not None else 999, u.name),
    )
    reinforcements = Table(
        title=_("Reinforcements to come"),
        columns=(
            Column(_("Turn"), width=0.6, numeric=True),
            Column(_("Unit"), width=2.4),
            Column(_("Entry edge"), width=0.8),
            Column(_("Due now"), width=0.8),
        ),
        rows=tuple(
            Row(
                cells=(
                    "" if u.arrival_turn is None else str(u.arrival_turn),
                    u.name,
                    u.arrival_edge,
                    _("yes") if u.arrival_turn is not None and u.arrival_turn <= turn else "",
                ),
                current=u.arrival_turn == turn,
            )
            for u in waiting
        ),
        empty_text=_("None."),
    )
    control = {p.key: p for p in ControlPoint.objects.filter(campaign=campaign)}
    places = Table(
        title=_("Places"),
        columns=(
            Column(_("Place"), width=2.0),
            Column(_("Hex"), width=0.8),
            Column(_("Held by"), width=1.2),
            Column(_("Cut off by rail"), width=0.9),
        ),
        rows=tuple(
            Row(
                cells=(
                    localized(place.get("name"), language()) or place.get("hex") or place["id"],
                    place.get("hex") or "?",
                    side_name(campaign, control[place["id"]].controller)
                    if place["id"] in control and control[place["id"]].controller
                    else "—",
                    _("yes") if place["id"] in control and control[place["id"]].cut_off else "",
                )
            )
            for place in short_games.places(campaign)
        ),
        empty_text=_("None."),
    )
    tables = (roster, reinforcements, places)
    if campaign.module == "cherkassy_pocket":
        names = {key: side_name(campaign, key) for key in campaign.game.side_keys}
        tables += (
            Table(
                title=_("This turn's combats"),
                columns=(
                    Column("#", width=0.4, numeric=True),
                    Column(_("Side"), width=0.9),
                    Column(_("What"), width=7.2),
                ),
                rows=tuple(
                    Row(cells=(str(line.order), names.get(line.side, line.side), line.text))
                    for line in cp_combat_record.turn_combats(campaign, index)
                ),
                empty_text=_("No combat rolled yet this turn."),
            ),
        )
    if campaign.module == "defiant_russia":
        names = {key: side_name(campaign, key) for key in campaign.game.side_keys}
        tables += (
            Table(
                title=_("This turn's record"),
                columns=(
                    Column("#", width=0.4, numeric=True),
                    Column(_("Phase"), width=1.8),
                    Column(_("Side"), width=0.9),
                    Column(_("What"), width=5.4),
                ),
                rows=tuple(
                    Row(cells=(line.order, line.phase, line.side, line.text))
                    for line in segment_record_dr.turn_record(campaign, index, names)
                ),
                empty_text=_("Nothing recorded yet this turn."),
            ),
        )
    return sheet_frame(
        campaign,
        side,
        kind="status",
        title=_("%(side)s status sheet") % {"side": side_name(campaign, side)},
        facts=tuple(facts),
        tables=tables,
        notes=(_("Units awaiting their arrival turn are listed under the reinforcements."),),
    )
