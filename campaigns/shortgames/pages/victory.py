"""The places and victory page: who holds each place; Defiant Russia's victory points and
automatic victory; Cherkassy's ring, its VP conditions and the divisions that used their
reconstitution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.history.labels import side_label
from campaigns.models import Campaign, ControlPoint, GameUnit, ShortGame
from campaigns.shortgames import cp_victory, turn_points
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.defiant_russia import victory as dr_victory

# The states in which a Defiant Russia unit counts as out of play for victory.
OUT_OF_PLAY = ("eliminated", "eliminated_oos", "removed")


@dataclass
class VictoryPage:
    game: ShortGame | None
    places: list[dict[str, Any]]
    is_dr: bool
    can_act: bool
    # Defiant Russia
    status: Any = None
    side_names: dict[str, str] = field(default_factory=dict)  # the VP lines' sides, as names
    automatic: str | None = None
    # Cherkassy Pocket
    conditions: list[dict[str, Any]] = field(default_factory=list)
    vp_total: int = 0
    vp_max: int | None = None
    vp_final: bool = False
    level: str = ""
    german_units: list[GameUnit] = field(default_factory=list)
    pocket_members: list[GameUnit] = field(default_factory=list)
    pocket_turn: str = ""
    divisions_used: list[str] = field(default_factory=list)


def _places(campaign: Campaign, control: dict[str, ControlPoint]) -> list[dict[str, Any]]:
    return [
        {
            "id": place["id"],
            "name": localized(place.get("name"), get_language()) or place.get("hex") or place["id"],
            "hex": place.get("hex") or "",
            "point": control.get(place["id"]),
            "holder": side_label(campaign, control[place["id"]].controller)
            if place["id"] in control and control[place["id"]].controller
            else "",
        }
        for place in short_games.places(campaign)
    ]


def period_label(campaign: Campaign, index: int | None) -> str:
    """The turn's label ("Turn 5: 28 January") in the reader's language, or ""."""
    periods = campaign.cg.periods
    if index is None or not 0 <= index < len(periods):
        return ""
    return periods[index].label.in_language(get_language())


def _defiant_russia(
    page: VictoryPage, campaign: Campaign, control: dict[str, ControlPoint], units: list[GameUnit]
) -> None:
    data = short_games.game_data(campaign)
    city_control = {key: p.controller for key, p in control.items() if p.controller}
    stalin = next((u for u in units if slugify(u.name) == "stalin"), None)
    # Every unit out of play counts, except Stalin, who scores on his own (AMB-15/16).
    removed = [
        dr_victory.RemovedUnit(u.side, dr_victory.casualty_category(turn_points.unit_facts(u)))
        for u in units
        if u.state in OUT_OF_PLAY and slugify(u.name) != "stalin"
    ]
    page.status = dr_victory.victory_status(
        city_control,
        None if stalin is None else stalin.state in ("full", "reduced"),
        removed,
        data,
        turn=short_games.turn_number(campaign),
        turn_finished=False,
    )
    page.automatic = dr_victory.automatic_victory(city_control, data)
    page.side_names = {side: side_label(campaign, side) for side in campaign.game.side_keys}


def _cherkassy(page: VictoryPage, campaign: Campaign, units: list[GameUnit]) -> None:
    game = page.game
    manual = {
        c["id"]
        for c in short_games.victory_conditions(campaign)
        if short_games.is_manual_condition(c)
    }
    tally = cp_victory.cp_victory(campaign, game)
    ticked = game.victory if game else {}
    page.conditions = [
        {
            "id": condition.id,
            "vp": condition.vp,
            "text": localized(condition.text, get_language()),
            "note": localized(condition.note, get_language()),
            "met": condition.met,
            "scored": condition.scored,
            "manual": condition.id in manual,
            "ticked": condition.id in ticked,
            "turn": ticked.get(condition.id),
        }
        for condition in tally.conditions
    ]
    page.vp_total, page.vp_max, page.vp_final = tally.vp, tally.max_vp, tally.final
    page.level = localized(tally.level, get_language())
    page.german_units = [u for u in units if u.side == "german"]
    page.pocket_members = [u for u in units if u.in_pocket]
    page.pocket_turn = period_label(campaign, game.pocket_formed_index if game else None)
    page.divisions_used = sorted({u.formation for u in units if u.reconstituted})


def victory_page(viewer: Viewer) -> VictoryPage:
    return victory_of(viewer.campaign, can_act=viewer.can_record)


def victory_of(campaign: Campaign, *, can_act: bool = False) -> VictoryPage:
    """The page's figures for the campaign (the turn's end records its VP from them too,
    campaigns.shortgames.per_turn): nothing of a short game is secret."""
    control = {p.key: p for p in ControlPoint.objects.filter(campaign=campaign)}
    page = VictoryPage(
        game=short_games.setup_of(campaign),
        places=_places(campaign, control),
        is_dr=campaign.module == "defiant_russia",
        can_act=can_act,
    )
    units = list(GameUnit.objects.filter(campaign=campaign))
    if page.is_dr:
        _defiant_russia(page, campaign, control, units)
    else:
        _cherkassy(page, campaign, units)
    return page


def vp_by_side(page: VictoryPage) -> dict[str, int]:
    """The page's VP as numbers per scoring side: Defiant Russia both sides' (13.0),
    Cherkassy Pocket the Soviet's."""
    if page.is_dr:
        return (
            {} if page.status is None else {"axis": page.status.axis, "soviet": page.status.soviet}
        )
    return {"soviet": page.vp_total}
