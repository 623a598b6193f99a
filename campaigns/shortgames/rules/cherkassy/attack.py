"""Cherkassy Pocket: whether an attack the combat helper is asked to count is legal (pure, no
Django). One function per rule, each answering the ``Reason``s that refuse it (empty: legal):

- ``side_refusals``: attackers of the side attacking, defenders of the other (11.1).
- ``formation_refusals``: Soviet non-artillery attackers of one formation, plus at most 4
  independent units (11.18, 11.19; not for defenders nor for the Germans).
- ``participation_refusals``: at most 2 infantry-regiment equivalents of one Soviet hex attack
  or defend (11.3: a regiment 1; a brigade, battalion or tank regiment 0.5).
- ``artillery_refusals``: at most 3 artillery units an attack and 1 a defence, in supply and not
  on its ACT side, rocket artillery only attacking, never attacking alone (11.20, 11.24).
- ``armor_superiority_refusals``: the armour shift only with a tank attacking and no tank or
  mechanized unit defending (11.28).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.common import text

ARTILLERY_TYPES = ("artillery", "motorized_artillery", "rocket_artillery")
ARMOR_SHIFT = "armor_superiority"


@dataclass(frozen=True)
class Fighter:
    """A unit chosen for a combat, as the rules see it. ``formation``: printed at the top right;
    a Soviet formation ending in " I" is an independent unit (2.4, 11.19)."""

    name: str
    side: str
    unit_type: str
    formation: str = ""
    size: str = ""
    hex: str = ""
    out_of_supply: bool = False
    artillery_used: bool = False
    with_5gtc: bool = False  # the set-up entered: this unit starts the game with 5 GTC

    @property
    def artillery(self) -> bool:
        return self.unit_type in ARTILLERY_TYPES


def is_independent(fighter: Fighter) -> bool:
    """11.19, 11.20: a Soviet unit whose formation is followed by "I", and all artillery."""
    formation = fighter.formation.strip()
    return fighter.artillery or formation == "I" or formation.endswith((" I", "-I", "/I"))


def formation_of(fighter: Fighter) -> str:
    return fighter.formation.strip()


# 11.18's design note (seed 002 L442): the 5th Mechanized Corps' tank brigade units that start
# with the 5th Guards Tank Corps may attack together with 5 GTC for the whole game. Which
# brigades start with it is set-up data our rules lack: ``Fighter.with_5gtc``, entered.
FIVE_MC, FIVE_GTC = "5mc", "5gtc"


def formation_key(formation: str) -> str:
    """A formation as printed, compared without spaces, dots or case ("5 GTC" = "5GTC")."""
    return "".join(ch for ch in formation.lower() if ch.isalnum())


def five_mc_exception(fighter: Fighter) -> bool:
    """11.18 exception: a Soviet 5 MC tank brigade that starts with 5 GTC (entered)."""
    return (
        fighter.with_5gtc
        and fighter.side == "soviet"
        and fighter.unit_type == "tank"
        and fighter.size == "brigade"
        and formation_key(fighter.formation) == FIVE_MC
    )


def with_5gtc_refusals(fighter: Fighter) -> list[Reason]:
    """Only a Soviet tank brigade of 5 MC can be entered as starting with 5 GTC (11.18)."""
    if not fighter.with_5gtc or five_mc_exception(fighter):
        return []
    return [
        Reason(
            "not_a_5mc_tank_brigade",
            "11.18",
            {"unit": fighter.name},
            text=text(
                f"{fighter.name}: only a Soviet tank brigade of 5 MC (formation “5 MC”, type "
                "tank, size brigade) starts with 5 GTC and attacks with it.",
                f"{fighter.name}：第5親衛戦車軍団と共同して攻撃できるのは、第5機械化軍団"
                "（所属部隊「5 MC」、兵科 戦車、規模 旅団）の戦車旅団ユニットだけです。",
            ),
        )
    ]


def attack_formation(fighter: Fighter) -> str:
    """The formation a Soviet attacker counts as for 11.18: 5 GTC for a 5 MC tank brigade
    that started with it, its own otherwise (compared as ``formation_key``)."""
    return FIVE_GTC if five_mc_exception(fighter) else formation_key(formation_of(fighter))


def side_refusals(
    side: str, attackers: Sequence[Fighter], defenders: Sequence[Fighter]
) -> list[Reason]:
    """11.1: the phasing side attacks enemy units; a unit of the other side is no attacker and a
    unit of one's own side is no defender."""
    refusals = []
    wrong_attackers = [f.name for f in attackers if f.side != side]
    wrong_defenders = [f.name for f in defenders if f.side == side]
    if wrong_attackers:
        names = ", ".join(wrong_attackers)
        refusals.append(
            Reason(
                "attacker_of_other_side",
                "11.1",
                {"units": names},
                text=text(
                    f"{names}: not of the attacking side; only its units attack.",
                    f"{names}：攻撃側の陣営のユニットではありません。攻撃できるのは攻撃側のユニットだけです。",
                ),
            )
        )
    if wrong_defenders:
        names = ", ".join(wrong_defenders)
        refusals.append(
            Reason(
                "defender_of_own_side",
                "11.1",
                {"units": names},
                text=text(
                    f"{names}: of the attacking side; only enemy units are attacked.",
                    f"{names}：攻撃側の陣営のユニットです。攻撃されるのは敵ユニットだけです。",
                ),
            )
        )
    return refusals


