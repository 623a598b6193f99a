"""Defiant Russia's special events: partisans (11.2), the airborne drop (11.3), shock armies
(11.1) and the leaders' casualty rolls (11.6) — whether each is rolled now, and what a face
means."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.shortgames.rules.common import (
    TableUse,
    data_text,
    dice_table,
    lookup,
    text,
    turn_list,
)


def partisans(turn: int, game: Mapping[str, Any]) -> TableUse:
    rules = game["partisans"]
    if turn < rules["first_turn"]:
        return TableUse(
            rules["table"],
            False,
            rules["rule"],
            text(
                f"Partisans act from turn {rules['first_turn']} (September).",
                f"パルチザンは第{rules['first_turn']}ターン(9月)から。",
            ),
            rules["roller"],
        )
    return TableUse(
        rules["table"],
        True,
        rules["rule"],
        text(
            "The Soviet player rolls one die in his organization phase; on a 6 the Axis player "
            "reduces one non-Finnish infantry unit.",
            "ソビエト連邦プレイヤーは組織フェイズにサイコロを1個振ります。6なら枢軸軍プレイヤーは"
            "フィンランド軍以外の歩兵部隊1つを減少させます。",
        ),
        rules["roller"],
    )


def airborne_drop(
    turn: int,
    weather: str,
    options: Iterable[str],
    already_dropped: bool,
    game: Mapping[str, Any],
) -> TableUse:
    """11.3: one drop per game, on a snow turn: turn 7, or turn 6 under random weather."""
    rules = game["airborne"]
    mode = "random_weather" if "random_weather" in set(options) else "historical"
    table, rule, roller = rules["table"], rules["rule"], "soviet"
    if already_dropped:
        return TableUse(
            table,
            False,
            rule,
            text("The airborne unit has dropped already.", "空挺部隊はすでに降下しました。"),
            roller,
        )
    if turn not in rules["drop_turns"][mode]:
        return TableUse(
            table,
            False,
            rule,
            text(
                f"The airborne unit may drop only on turn {turn_list(rules['drop_turns'][mode])}.",
                f"空挺部隊が降下できるのは第{turn_list(rules['drop_turns'][mode])}ターンだけです。",
            ),
            roller,
        )
    if weather not in rules["drop_weather"]:
        return TableUse(
            table,
            False,
            rule,
            text(
                "The airborne unit drops only on a snow turn.",
                "空挺部隊は雪ターンにだけ降下できます。",
            ),
            roller,
        )
    return TableUse(
        table,
        True,
        rule,
        text(
            "At the start of a movement phase the unit moves from a city to a hex within 4 "
            "hexes; then the Soviet player rolls: 1 eliminated, 2–3 reduced.",
            "移動フェイズ開始時に都市から4ヘクス以内に置き、サイコロを1個振ります：1で除去、"
            "2か3で減少戦力。",
        ),
        roller,
    )


def shock_army_exchange(turn: int, game: Mapping[str, Any]) -> TableUse:
    rules = game["shock_armies"]
    applies = turn >= rules["available_turn"]
    return TableUse(
        None,
        applies,
        rules["rule"],
        data_text(rules["procedure"])
        if applies
        else text(
            f"Shock armies are available from turn {rules['available_turn']} (December).",
            f"打撃軍は第{rules['available_turn']}ターン(12月)から利用できます。",
        ),
        "soviet",
    )


def leader_casualty_table(some_or_all: str, game: Mapping[str, Any]) -> str:
    """11.6: which table a leader rolls on when units stacked with him are eliminated (a step
    loss alone never calls for a roll)."""
    tables = game["leaders"]["casualty_tables"]
    key = {"some": "some_of_stack_eliminated", "all": "whole_stack_eliminated"}[some_or_all]
    return tables[key]


def leader_casualty_result(
    face: int, some_or_all: str, tables: Mapping[str, Any], game: Mapping[str, Any]
) -> str:
    """``leader_dies``, ``none`` (survives) or ``relocate`` (survives, placed per 11.6x)."""
    return lookup(dice_table(tables, leader_casualty_table(some_or_all, game)), face)["effect"]


def airborne_drop_state(effect: str, state: str) -> str:
    """11.3: the airborne unit's state after its drop roll: "eliminated" (1), "reduced" (2–3:
    a unit already reduced loses its last step and is eliminated), "none" (4–6) keeps it."""
    if effect == "eliminated" or (effect == "reduced" and state == "reduced"):
        return "eliminated"
    if effect == "reduced":
        return "reduced"
    return state
