"""Defiant Russia's turn sequence: the eleven phases of 4.0 and the steps of
turn_sequence.json on a given turn and weather — which take place, which are limited, why the
others do not, and which of a step's dice tables are rolled."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import StepState, TableUse, data_text, text, turn_list
from campaigns.shortgames.rules.defiant_russia.data import turn_row, weather_name


@dataclass(frozen=True)
class PhaseState:
    """One of the eleven phases of 4.0 on a given turn and weather."""

    id: str
    number: int
    side: str | None
    name: LocalizedText
    rule: str
    applies: bool
    limited: bool = False
    reason: LocalizedText | None = None


def option_text(game: Mapping[str, Any], option_id: str) -> LocalizedText:
    """An optional rule's name as the rules print it (never its data key)."""
    for option in game.get("optional_rules") or ():
        if option["id"] == option_id:
            return data_text(option["name"])
    return text(option_id, option_id)


def _condition(
    condition: Mapping[str, Any],
    *,
    turn: int,
    weather: str | None,
    options: Iterable[str],
    rule: str,
    game: Mapping[str, Any],
    breakthrough: bool = False,
) -> tuple[bool, bool, LocalizedText | None]:
    """Evaluate a phase/step condition (the shape documented in the module's README)."""
    options = set(options)
    required = condition.get("requires_option")
    if required and required not in options:
        name = option_text(game, required)
        return (
            False,
            False,
            text(
                f"Only with the optional rule {name.en} ({rule}).",
                f"オプションルール「{name.ja}」を使うときだけ（{rule}）。",
            ),
        )
    turns = condition.get("turns")
    if turns is not None:
        turns = set(turns)
        for change in condition.get("option_changes") or ():
            if change["option"] in options:
                turns |= set(change.get("add_turns") or ())
        if turn not in turns:
            if breakthrough and turn == 1:
                return (
                    False,
                    False,
                    text(
                        "Not on turn 1 (6.7).",
                        "第1ターンにはありません（6.7）。",
                    ),
                )
            if turn < min(turns) and set(range(min(turns), max(turns) + 1)) <= turns:
                return (
                    False,
                    False,
                    text(
                        f"From turn {min(turns)} ({rule}).",
                        f"第{min(turns)}ターンから（{rule}）。",
                    ),
                )
            return (
                False,
                False,
                text(
                    f"Only on turn {turn_list(turns)} ({rule}).",
                    f"第{turn_list(turns)}ターンのみ（{rule}）。",
                ),
            )
    weathers = condition.get("weather")
    if weathers is not None and weather is None:
        return (
            False,
            False,
            text(
                "Depends on the weather, which is not known yet (8.0).",
                "天候次第です。天候はまだ決まっていません（8.0）。",
            ),
        )
    if weather is None:
        return True, False, None
    name = weather_name(game, weather)
    if weathers is not None and weather not in weathers:
        return (
            False,
            False,
            text(
                f"Not in {name.en.lower()} (8.3).",
                f"{name.ja}のターンにはありません（8.3）。",
            ),
        )
    limited = (condition.get("limited") or {}).get(weather)
    if limited:
        return True, True, data_text(limited)
    return True, False, None


def phases(
    turn: int, weather: str | None, options: Iterable[str], game: Mapping[str, Any]
) -> list[PhaseState]:
    """The 11 phases of 4.0 for ``turn`` in ``weather``: which take place, which are limited.
    ``weather`` None (not rolled yet): the weather-dependent phases say so."""
    turn_row(game, turn)
    if weather is not None:
        weather_name(game, weather)
    options = tuple(options)
    result = []
    for phase in game["phases"]:
        applies, limited, reason = _condition(
            phase["exists"],
            turn=turn,
            weather=weather,
            options=options,
            rule="4.0",
            game=game,
            breakthrough="breakthrough" in phase["id"],
        )
        result.append(
            PhaseState(
                id=phase["id"],
                number=phase["number"],
                side=phase["side"],
                name=data_text(phase["name"]),
                rule=phase["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
            )
        )
    return result


def steps(
    turn: int,
    weather: str | None,
    options: Iterable[str],
    sequence: Mapping[str, Any],
    game: Mapping[str, Any],
) -> list[StepState]:
    """The steps of turn_sequence.json for ``turn``: whether each takes place and which of its
    tables are rolled (weather tables only with random weather on turns 3–6, …)."""
    turn_row(game, turn)
    options = tuple(options)
    result = []
    for step in sequence["steps"]:
        applies, limited, reason = _condition(
            step["conditions"],
            turn=turn,
            weather=weather,
            options=options,
            rule=step["rule"],
            game=game,
            breakthrough="breakthrough" in (step.get("phase") or ""),
        )
        uses = []
        for table_id in step.get("tables") or ():
            condition = (step.get("table_conditions") or {}).get(table_id)
            table_applies, table_reason = applies, reason
            if applies and condition:
                table_applies, _, table_reason = _condition(
                    condition,
                    turn=turn,
                    weather=weather,
                    options=options,
                    rule=dice_rule(game, table_id, step["rule"]),
                    game=game,
                )
            uses.append(
                TableUse(
                    table_id=table_id,
                    applies=table_applies,
                    rule=step["rule"],
                    reason=table_reason,
                    roller=step.get("side"),
                )
            )
        result.append(
            StepState(
                id=step["id"],
                phase=step.get("phase"),
                side=step.get("side"),
                rule=step["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
                tables=tuple(uses),
            )
        )
    return result


def dice_rule(game: Mapping[str, Any], table_id: str, default: str) -> str:
    if table_id.startswith("dr.weather"):
        return "8.2"
    if table_id == "dr.airborne-drop":
        return game["airborne"]["rule"]
    return default