def formation_refusals(
    side: str, attackers: Sequence[Fighter], game: Mapping[str, Any]
) -> list[Reason]:
    """11.18: every Soviet non-artillery attacker belongs to one formation; 11.19: plus at most 4
    independent non-artillery units. Neither binds Soviet defenders nor the Germans. The 5th
    Mechanized Corps exception of the design note: a 5 MC tank brigade entered as starting with
    5 GTC attacks with 5 GTC (``attack_formation``; docs/rules-decisions.md)."""
    if side != "soviet":
        return []
    combat = game["combat"]
    rule = combat["soviet_formations"]["rule"]
    most = combat["soviet_independents_per_attack"]["max"]
    fighting = [f for f in attackers if f.side == side and not f.artillery]
    # One printed name per formation key, the 5 MC brigades that started with 5 GTC under it.
    printed: dict[str, str] = {}
    for f in sorted(fighting, key=five_mc_exception):
        if not is_independent(f) and formation_of(f):
            printed.setdefault(attack_formation(f), formation_of(f))
    formations = sorted(printed.values())
    independents = [f for f in fighting if is_independent(f)]
    refusals = []
    unknown = [f.name for f in fighting if not formation_of(f)]
    if unknown:
        names = ", ".join(unknown)
        refusals.append(
            Reason(
                "formation_unknown",
                rule,
                {"units": names},
                text=text(
                    f"{names}: no formation on the roster; write it (the top right of the "
                    "counter, with I for an independent unit) so the attack can be checked.",
                    f"{names}：ロースターに所属部隊がありません。攻撃を確認できるよう、所属部隊"
                    "（カウンター右上。独立ユニットはI付き）を入力してください。",
                ),
            )
        )
    formations = [name for name in formations if name]
    if len(formations) > 1:
        refusals.append(
            Reason(
                "several_formations",
                rule,
                {"formations": formations},
                text=text(
                    f"Soviet attackers of {len(formations)} formations ({', '.join(formations)}); "
                    "non-artillery units of different formations never attack together.",
                    f"ソ連軍の攻撃ユニットの所属部隊が{len(formations)}つ（{'、'.join(formations)}）。"
                    "所属部隊が異なるソ連軍非砲兵ユニットは同じ戦闘に参加できません。",
                ),
            )
        )
    if len(independents) > most:
        refusals.append(
            Reason(
                "too_many_independents",
                combat["soviet_independents_per_attack"]["rule"],
                {"count": len(independents), "max": most},
                text=text(
                    f"{len(independents)} independent units attacking; at most {most} a combat.",
                    f"独立ユニットが{len(independents)}つ攻撃しています。1戦闘に{most}つまでです。",
                ),
            )
        )
    return refusals


def regiment_equivalents(fighter: Fighter, game: Mapping[str, Any]) -> float:
    """11.3: a regiment counts 1; a brigade, a battalion or a tank regiment 0.5. A unit whose
    size is not on the roster counts as a regiment (the most it can count)."""
    weights = game["stacking"]["soviet_combat_participation"]["equivalents"]
    if fighter.size == "regiment":
        return (
            weights["tank_regiment"]
            if fighter.unit_type == "tank"
            else weights["infantry_regiment"]
        )
    if fighter.size in ("brigade", "battalion"):
        return weights[fighter.size]
    return weights["infantry_regiment"]


def participation_refusals(
    attackers: Sequence[Fighter], defenders: Sequence[Fighter], game: Mapping[str, Any]
) -> list[Reason]:
    """11.3: from one Soviet hex at most 2 infantry-regiment equivalents attack, or defend; the
    Soviet player picks which. Artillery (alone in its hex, 8.4) is not counted."""
    rules = game["stacking"]["soviet_combat_participation"]
    most = rules["max_infantry_regiment_equivalents"]
    refusals = []
    for role, fighters in (("attack", attackers), ("defence", defenders)):
        by_hex: dict[str, float] = {}
        for fighter in fighters:
            if fighter.side != "soviet" or fighter.artillery:
                continue
            by_hex[fighter.hex] = by_hex.get(fighter.hex, 0) + regiment_equivalents(fighter, game)
        for hex_, count in sorted(by_hex.items()):
            if count > most:
                where = hex_ or "?"
                refusals.append(
                    Reason(
                        "over_participation",
                        rules["rule"],
                        {"hex": hex_, "count": count, "max": most, "role": role},
                        text=text(
                            f"Hex {where}: {count:g} infantry-regiment equivalents in the {role}; "
                            f"at most {most} of one Soviet hex take part (a brigade, battalion "
                            "or tank regiment counts ½).",
                            f"ヘクス{where}：歩兵連隊換算{count:g}。1つのソ連軍ヘクスから戦闘に"
                            f"参加できるのは{most}個歩兵連隊までです（旅団・大隊・戦車連隊は0.5）。",
                        ),
                    )
                )
    return refusals


