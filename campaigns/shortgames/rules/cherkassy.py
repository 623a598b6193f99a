"""Cherkassy Pocket: the rules' numbers as pure functions over the module's data (no Django).

The translation we have (seed 002) lacks the weather table, the weather printed on the Turn
Record Track, the CRT, the terrain chart and every order of battle. They are the referee slots
of game.json (``referee_slots``); a function that needs one says which and why instead of
guessing. ``referee_tables`` everywhere is {slot id: the data the referee entered, or None}.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import (
    RuleWarning,
    StepState,
    TableUse,
    data_text,
    lookup,
    text,
)

SIDES = ("german", "soviet")
WEATHERS = ("snow", "mud")
BREAKDOWN_TYPES = frozenset({"tank", "mech_infantry"})  # 10.3: not motorized infantry
ARTILLERY_TYPES = frozenset({"artillery", "motorized_artillery", "rocket_artillery"})
# Where eliminated units go (11.10, 10.3): short keys for the Play Aid Card's boxes.
BOXES = {
    "reconstitution": "eligible_for_reconstitution",
    "recovery_1": "recovery_1_step",
    "recovery_2": "recovery_2_steps",
    "permanent": "permanently_eliminated",
}


@dataclass(frozen=True)
class CpState:
    """What the turn sequence depends on beyond the turn and scenario."""

    encirclement_formed: bool = False
    german_north_entered: bool = False
    pz24_rolled: bool = False
    pz24_automatic: bool = False
    pz24_arrives: bool | None = None


# --------------------------------------------------------------------------- data access


def scenario(game: Mapping[str, Any], campaign_game: str) -> Mapping[str, Any]:
    for row in game["scenarios"]:
        if row["campaign_game"] == campaign_game:
            return row
    raise ValueError(f"unknown Cherkassy Pocket scenario {campaign_game!r}")


def _check_turn(game: Mapping[str, Any], campaign_game: str, turn: int) -> Mapping[str, Any]:
    row = scenario(game, campaign_game)
    if not row["start"]["turn"] <= turn <= row["end_turn"]:
        raise ValueError(
            f"{campaign_game} runs from turn {row['start']['turn']} to {row['end_turn']}, "
            f"not {turn}"
        )
    return row


def _slot(game: Mapping[str, Any], slot_id: str) -> Mapping[str, Any]:
    for slot in game["referee_slots"]:
        if slot["id"] == slot_id:
            return slot
    raise KeyError(slot_id)


def _slot_data(referee_tables: Mapping[str, Any], game: Mapping[str, Any], slot_id: str) -> Any:
    if slot_id in referee_tables:
        return referee_tables[slot_id] or None
    return _slot(game, slot_id).get("data") or None


# --------------------------------------------------------------------------- turn sequence


def _special_rules_text(
    row: Mapping[str, Any], turn: int, side: str | None, segment: int | None
) -> LocalizedText | None:
    """The scenario's special rules that restrict ``side`` on ``turn`` (and segment)."""
    texts = [
        rule["text"]
        for rule in row["special_rules"]
        if turn in (rule.get("turns") or ())
        and rule.get("side") in (side, None)
        and (rule.get("segment") is None or rule.get("segment") == segment)
        and (rule.get("no_movement") or rule.get("no_combat") or rule.get("may_not_be_adjacent_to"))
    ]
    if not texts:
        return None
    return text(" ".join(t["en"] for t in texts), "".join(t.get("ja") or t["en"] for t in texts))


def _override(step: Mapping[str, Any], campaign_game: str, turn: int) -> Mapping[str, Any] | None:
    for override in step.get("scenario_overrides") or ():
        if override["campaign_game"] == campaign_game and override["turn"] == turn:
            return override
    return None


