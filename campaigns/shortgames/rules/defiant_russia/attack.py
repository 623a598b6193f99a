"""Defiant Russia: whether an attack the combat dice helper is asked to count is legal (pure, no
Django). One function per rule, each answering the ``Reason``s that refuse it (empty: legal):

- ``side_refusals``: the units fight for the side rolling (2.0: the nationalities of each side).
- ``air_point_refusals``: air points only for an attacker, at most 3 an attack, an Axis attack
  with a German unit, none in breakthrough combat, no more than the side has left (11.7).
- ``breakthrough_refusals``: a breakthrough combat phase this turn and weather (4.0, 6.6, 6.7,
  8.3) and only units that may move in it (the Breakthrough Movement chart): in light mud only
  German armour stacked with Guderian (6.6.3, 11.61).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.common import data_text, text
from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit
from campaigns.shortgames.rules.defiant_russia.phases import phases
from campaigns.shortgames.rules.defiant_russia.terrain import chart

# The nationalities fighting for each side (2.0, the order of battle).
NATIONALITIES: dict[str, tuple[str, ...]] = {
    "axis": ("german", "finnish", "romanian", "hungarian", "italian", "spanish"),
    "soviet": ("soviet",),
}


def side_refusals(side: str, nationality: str) -> list[Reason]:
    """2.0: a unit of another side's nationality never attacks or defends for ``side`` (a
    German unit is no Soviet attacker). No nationality given: the side's own."""
    if not nationality or nationality in NATIONALITIES.get(side, ()):
        return []
    return [
        Reason(
            "wrong_side",
            "2.0",
            {"side": side, "nationality": nationality},
            text=text(
                f"A {nationality} unit does not fight for this side (this side's "
                f"nationalities: {', '.join(NATIONALITIES.get(side, ()))}).",
                f"{nationality}の部隊はこの陣営で戦いません（この陣営の国籍："
                f"{'、'.join(NATIONALITIES.get(side, ()))}）。",
            ),
        )
    ]


def air_point_refusals(
    air_points: int,
    *,
    role: str,
    side: str,
    nationality: str,
    breakthrough: bool,
    points_left: int | None,
    game: Mapping[str, Any],
) -> list[Reason]:
    """11.7: each air point adds one die to an attack, at most 3 an attack; the Axis uses them
    only when a German unit attacks; never in breakthrough combat; points are not saved from turn
    to turn, so no more than the side has left this turn (``points_left`` None: not judged)."""
    if air_points <= 0:
        return []
    rules = game["air_power"]
    rule = rules["rule"]
    most = rules["max_points_per_attack"]
    refusals = []
    if role != "attacker":
        refusals.append(
            Reason(
                "air_defender",
                rule,
                text=text(
                    "Only the attacker uses air points.", "空軍ポイントを使えるのは攻撃側だけです。"
                ),
            )
        )
    if air_points > most:
        refusals.append(
            Reason(
                "air_over_limit",
                rule,
                {"points": air_points, "max": most},
                text=text(
                    f"{air_points} air points; at most {most} may be added to one attack.",
                    f"空軍ポイント{air_points}。1つの攻撃に加えられるのは最大{most}ポイントです。",
                ),
            )
        )
    if breakthrough and not rules["breakthrough_combat"]:
        refusals.append(
            Reason(
                "air_breakthrough",
                rule,
                text=text(
                    "Air points cannot be used in breakthrough combat.",
                    "空軍ポイントは突破戦闘フェイズには使えません。",
                ),
            )
        )
    if side == "axis" and rules["axis_requires_german_attacker"] and nationality != "german":
        refusals.append(
            Reason(
                "air_needs_german",
                rule,
                text=text(
                    "Axis air points are used only when a German unit attacks: write german as "
                    "the nationality.",
                    "枢軸軍空軍ポイントを使うためにはドイツ軍部隊が攻撃していなければなりません"
                    "（国籍にgermanと書いてください）。",
                ),
            )
        )
    if points_left is not None and air_points > points_left:
        refusals.append(
            Reason(
                "air_not_enough",
                rule,
                {"points": air_points, "left": points_left},
                text=text(
                    f"{air_points} air points asked; this side has {points_left} left this turn.",
                    f"空軍ポイント{air_points}が必要ですが、この陣営の今ターンの残りは"
                    f"{points_left}です。",
                ),
            )
        )
    return refusals


