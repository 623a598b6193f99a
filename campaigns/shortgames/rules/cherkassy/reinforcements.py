"""Cherkassy Pocket's reinforcements (9.0): who may enter now — late never early (9.1), the
north edge (9.4), the 24th Panzer's roll (9.5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import CpState
from campaigns.shortgames.rules.common import TableUse, field_of, text


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


def reinforcement_queue(
    turn: int, segment: int, roster_units: Iterable[Any], state: CpState
) -> list[CpReinforcement]:
    """Units not yet entered whose turn has come (9.1: they may be late, never early), with
    whether they may enter now: N units by 9.4, the 24th Panzer by its roll (9.5).
    ``roster_units``: objects or mappings with ``unit_id``, ``side``, ``entry_turn``,
    ``entry_edge`` ("E", "W", "N") and ``formation``."""
    queue = []
    for unit in roster_units:
        entry = field_of(unit, "entry_turn")
        if entry is None or entry > turn:
            continue
        side, edge = field_of(unit, "side"), field_of(unit, "entry_edge") or ""
        may, reason = True, None
        if edge == "N":
            may, reason = north_edge_open(side, turn, segment, state)
        if (
            side == "german"
            and "24" in (field_of(unit, "formation") or "")
            and "Pz" in (field_of(unit, "formation") or "")
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
        queue.append(CpReinforcement(field_of(unit, "unit_id"), side, entry, edge, may, reason))
    return queue
