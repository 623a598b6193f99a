"""Cherkassy Pocket's air power (11.16): each side's points per activation segment, rolled
or fixed, and the Soviet split between the fronts."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Reason
from campaigns.shortgames.rules.cherkassy.data import fixed_text
from campaigns.shortgames.rules.common import text


@dataclass(frozen=True)
class AirPoints:
    side: str
    fixed: int | None
    table_id: str | None
    maximum: int | None
    rule: str
    reason: LocalizedText
    skipped: bool = False  # no points at all this segment (the side's segment is over)


# The first turn of the scenarios that start mid-turn (seed 002: scenario 2 on turn 7,
# scenario 3 on turn 16, at the German operations of activation segment 1).
FIRST_TURNS = {"scenario-2": 7, "scenario-3": 16}
AIR_TABLES = {"german": "cp.air-points-german", "soviet": "cp.air-points-soviet"}


def air_points(
    turn: int,
    segment: int,
    side: str,
    campaign_game: str,
    game: Mapping[str, Any] | None = None,
) -> AirPoints:
    """Per side per activation segment: a roll (German at most 5), or fixed: Soviet 3 on turn
    0 and 6 on turn 1; German 3 on the first turn of scenarios 2 and 3. Scenarios 2 and 3
    start at the German operations of activation segment 1 (the Soviet operations of that
    segment count as done): no Soviet air points then."""
    first_turn = FIRST_TURNS.get(campaign_game)
    if side == "soviet" and turn == first_turn and segment == 1:
        return AirPoints(
            side,
            None,
            None,
            None,
            campaign_game.replace("scenario-", "Scenario "),
            text(
                "No Soviet air points: the scenario starts at the German operations segment of "
                "activation segment 1 (the Soviet operations of that segment count as done).",
                "ソ連軍の航空支援はありません：シナリオは第1活性化セグメントのドイツ軍作戦セグメントから"
                "始まります（ソ連軍の作戦セグメントは終了したものと見なします）。",
            ),
            skipped=True,
        )
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
                    f"{turn} (credited when the Soviet player marks this step done).",
                    f"ダイスは振りません：第{turn}ターンのソ連軍はセグメントごとに{fixed}ポイント"
                    "（ソ連軍がこのステップを完了にすると加算されます）。",
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
    if turn == first_turn:
        return AirPoints(
            side,
            3,
            None,
            None,
            campaign_game.replace("scenario-", "Scenario "),
            fixed_text({"german": 3}),
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


def fixed_credit(turn: int, segment: int, side: str, campaign_game: str) -> int | None:
    """The points the app credits ``side`` in the air power phase of ``segment`` without a
    roll (11.16 B, scenarios 2/3's first turn), or None (rolled, or none at all)."""
    answer = air_points(turn, segment, side, campaign_game)
    return None if answer.skipped else answer.fixed


def air_points_from_roll(side: str, face: int) -> int:
    return min(face, 5) if side == "german" else face


def soviet_front_split(points: int, turn: int, encirclement_formed: bool) -> tuple[int, int] | None:
    """11.16: except on turn 0 and until the pocket forms, the Soviet points are split evenly
    between the fronts, an odd point to the 1st Ukrainian Front. (1st UF, 2nd UF) or None."""
    if turn == 0 or encirclement_formed:
        return None
    return math.ceil(points / 2), points // 2


# The two Soviet Fronts of 11.16's split (the odd point goes to the 1st Ukrainian Front, the
# western half of the map). "" is points no Front owns: turn 0's and those after the pocket.
FRONTS = {
    "1uf": text("1st Ukrainian Front", "第1ウクライナ正面軍"),
    "2uf": text("2nd Ukrainian Front", "第2ウクライナ正面軍"),
}


def credited_by_front(
    side: str, points: int, turn: int, encirclement_formed: bool
) -> list[tuple[str, int]]:
    """The credit of ``points`` air points as (front, points) rows: the Soviet points split
    between the Fronts while 11.16 says so, anything else in one row without a front. A Front
    given 0 (a single point) gets no row."""
    split = soviet_front_split(points, turn, encirclement_formed) if side == "soviet" else None
    if split is None:
        return [("", points)]
    return [(front, n) for front, n in zip(FRONTS, split, strict=True) if n]


def front_to_spend(
    side: str, front: str, amount: int, left_by_front: Mapping[str, int]
) -> tuple[str, Reason | None]:
    """11.16: which of the side's air points pays for ``amount`` points spent (the pool: a
    Front, or "" for points no Front owns). A Soviet combat's point comes from its own Front's
    points, else from points no Front owns; while the Soviet points are split (a Front has some
    this turn) a spending names its Front. The refusal names 11.16."""
    if side != "soviet" or amount <= 0:
        return "", None
    pool = left_by_front.get("", 0)
    split = any(key in FRONTS for key in left_by_front)
    if front and left_by_front.get(front, 0) >= amount:
        return front, None
    if pool >= amount:
        return "", None
    if not front and split:
        return "", Reason(
            "front_needed",
            "11.16",
            {},
            text=text(
                "The Soviet air points are split between the Fronts this turn: say which "
                "Front's combat this is.",
                "このターンのソ連軍の航空支援ポイントは2つの戦線に振り分けられています。"
                "どちらの戦線の戦闘か選んでください。",
            ),
        )
    if front:
        name = FRONTS[front]
        left = left_by_front.get(front, 0)
        return front, Reason(
            "front_has_no_points",
            "11.16",
            {"front": front, "left": left, "amount": amount},
            text=text(
                f"The {name.en} has {left} air point(s) left this turn, not {amount}: a Front "
                "spends only its own share.",
                f"{name.ja}のこのターンの航空支援ポイントは残り{left}で、{amount}には足りません。"
                "戦線は自分の割り当て分しか使えません。",
            ),
        )
    return "", None  # no Front involved: the plain balance check refuses it