def artillery_refusals(
    attackers: Sequence[Fighter], defenders: Sequence[Fighter], game: Mapping[str, Any]
) -> list[Reason]:
    """11.24: at most 3 artillery units support an attack and 1 a defence; 11.20: artillery in
    supply and not on its ACT side, rocket artillery only in attack, never attacking alone."""
    rules = game["combat"]["artillery"]
    rule = rules["rule"]
    refusals = []
    attacking = [f for f in attackers if f.artillery]
    defending = [f for f in defenders if f.artillery]
    for fighters, most, role_en, role_ja in (
        (attacking, rules["max_per_attack"], "an attack", "1つの攻撃"),
        (defending, rules["max_per_defense"], "a defence", "1つの防御"),
    ):
        if len(fighters) > most:
            refusals.append(
                Reason(
                    "too_much_artillery",
                    "11.24",
                    {"count": len(fighters), "max": most},
                    text=text(
                        f"{len(fighters)} artillery units; at most {most} support {role_en}.",
                        f"砲兵ユニットが{len(fighters)}つ。{role_ja}に使えるのは{most}つまでです。",
                    ),
                )
            )
    if attacking and len(attacking) == len(attackers):
        refusals.append(
            Reason(
                "artillery_alone",
                rule,
                text=text(
                    "Artillery never attacks alone; it supports non-artillery units.",
                    "砲兵ユニットは単独で攻撃を実施できません。",
                ),
            )
        )
    rockets = [f.name for f in defending if f.unit_type == "rocket_artillery"]
    if rockets and rules.get("rocket_attack_only"):
        refusals.append(
            Reason(
                "rocket_defending",
                rule,
                {"units": rockets},
                text=text(
                    f"{', '.join(rockets)}: rocket artillery supports attacks only.",
                    f"{'、'.join(rockets)}：ロケット砲ユニットは攻撃時にしか使用できません。",
                ),
            )
        )
    unusable = [f.name for f in (*attacking, *defending) if f.out_of_supply or f.artillery_used]
    if unusable:
        refusals.append(
            Reason(
                "artillery_unusable",
                rule,
                {"units": unusable},
                text=text(
                    f"{', '.join(unusable)}: artillery fires only in supply and not on its ACT "
                    "side.",
                    f"{'、'.join(unusable)}：砲兵は補給状態にあり、ACT面でないときだけ使用できます。",
                ),
            )
        )
    return refusals


def armor_superiority_refusals(
    shifts: Iterable[str], attackers: Sequence[Fighter], defenders: Sequence[Fighter]
) -> list[Reason]:
    """11.28: the right shift for armour only with at least one tank unit attacking and no tank
    or mechanized unit defending (a mechanized infantry attacker does not earn it). With the
    units not chosen the helper cannot tell: refused until they are."""
    if ARMOR_SHIFT not in set(shifts):
        return []
    if not any(f.unit_type == "tank" for f in attackers):
        return [
            Reason(
                "armor_no_tank",
                "11.28",
                text=text(
                    "Armour superiority needs at least one tank unit among the chosen attackers.",
                    "装甲優越には、選んだ攻撃ユニットに1つ以上の戦車ユニットが必要です。",
                ),
            )
        ]
    armour = [f.name for f in defenders if f.unit_type in ("tank", "mech_infantry")]
    if armour:
        return [
            Reason(
                "armor_defending",
                "11.28",
                {"units": armour},
                text=text(
                    f"No armour superiority: {', '.join(armour)} defend (a tank or mechanized "
                    "unit among the defenders cancels it).",
                    f"装甲優越なし：{'、'.join(armour)}が防御しています（防御側に戦車/機械化ユニット"
                    "があると打ち消されます）。",
                ),
            )
        ]
    return []


def attack_refusals(
    side: str,
    attackers: Sequence[Fighter],
    defenders: Sequence[Fighter],
    shifts: Iterable[str],
    game: Mapping[str, Any],
) -> list[Reason]:
    """Every rule above, in the order a player forms an attack (11.2 steps 1–3, then 11.28)."""
    return [
        *side_refusals(side, attackers, defenders),
        *formation_refusals(side, attackers, game),
        *participation_refusals(attackers, defenders, game),
        *artillery_refusals(attackers, defenders, game),
        *armor_superiority_refusals(shifts, attackers, defenders),
    ]