def unit_class(unit: CombatUnit, side: str) -> str:
    """The unit's class on the Breakthrough Movement chart, from its nationality and letters
    (a armour, m mountain, c cavalry, s shock army; none of them: infantry)."""
    nationality = unit.nationality or ("soviet" if side == "soviet" else "")
    if nationality == "soviet":
        if unit.armor:
            return "soviet_armor"
        if unit.cavalry:
            return "soviet_cavalry"
        return "shock_army" if unit.shock else "soviet_infantry"
    if nationality == "italian":
        return "italian"
    kind = (
        "armor"
        if unit.armor
        else "mountain"
        if unit.mountain
        else "cavalry"
        if unit.cavalry
        else "infantry"
    )
    if nationality in ("hungarian", "finnish", "spanish"):
        return nationality
    return f"{nationality}_{kind}"


def breakthrough_mp(
    unit_class_key: str, weather: str, tables: Mapping[str, Any]
) -> tuple[Any, Mapping[str, Any] | None]:
    """The unit class's breakthrough movement in ``weather`` (None: it may not move in the
    breakthrough phase) and its chart row (None: a class the chart does not name)."""
    for row in chart(tables, "dr.breakthrough-movement")["rows"]:
        if row["units"] == unit_class_key or unit_class_key in row.get("members", ()):
            return row.get("mp", {}).get(weather), row
    return None, None


def breakthrough_refusals(
    units: Sequence[CombatUnit],
    *,
    side: str,
    leaders: Iterable[str],
    turn: int,
    weather: str | None,
    options: Iterable[str],
    game: Mapping[str, Any],
    tables: Mapping[str, Any],
) -> list[Reason]:
    """6.6: breakthrough combat only in the side's breakthrough combat phase of this turn and
    weather (none on turn 1, 6.7; none in mud; no Soviet one in light mud, 8.3; none judged while
    the weather is not known, ``None``), and only by units
    that may move in the breakthrough phase (the chart: ``null`` is not allowed). In light mud
    only German armour stacked with Guderian (6.6.3, 11.61): every attacking unit armour, German,
    and Guderian in the stack."""
    phase_id = f"{side}_breakthrough_combat"
    phase = next((p for p in phases(turn, weather, options, game) if p.id == phase_id), None)
    if phase is None or not phase.applies:
        reason = phase.reason if phase is not None and phase.reason else None
        return [
            Reason(
                "no_breakthrough_phase",
                "6.6",
                {"turn": turn, "weather": weather},
                text=text(
                    "There is no breakthrough combat for this side this turn"
                    + (f": {reason.en}" if reason else "."),
                    "この陣営には今ターン突破戦闘フェイズがありません"
                    + (f"：{reason.ja}" if reason else "。"),
                ),
            )
        ]
    refusals = []
    with_guderian = "guderian" in set(leaders)
    for number, unit in enumerate(units, start=1):
        key = unit_class(unit, side)
        mp, row = breakthrough_mp(key, weather, tables)
        if row is None or not key or key.startswith("_"):
            refusals.append(
                Reason(
                    "breakthrough_unknown_unit",
                    "6.6",
                    {"unit": number},
                    text=text(
                        f"Unit {number}: write its nationality so that the breakthrough chart can "
                        "say whether it may attack.",
                        f"{number}番目の部隊：突破移動力表で判定できるよう国籍を書いてください。",
                    ),
                )
            )
            continue
        name = data_text(row["name"])
        if mp is None:
            refusals.append(
                Reason(
                    "breakthrough_unit_not_allowed",
                    "6.6",
                    {"unit": number, "class": key},
                    text=text(
                        f"Unit {number} ({name.en}) may not move in this breakthrough phase, so "
                        "it may not attack in breakthrough combat.",
                        f"{number}番目の部隊（{name.ja}）はこの突破移動フェイズに移動できないので、"
                        "突破戦闘で攻撃できません。",
                    ),
                )
            )
        elif mp == "1_hex_with_guderian" and not with_guderian:
            refusals.append(
                Reason(
                    "breakthrough_needs_guderian",
                    "6.6.3",
                    {"unit": number},
                    text=text(
                        f"Unit {number}: in light mud only German armour stacked with Guderian "
                        "may attack in breakthrough combat (11.61).",
                        f"{number}番目の部隊：軽い泥濘ターンでは、グデーリアンとスタッキングしている"
                        "ドイツ装甲部隊だけが突破戦闘で攻撃できます（11.61）。",
                    ),
                )
            )
    return refusals
