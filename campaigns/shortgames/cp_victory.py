"""Cherkassy Pocket: the scenario's Soviet VP as they stand, from the roster, the pocket and
the places (the conditions themselves are campaigns.shortgames.rules.cherkassy.victory)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaigns.models import (
    Campaign,
    CampaignEvent,
    ControlPoint,
    GameUnit,
    ShortGame,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import victory as cp_victory_rules
from campaigns.shortgames.turn_steps import (
    current_day,
    is_last_turn,
    marks_of,
    turn_complete,
    turn_steps,
    weather_now,
)


def cp_victory_facts(
    campaign: Campaign,
    game: ShortGame | None,
    units: Sequence[GameUnit],
    control: Sequence[ControlPoint],
    *,
    game_over: bool,
) -> Any:
    """What the scenario's VP conditions test, from the roster, the pocket and the places; a
    fact the app cannot know is None (the condition is shown, not counted)."""
    formed = game is not None and game.pocket_formed_index is not None
    at_formation: dict[str, int] = {}
    if formed:
        event = (
            CampaignEvent.objects.filter(
                campaign=campaign, action="pocket.changed", undone_at__isnull=True
            )
            .order_by("-id")
            .first()
        )
        at_formation = (event.data.get("at_formation") if event else None) or {}
    group = [u for u in units if u.side == "german" and u.in_pocket]
    out = short_games.OUT_OF_PLAY_STATES
    manual = {
        c["id"]
        for c in short_games.victory_conditions(campaign)
        if short_games.is_manual_condition(c)
    }
    ticked = manual & set(game.victory if game else {})
    return cp_victory_rules.CpVictoryFacts(
        encirclement_formed=formed,
        n_eliminated_or_encircled_at_formation=at_formation.get("n"),
        non_n_eliminated_or_encircled_at_formation=at_formation.get("non_n"),
        hex_control={
            point.key.removeprefix("hex-"): point.controller
            for point in control
            if point.controller
        },
        stemmermann_on_map=sum(1 for u in group if u.on_map) if formed else None,
        stemmermann_all_eliminated_before_relief=True if ticked else None,
        stemmermann_n_ever=sum(1 for u in group if u.marked_n) if formed else None,
        stemmermann_non_n_ever=sum(1 for u in group if not u.marked_n) if formed else None,
        german_tanks_eliminated=sum(
            1 for u in units if u.side == "german" and u.unit_type == "tank" and u.state in out
        ),
        soviet_tanks_eliminated_or_in_recovery=sum(
            1 for u in units if u.side == "soviet" and u.unit_type == "tank" and u.state in out
        ),
        game_over=game_over,
    )


def cp_victory(campaign: Campaign, game: ShortGame | None) -> Any:
    """The scenario's Soviet VP as they stand
    (campaigns.shortgames.rules.cherkassy.victory.victory_tally)."""
    units = list(GameUnit.objects.filter(campaign=campaign))
    control = list(ControlPoint.objects.filter(campaign=campaign))
    game_over = False
    if game is not None and is_last_turn(campaign):
        day = current_day(campaign)
        steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
        game_over = turn_complete(steps)
    facts = cp_victory_facts(campaign, game, units, control, game_over=game_over)
    return cp_victory_rules.victory_tally(
        campaign.campaign_game, facts, short_games.game_data(campaign)
    )
