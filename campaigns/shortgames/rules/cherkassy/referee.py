"""Cherkassy Pocket's referee slots: what the rules we have do not print, and what each
missing one stops the app from doing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import slot_data
from campaigns.shortgames.rules.common import data_text, text

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
        if slot_data(referee_tables, game, slot["id"]) is not None:
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
                text(f"{en} The referee enters it.", f"{ja}審判が入力します。"),
            )
        )
    return missing