def steps(
    turn: int,
    campaign_game: str,
    state: CpState,
    sequence: Mapping[str, Any],
    game: Mapping[str, Any],
) -> list[StepState]:
    """The turn sequence (5.2) for ``turn`` of ``campaign_game``: weather, supply, recovery
    designation, two activation segments (air, Soviet and German operations, reconstitution,
    artillery recovery), tank recovery, turn advance. Scenario 2 and 3 start mid-turn: the
    steps before the German operations of their first turn are skipped, the weather and the
    German air points fixed."""
    row = _check_turn(game, campaign_game, turn)
    result = []
    for step in sequence["steps"]:
        override = _override(step, campaign_game, turn)
        applies, limited, reason = True, False, None
        effect = override["effect"] if override else None
        if effect == "skipped":
            applies = False
            reason = text(
                f"Not played: {row['rule']} starts in the German operations segment of turn "
                f"{turn}.",
                f"行いません：{row['rule']}は第{turn}ターンのドイツ軍作戦セグメントから始まります。",
            )
        elif effect == "fixed":
            reason = _fixed_text(override["values"])
        elif effect == "restricted":
            limited = True
            reason = _special_rules_text(row, turn, step.get("side"), step.get("segment"))
        elif effect == "scenario_starts_here":
            reason = text(f"{row['rule']} starts here.", f"{row['rule']}はここから始まります。")
        tables = tuple(
            _table_use(step, table_id, turn, campaign_game, state, applies, override)
            for table_id in step.get("tables") or ()
        )
        result.append(
            StepState(
                id=step["id"],
                phase=None,
                side=step.get("side"),
                rule=step["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
                tables=tables,
                referee_slots=tuple(step.get("referee_slots") or ()),
            )
        )
    return result


def _fixed_text(values: Mapping[str, Any]) -> LocalizedText:
    if "weather" in values:
        en, ja = {"snow": ("snow", "降雪"), "mud": ("mud", "泥濘")}[values["weather"]]
        return text(
            f"No roll: the scenario fixes the weather ({en}).",
            f"ダイスは振りません：シナリオで天候は{ja}に決まっています。",
        )
    points = values.get("german")
    return text(
        f"No German roll: the scenario gives {points} air points per activation segment.",
        f"ドイツ軍はダイスを振りません：シナリオにより各活性化セグメント{points}ポイント。",
    )


def _table_use(
    step: Mapping[str, Any],
    table_id: str,
    turn: int,
    campaign_game: str,
    state: CpState,
    step_applies: bool,
    override: Mapping[str, Any] | None,
) -> TableUse:
    roller = {"cp.air-points-german": "german", "cp.air-points-soviet": "soviet"}.get(
        table_id, step.get("side")
    )
    rule = step["rule"]
    if not step_applies:
        return TableUse(table_id, False, rule, None, roller)
    if table_id in ("cp.air-points-german", "cp.air-points-soviet"):
        answer = air_points(turn, step.get("segment") or 1, roller, campaign_game)
        return TableUse(table_id, answer.fixed is None, answer.rule, answer.reason, roller)
    if table_id == "cp.pz24-arrival":
        use = pz24_arrival(turn, step.get("segment") or 1, state)
        return TableUse(table_id, use.applies, use.rule, use.reason, roller)
    return TableUse(table_id, True, rule, None, roller)


# --------------------------------------------------------------------------- referee slots


# What each missing slot stops the app from doing (the rules we have do not print them).
SLOT_BLOCKS = {
    "cp.weather-table": (
        "The weather roll cannot be made: the weather table (5.3) is not in our rules.",
        "天候のダイス判定はできません：天候表（5.3）が手元のルールにありません。",
    ),
    "cp.weather-track": (
        "Which turns roll for weather is printed on the Turn Record Track, which is not in our "
        "rules.",
        "どのターンに天候判定をするかはターン記録トラックに印刷されており、手元のルールにありません。",
    ),
    "cp.crt": (
        "Combat results cannot be looked up: the CRT (11.9) is not in our rules (only 2:1, roll "
        "4 → 1/1 is known).",
        "戦闘結果を求められません：CRT（11.9）が手元のルールにありません（2:1・出目4→1/1のみ判明）。",
    ),
    "cp.tec": (
        "Terrain column shifts and movement costs cannot be worked out: the terrain effects "
        "chart is not in our rules.",
        "地形によるコラムシフトと移動コストが分かりません：地形効果表が手元のルールにありません。",
    ),
    "cp.counter-manifest": (
        "The units and the scenario 1/4 set-up are printed on the counters: enter them in the "
        "roster.",
        "ユニットとシナリオ1/4の配置はカウンターに印刷されています。ロスターに入力してください。",
    ),
    "cp.reinforcement-schedule": (
        "Arrival turns and edges are printed on the counters: enter them in the roster.",
        "登場ターンと登場エリアはカウンターに印刷されています。ロスターに入力してください。",
    ),
    "cp.setup-scenario-2": (
        "The scenario 2 set-up is not in our rules.",
        "シナリオ2の配置は手元のルールにありません。",
    ),
    "cp.setup-scenario-3": (
        "The scenario 3 set-up is not in our rules.",
        "シナリオ3の配置は手元のルールにありません。",
    ),
}


@dataclass(frozen=True)
class MissingRoll:
    slot_id: str
    name: LocalizedText
    kind: str
    rule: str
    reason: LocalizedText


def missing_rolls(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> list[MissingRoll]:
    """The referee slots still empty, each with what it stops (in the data's order)."""
    missing = []
    for slot in game["referee_slots"]:
        if _slot_data(referee_tables, game, slot["id"]) is not None:
            continue
        name = data_text(slot["name"])
        en, ja = SLOT_BLOCKS.get(
            slot["id"],
            (f"{name.en} is not in our rules.", f"{name.ja}は手元のルールにありません。"),
        )
        missing.append(
            MissingRoll(
                slot["id"],
                name,
                slot["kind"],
                slot["rule"],
                text(f"{en} The referee enters it.", f"{ja}レフェリーが入力します。"),
            )
        )
    return missing


# --------------------------------------------------------------------------- weather (5.3)


@dataclass(frozen=True)
class WeatherRoll:
    """``fixed`` (no roll, ``weather`` set), ``table`` (the Soviet player rolls the referee's
    table ``table_id``) or ``missing`` (no table yet; ``reason`` says what is missing)."""

    turn: int
    mode: str
    weather: str | None
    table_id: str | None
    roller: str | None
    rule: str
    reason: LocalizedText


def weather_roll(
    turn: int, campaign_game: str, referee_tables: Mapping[str, Any], game: Mapping[str, Any]
) -> WeatherRoll:
    _check_turn(game, campaign_game, turn)
    rules = game["weather"]
    for fixed in rules["scenario_first_turn"]:
        if fixed["campaign_game"] == campaign_game and fixed["turn"] == turn:
            en, ja = {"snow": ("snow", "降雪"), "mud": ("mud", "泥濘")}[fixed["weather"]]
            return WeatherRoll(
                turn,
                "fixed",
                fixed["weather"],
                None,
                None,
                scenario(game, campaign_game)["rule"],
                text(
                    f"No roll: the scenario's first turn is {en}.",
                    f"ダイスは振りません：シナリオ最初のターンの天候は{ja}です。",
                ),
            )
    track = _slot_data(referee_tables, game, rules["track_referee_slot"])
    printed = None
    if track is not None:
        printed = next((row["condition"] for row in track if row.get("turn") == turn), None)
    if printed in WEATHERS:
        en, ja = {"snow": ("snow", "降雪"), "mud": ("mud", "泥濘")}[printed]
        return WeatherRoll(
            turn,
            "fixed",
            printed,
            None,
            None,
            rules["rule"],
            text(
                f"No roll: the Turn Record Track shows {en} for this turn.",
                f"ダイスは振りません：ターン記録トラックのこのターンは{ja}です。",
            ),
        )
    table = _slot_data(referee_tables, game, rules["referee_slot"])
    if table is None:
        en, ja = SLOT_BLOCKS["cp.weather-table"]
        return WeatherRoll(
            turn,
            "missing",
            None,
            None,
            rules["roller"],
            rules["rule"],
            text(f"{en} The referee enters it.", f"{ja}レフェリーが入力します。"),
        )
    if printed is None:
        reason = text(
            "The Soviet player rolls on the referee's weather table when the Turn Record Track "
            "shows snow/mud for this turn (the track is not recorded here).",
            "ターン記録トラックのこのターンが降雪/泥濘なら、ソ連軍プレイヤーがレフェリーの天候表で"
            "ダイスを振ります（トラックはここに記録されていません）。",
        )
    else:
        reason = text(
            "The Turn Record Track shows snow/mud: the Soviet player rolls for the weather.",
            "ターン記録トラックは降雪/泥濘：ソ連軍プレイヤーがダイスを振って天候を決めます。",
        )
    return WeatherRoll(
        turn, "table", None, rules["referee_slot"], rules["roller"], rules["rule"], reason
    )


def weather_from_roll(face: int, referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    table = _slot_data(referee_tables, game, game["weather"]["referee_slot"])
    if table is None:
        raise ValueError("the weather table has not been entered")
    return lookup(table, face)["weather"]


# --------------------------------------------------------------------------- air power (11.16)


@dataclass(frozen=True)
class AirPoints:
    side: str
    fixed: int | None
    table_id: str | None
    maximum: int | None
    rule: str
    reason: LocalizedText


AIR_TABLES = {"german": "cp.air-points-german", "soviet": "cp.air-points-soviet"}


def air_points(
    turn: int,
    segment: int,
    side: str,
    campaign_game: str,
    game: Mapping[str, Any] | None = None,
) -> AirPoints:
    """Per side per activation segment: a roll (German at most 5), or fixed: Soviet 3 on turn
    0 and 6 on turn 1; German 3 on the first turn of scenarios 2 and 3."""
    if side == "soviet":
        fixed = {0: 3, 1: 6}.get(turn)
        if fixed is not None:
            return AirPoints(
                side,
                fixed,
                None,
                None,
                "11.16",
                text(
                    f"No roll: the Soviet player gets {fixed} air points per segment on turn "
                    f"{turn}.",
                    f"ダイスは振りません：第{turn}ターンのソ連軍はセグメントごとに{fixed}ポイント。",
                ),
            )
        return AirPoints(
            side,
            None,
            AIR_TABLES[side],
            6,
            "11.16",
            text(
                "The Soviet player rolls: points = the die.",
                "ソ連軍はダイスを振り、出目がポイント。",
            ),
        )
    first_turn = {"scenario-2": 7, "scenario-3": 16}.get(campaign_game)
    if turn == first_turn:
        return AirPoints(
            side,
            3,
            None,
            None,
            campaign_game.replace("scenario-", "Scenario "),
            _fixed_text({"german": 3}),
        )
    return AirPoints(
        side,
        None,
        AIR_TABLES[side],
        5,
        "11.16",
        text(
            "The German player rolls: points = the die, at most 5 (a 6 counts as 5).",
            "ドイツ軍はダイスを振り、出目がポイント（最大5、6の目は5）。",
        ),
    )


def air_points_from_roll(side: str, face: int) -> int:
    return min(face, 5) if side == "german" else face


def soviet_front_split(points: int, turn: int, encirclement_formed: bool) -> tuple[int, int] | None:
    """11.16: except on turn 0 and until the pocket forms, the Soviet points are split evenly
    between the fronts, an odd point to the 1st Ukrainian Front. (1st UF, 2nd UF) or None."""
    if turn == 0 or encirclement_formed:
        return None
    return math.ceil(points / 2), points // 2


# --------------------------------------------------------------------------- tank breakdown (10.3)


@dataclass(frozen=True)
class Breakdown:
    required: bool
    table_id: str
    fails_on: tuple[int, ...]
    rule: str
    reason: LocalizedText


def tank_breakdown(
    side: str, unit_type: str, *, moved: bool = True, advance_after_combat: bool = False
) -> Breakdown:
    """10.3: each Soviet tank or mechanized infantry unit (not motorized) that moves rolls one
    die; a 1 is a maintenance step loss. Never for an advance after combat."""
    table, rule, fails = "cp.tank-breakdown", "10.3", (1,)
    if side != "soviet" or unit_type not in BREAKDOWN_TYPES:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text(
                "Only Soviet tank and mechanized infantry units roll for breakdown.",
                "故障判定をするのはソ連軍の戦車／機械化歩兵ユニットだけです。",
            ),
        )
    if advance_after_combat:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text(
                "No breakdown roll for an advance after combat.",
                "戦闘後前進では故障判定をしません。",
            ),
        )
    if not moved:
        return Breakdown(
            False,
            table,
            fails,
            rule,
            text("Only a unit that moves rolls.", "移動したユニットだけが判定します。"),
        )
    return Breakdown(
        True,
        table,
        fails,
        rule,
        text(
            "Roll one die for this unit: on a 1 it loses a step to breakdown.",
            "このユニットについてダイスを1つ振ります：1なら整備不良で1ステップ喪失。",
        ),
    )


@dataclass(frozen=True)
class BreakdownOutcome:
    step_lost: bool
    to_box: str | None  # "recovery_1" / "recovery_2" when the unit leaves the map
    place_msl: bool
    text: LocalizedText


def breakdown_result(face: int, full_strength: bool, has_msl: bool) -> BreakdownOutcome:
    if face != 1:
        return BreakdownOutcome(False, None, False, text("No effect.", "影響なし。"))
    if full_strength:
        return BreakdownOutcome(
            True,
            None,
            True,
            text(
                "Breakdown: flip to the reduced side and place an MSL marker under it.",
                "整備不良：裏返して減少面にし、下に整備不良マーカーを置く。",
            ),
        )
    if has_msl:
        return BreakdownOutcome(
            True,
            "recovery_2",
            False,
            text(
                "Breakdown: to the 'Tank/Mech Units with 2 Steps Eligible for Recovery' box.",
                "整備不良：“2ステップ”回復ボックスへ。",
            ),
        )
    return BreakdownOutcome(
        True,
        "recovery_1",
        False,
        text(
            "Breakdown: to the 'Tank/Mech Units with 1 Step Eligible for Recovery' box.",
            "整備不良：“1ステップ”回復ボックスへ。",
        ),
    )


# --------------------------------------------------------------------------- reinforcements (9.0)


def pz24_arrival(turn: int, segment: int, state: CpState) -> TableUse:
    """9.5: on its arrival turn (9, 3 Feb) the German player rolls once: 1–3 it arrives,
    4–6 it never does. A less experienced German player may have it arrive without a roll."""
    table, rule = "cp.pz24-arrival", "9.5"
    if state.pz24_automatic:
        return TableUse(
            table,
            False,
            rule,
            text(
                "No roll: the players chose to have the 24th Panzer arrive automatically.",
                "ダイスは振りません：第24装甲師団は自動的に登場します（プレイヤーの選択）。",
            ),
            "german",
        )
    if state.pz24_rolled:
        return TableUse(
            table,
            False,
            rule,
            text("The 24th Panzer roll has been made.", "第24装甲師団の判定は済んでいます。"),
            "german",
        )
    if turn != 9 or segment != 1:
        return TableUse(
            table,
            False,
            rule,
            text(
                "Rolled once, in the first German movement phase of turn 9 (3 Feb).",
                "第9ターン(2月3日)の最初のドイツ軍移動フェイズに1度だけ判定します。",
            ),
            "german",
        )
    return TableUse(
        table,
        True,
        rule,
        text(
            "Roll one die: 1–3 the 24th Panzer arrives as scheduled, 4–6 it never arrives.",
            "ダイスを1つ振ります：1～3なら第24装甲師団は予定どおり登場、4～6なら登場しません。",
        ),
        "german",
    )


def pz24_result(face: int) -> bool:
    """True when the 24th Panzer Division arrives."""
    return 1 <= face <= 3


def north_edge_open(
    side: str, turn: int, segment: int, state: CpState
) -> tuple[bool, LocalizedText]:
    """9.4: German N units may enter from the operations phase right after the pocket forms or
    from turn 2 (27 Jan) segment 2, whichever comes first; Soviet N units after the German
    ones have entered."""
    if side == "german":
        if state.encirclement_formed:
            return True, text("The pocket has formed (9.4).", "包囲網が形成されました（9.4）。")
        if (turn, segment) >= (2, 2):
            return True, text(
                "From the second activation segment of turn 2 (27 Jan) (9.4).",
                "第2ターン(1月27日)の第2活性化セグメント以降（9.4）。",
            )
        return False, text(
            "Not before the pocket forms or turn 2 segment 2 (27 Jan) (9.4).",
            "包囲網の形成か第2ターン(1月27日)第2活性化セグメントまでは登場できません（9.4）。",
        )
    if state.german_north_entered:
        return True, text(
            "The German north-edge reinforcements have entered (9.4).",
            "ドイツ軍の北端増援が登場しました（9.4）。",
        )
    return False, text(
        "Only after the German north-edge reinforcements have entered (9.4).",
        "ドイツ軍の北端増援が登場した後でなければ使えません（9.4）。",
    )


@dataclass(frozen=True)
class CpReinforcement:
    unit_id: str
    side: str
    turn: int
    edge: str
    may_enter: bool
    reason: LocalizedText | None = None


def _field(unit: Any, key: str) -> Any:
    if isinstance(unit, Mapping):
        return unit.get(key)
    return getattr(unit, key, None)


def reinforcement_queue(
    turn: int, segment: int, roster_units: Iterable[Any], state: CpState
) -> list[CpReinforcement]:
    """Units not yet entered whose turn has come (9.1: they may be late, never early), with
    whether they may enter now: N units by 9.4, the 24th Panzer by its roll (9.5).
    ``roster_units``: objects or mappings with ``unit_id``, ``side``, ``entry_turn``,
    ``entry_edge`` ("E", "W", "N") and ``formation``."""
    queue = []
    for unit in roster_units:
        entry = _field(unit, "entry_turn")
        if entry is None or entry > turn:
            continue
        side, edge = _field(unit, "side"), _field(unit, "entry_edge") or ""
        may, reason = True, None
        if edge == "N":
            may, reason = north_edge_open(side, turn, segment, state)
        if (
            side == "german"
            and "24" in (_field(unit, "formation") or "")
            and "Pz" in (_field(unit, "formation") or "")
        ):
            if state.pz24_arrives is False:
                may, reason = (
                    False,
                    text(
                        "The 24th Panzer Division never arrives (9.5).",
                        "第24装甲師団は登場しません（9.5）。",
                    ),
                )
            elif state.pz24_arrives is None and not state.pz24_automatic:
                may, reason = (
                    False,
                    text(
                        "Roll for the 24th Panzer first (9.5).",
                        "先に第24装甲師団の登場判定をしてください（9.5）。",
                    ),
                )
        queue.append(CpReinforcement(_field(unit, "unit_id"), side, entry, edge, may, reason))
    return queue


# --------------------------------------------------------------------------- the pocket (3.4, 3.5)


@dataclass(frozen=True)
class StemmermannGroup:
    members: frozenset[str]
    on_map: frozenset[str]
    eliminated: frozenset[str]
    ever: frozenset[str] = field(default=frozenset())


def stemmermann_group(
    formed_with: Iterable[str],
    relieved: Iterable[str] = (),
    eliminated: Iterable[str] = (),
) -> StemmermannGroup:
    """3.5: the German units north of the road without a supply line to the south edge when
    the pocket forms; a unit that traces one in a mutual supply phase leaves the Group; an
    eliminated member stays in the Group's sub-box (11.10). Nobody joins later."""
    ever = frozenset(formed_with)
    members = ever - frozenset(relieved)
    gone = members & frozenset(eliminated)
    return StemmermannGroup(members, members - gone, gone, ever)


# --------------------------------------------------------------------------- losses (11.10, 12.1)


def elimination_box(
    side: str,
    unit_type: str,
    *,
    divisional: bool,
    division_reconstituted: bool = False,
    has_msl: bool = False,
    by_breakdown: bool = False,
) -> str:
    """The Play Aid Card box an eliminated unit goes to (11.10, 10.3); see ``BOXES``. A
    Stemmermann Group unit goes to the Group's sub-box of the same box."""
    if side == "german" and divisional and not division_reconstituted:
        return "reconstitution"
    if side == "soviet" and unit_type in BREAKDOWN_TYPES:
        if by_breakdown:
            return "recovery_2" if has_msl else "recovery_1"
        if has_msl:
            return "recovery_1"
    return "permanent"


@dataclass(frozen=True)
class BoxUnit:
    unit_id: str
    division: str
    size: str  # "battalion", "regiment", …
    stemmermann: bool = False


@dataclass(frozen=True)
class ReconstitutionOption:
    division: str
    stemmermann: bool
    battalions: int
    returns: int
    reason: LocalizedText | None


def reconstitution(
    box_units: Iterable[BoxUnit],
    divisions_used: Iterable[str],
    divisions_on_map: Iterable[str] | None = None,
) -> list[ReconstitutionOption]:
    """12.1: per division, once per game, 3 infantry battalions in the Eligible box return one
    unit, reduced; regiments never; Stemmermann and other units are not mixed; the unit is
    placed with or next to a unit of its division on the map (none: it cannot return)."""
    used = set(divisions_used)
    on_map = set(divisions_on_map) if divisions_on_map is not None else None
    groups: dict[tuple[str, bool], int] = {}
    for unit in box_units:
        if unit.size != "battalion":
            continue
        key = (unit.division, unit.stemmermann)
        groups[key] = groups.get(key, 0) + 1
    options = []
    for (division, stemmermann), battalions in sorted(groups.items()):
        reason = None
        returns = 1 if battalions >= 3 else 0
        if division in used:
            returns, reason = (
                0,
                text(
                    "This division has reconstituted already (once per division).",
                    "この師団はすでに再編成しました（1師団につき1度）。",
                ),
            )
        elif battalions < 3:
            reason = text(
                f"{battalions} battalion(s) in the box; 3 are needed.",
                f"ボックスの大隊は{battalions}個。3個必要です。",
            )
        elif on_map is not None and division not in on_map:
            returns, reason = (
                0,
                text(
                    "No unit of this division is on the map to return next to.",
                    "マップ上にこの師団のユニットがないため復帰できません。",
                ),
            )
        options.append(ReconstitutionOption(division, stemmermann, battalions, returns, reason))
    return options


# --------------------------------------------------------------------------- odds (11.6, 11.8)


def odds(attack: int, defense: int) -> str:
    """11.6: A ≥ D gives ⌊A/D⌋:1, else 1:⌈D/A⌉ (26 vs 7 → 3:1, 5 vs 11 → 1:3)."""
    if attack <= 0 or defense <= 0:
        raise ValueError("attack and defense must be positive")
    if attack >= defense:
        return f"{attack // defense}:1"
    return f"1:{math.ceil(defense / attack)}"


def _columns(game: Mapping[str, Any]) -> list[str]:
    return list(_slot(game, "cp.crt")["shape"]["columns_inferred"])


def odds_column(attack: int, defense: int, shift: int, game: Mapping[str, Any]) -> str:
    """The CRT column after the net column shift (+ right): the raw odds clamped to 1:4–7:1,
    shifted, clamped again (11.8; the intermediate columns are inferred)."""
    columns = _columns(game)
    raw = odds(attack, defense)
    left, right = raw.split(":")
    value = int(left) if right == "1" else -int(right)
    numbers = [int(c.split(":")[0]) if c.endswith(":1") else -int(c.split(":")[1]) for c in columns]
    value = min(max(value, numbers[0]), numbers[-1])
    index = numbers.index(value) if value in numbers else 0
    index = min(max(index + shift, 0), len(columns) - 1)
    return columns[index]


def column_shift(ids: Iterable[str], tables: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """The net shift of the chosen column-shift rows (cp.column-shifts), with the rules;
    "fortified_line_and_stream" replaces the two it combines. A row whose shift is unknown
    (terrain: the TEC is missing) raises."""
    chart = next(c for c in tables["charts"] if c["id"] == "cp.column-shifts")
    rows = {row["id"]: row for row in chart["rows"]}
    chosen = list(dict.fromkeys(ids))
    for row_id in list(chosen):
        for replaced in rows[row_id].get("replaces") or ():
            if replaced in chosen:
                chosen.remove(replaced)
    total = 0
    for row_id in chosen:
        shift = rows[row_id]["shift"]
        if shift is None:
            raise ValueError(f"the {row_id} shift is unknown (the terrain chart is missing)")
        total += shift
    return total, tuple(rows[row_id]["rule"] for row_id in chosen)


def _tec_rows(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's TEC as {terrain id: row}: a mapping of rows, or a list of rows with ``id``
    (or ``terrain``). Only rows are read; anything else in the data is left alone."""
    tec = _slot_data(referee_tables, game, "cp.tec")
    if isinstance(tec, Mapping):
        return {str(key): row for key, row in tec.items() if isinstance(row, Mapping)}
    if isinstance(tec, list):
        return {
            str(row.get("id") or row.get("terrain")): row
            for row in tec
            if isinstance(row, Mapping) and (row.get("id") or row.get("terrain"))
        }
    return {}


def terrain_shifts(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, int]:
    """11.12: the column shift of each terrain or hexside of the referee's TEC that has one
    (``column_shift``, a whole number; left = negative); {} while the TEC is missing."""
    shifts = {}
    for terrain, row in _tec_rows(referee_tables, game).items():
        value = row.get("column_shift")
        if isinstance(value, int) and not isinstance(value, bool):
            shifts[terrain] = value
    return shifts


def crt_entered(referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    """Whether the referee entered a CRT (the one printed example cell is not a CRT)."""
    return _slot_data(referee_tables, game, "cp.crt") is not None


def crt_result(
    column: str, face: int, referee_tables: Mapping[str, Any], game: Mapping[str, Any]
) -> Mapping[str, int] | None:
    """The CRT cell {attacker_steps, defender_steps}, or None while the referee has not
    entered the CRT (the one printed cell, 2:1 / 4 → 1/1, is always known)."""
    crt = _slot_data(referee_tables, game, "cp.crt")
    if crt is None:
        for known in _slot(game, "cp.crt").get("what_is_known") or ():
            cell = known.get("cell")
            if cell and cell["column"] == column and cell["roll"] == face:
                return cell["result"]
        return None
    return crt[column][str(face)] if isinstance(crt.get(column), Mapping) else None


# --------------------------------------------------------------------------- victory


@dataclass(frozen=True)
class CpVictoryFacts:
    """What the scenario's victory conditions test; ``None`` = not known (shown, not counted)."""

    encirclement_formed: bool = False
    n_eliminated_or_encircled_at_formation: int | None = None
    non_n_eliminated_or_encircled_at_formation: int | None = None
    hex_control: Mapping[str, str] = field(default_factory=dict)
    stemmermann_on_map: int | None = None
    stemmermann_all_eliminated_before_relief: bool | None = None
    stemmermann_n_ever: int | None = None
    stemmermann_non_n_ever: int | None = None
    german_tanks_eliminated: int | None = None
    soviet_tanks_eliminated_or_in_recovery: int | None = None
    game_over: bool = False


@dataclass(frozen=True)
class VpCondition:
    id: str
    vp: int
    met: bool | None  # None: not known yet
    scored: bool
    rule: str
    text: LocalizedText
    note: LocalizedText | None = None


@dataclass(frozen=True)
class VictoryTally:
    vp: int
    max_vp: int
    conditions: tuple[VpCondition, ...]
    level: LocalizedText
    final: bool


# A condition's ``test`` key → the fact it compares as "at least".
COUNT_FACTS = {
    "german_units_marked_n_eliminated_or_encircled_min": "n_eliminated_or_encircled_at_formation",
    "german_units_not_marked_n_eliminated_or_encircled_min": (
        "non_n_eliminated_or_encircled_at_formation"
    ),
    "stemmermann_units_on_map_min": "stemmermann_on_map",
    "stemmermann_units_marked_n_min": "stemmermann_n_ever",
    "stemmermann_units_not_marked_n_min": "stemmermann_non_n_ever",
}


def _test(test: Mapping[str, Any], facts: CpVictoryFacts) -> bool | None:
    results: list[bool | None] = []
    for key, value in test.items():
        if key == "any_of":
            parts = [_test(part, facts) for part in value]
            if any(parts):
                results.append(True)
            elif None in parts:
                results.append(None)
            else:
                results.append(False)
        elif key == "hex":
            holder = facts.hex_control.get(value)
            results.append(None if holder is None else holder == test["controlled_by"])
        elif key == "controlled_by":
            continue
        elif key == "german_tank_units_eliminated_greater_than":
            german, soviet = (
                facts.german_tanks_eliminated,
                facts.soviet_tanks_eliminated_or_in_recovery,
            )
            results.append(None if german is None or soviet is None else german > soviet)
        elif key == "stemmermann_all_eliminated_before_relief":
            got = facts.stemmermann_all_eliminated_before_relief
            results.append(None if got is None else got == value)
        else:
            name = COUNT_FACTS[key]
            got = getattr(facts, name)
            results.append(None if got is None else got >= value)
    if False in results:
        return False
    if None in results:
        return None
    return True


def victory_tally(
    campaign_game: str, facts: CpVictoryFacts, game: Mapping[str, Any]
) -> VictoryTally:
    """The Soviet VP of the scenario as they stand. Conditions judged when the pocket forms
    count only if it formed; those judged at the end are provisional until ``game_over``;
    conditions of one ``exclusive_group`` never both score."""
    row = scenario(game, campaign_game)
    victory = row["victory"]
    met: dict[str, bool | None] = {}
    conditions = []
    scored_groups: set[str] = set()
    for condition in victory["conditions"]:
        result = _test(condition["test"], facts)
        note = None
        if condition["judged"] == "encirclement_formed" and not facts.encirclement_formed:
            result = None if not facts.game_over else False
            note = text(
                "Judged at the moment the pocket forms.",
                "包囲網が完成した瞬間に判定します。",
            )
        requires = condition.get("requires")
        if requires == "encirclement_formed":
            if not facts.encirclement_formed:
                result = False if facts.game_over else None
                note = text("Needs a formed pocket.", "包囲網の形成が必要です。")
        elif requires and met.get(requires) is not True:
            # "in addition to the above": never without the condition it builds on
            result = met.get(requires)
        group = condition.get("exclusive_group")
        scored = result is True and (group is None or group not in scored_groups)
        if scored and group:
            scored_groups.add(group)
        met[condition["id"]] = result
        conditions.append(
            VpCondition(
                condition["id"],
                condition["vp"],
                result,
                scored,
                row["rule"],
                data_text(condition["text"]),
                note,
            )
        )
    vp = sum(condition.vp for condition in conditions if condition.scored)
    vp = min(vp, victory["max_vp"])
    level = max((lvl for lvl in victory["levels"] if lvl["vp"] <= vp), key=lambda lvl: lvl["vp"])
    return VictoryTally(
        vp, victory["max_vp"], tuple(conditions), data_text(level["name"]), facts.game_over
    )


# --------------------------------------------------------------------------- stacking (8.0)


@dataclass(frozen=True)
class StackUnit:
    side: str
    artillery: bool = False
    unit_id: str = ""


def stacking_warnings(
    units_in_hex: Sequence[StackUnit], game: Mapping[str, Any]
) -> list[RuleWarning]:
    """8.1: at most 3 non-artillery units per hex, checked at the end of each movement phase
    (the excess is eliminated); 8.4: artillery never stacks with another unit. Markers (air,
    OOS, MSL) are not units and are not passed in."""
    rules = game["stacking"]
    warnings = []
    others = [unit for unit in units_in_hex if not unit.artillery]
    maximum = rules["max_non_artillery_units"]
    if len(others) > maximum:
        warnings.append(
            RuleWarning(
                "over_stacked",
                "8.1",
                text(
                    f"{len(others)} units in one hex; at most {maximum} non-artillery units. "
                    "The excess is eliminated at the end of the movement phase (8.2).",
                    f"1ヘクスに{len(others)}ユニット。非砲兵ユニットは{maximum}つまでです。"
                    "移動フェイズ終了時に超過分は除去されます（8.2）。",
                ),
            )
        )
    if any(unit.artillery for unit in units_in_hex) and len(units_in_hex) > 1:
        warnings.append(
            RuleWarning(
                "artillery_stacked",
                rules["artillery_never_stacks"]["rule"],
                text(
                    "Artillery never stacks with another unit, even while moving.",
                    "砲兵ユニットは、いかなる瞬間においても（移動の途中も）他のユニットとスタックできません。",
                ),
            )
        )
    return warnings
