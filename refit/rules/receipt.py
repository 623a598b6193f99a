"""What an RG turns out to be (RF 11.620, SaP 11.618): which rolls it makes, their DRMs, and
what the results give — units, SW, leaders. Plain Python over the module data; the rolls
themselves are made by the dice service (refit.purchases.receipt) and handed in as numbers.

RF: strength DR (11.6201, Full ≤ 8), company SW (11.6202: all when Full, else dr ≤ 4 each),
HW / MOL-P weapons (11.6203: all when Full, else dr ≤ 3 each, at least 2 — re-rolling every
weapon until the platoon has 2), gun batteries and OBA (11.6204), company leaders (11.6205),
armor leaders (11.6207, not for SPW platoons).
SaP: company strength on five levels with ELR replacement (11.6181), platoons and guns
(11.6182), OBA (11.6183), SW (11.6184, with the Guards Airborne extra dr), company and platoon
leaders (11.6185), armor leaders (CG9).

DRMs come back as ``Drm(value, id=…)``, ``id`` the table's modifier id: the service words the
reason from the table's ``modifiers``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from campaigns.games.rules import Drm

RF = "red_factories"
SAP = "slaughter_at_ponyri"


# --- which rolls ---------------------------------------------------------------------------

RF_HW_RGS = {"german": {"I5"}, "soviet": {"I7", "I8"}}
RF_NO_ARMOR_LEADER = {"german": {"A9"}}  # 11.6207: SPW platoons get none


def rolls_for(module: str, side: str, group: Mapping[str, Any]) -> list[str]:
    """The kinds of roll an RG makes, in the rules' order ([] = nothing to roll)."""
    kind, rg_id = group.get("type"), group["id"]
    notes = set(group.get("notes", []))
    if module == RF:
        if kind == "infantry_company":
            return ["strength", "sw", "leaders"]
        if kind == "infantry_platoon" and rg_id in RF_HW_RGS.get(side, set()):
            return ["strength", "weapons"]
        if kind == "afv_platoon":
            no_leader = rg_id in RF_NO_ARMOR_LEADER.get(side, set())
            return ["strength"] if no_leader else ["strength", "armor_leader"]
        if kind == "gun":
            return ["battery"]
        if kind == "oba" and "d" in notes:
            return ["oba"]
        if kind == "oba" and "p" in notes:  # the Soviet Katyusha (O5) carries p but not d
            return ["oba"]
        return []
    rolls = []
    if "c" in notes:
        rolls.append("company_strength")
    elif "d" in notes:
        rolls.append("strength")
    if "q" in notes:
        rolls.append("oba")
    if "l" in notes:
        if kind == "infantry_company":
            rolls += ["sw", "leaders"]
        else:
            rolls += ["sw", "platoon_leader"]
    if "k" in notes:
        rolls.append("armor_leader")
    return rolls


# --- unit texts --------------------------------------------------------------------------------

_COUNT = re.compile(r"^(.*?)\s*\(?\s*[x×]\s*(\d+)\s*\)?\s*$")


def listed_units(text: str) -> list[tuple[str, int]]:
    """ "HMG x2 & MMG x2 & 81mm MTR x2" → [("HMG", 2), ("MMG", 2), ("81mm MTR", 2)]."""
    items = []
    for part in re.split(r"[,&]", text):
        part = part.strip()
        if not part:
            continue
        match = _COUNT.match(part)
        if match:
            items.append((match.group(1).strip(), int(match.group(2))))
        else:
            items.append((part, 1))
    return items


def counter_name(text: str) -> str:
    """A chart's unit text as an OB counter name: "4-4-7 sapper squads" → "4-4-7 sapper"."""
    text = re.sub(r"\([^)]*\)", "", text).replace("'", "")
    text = re.sub(r"\bassault-engineer\b", "AE", text)
    text = re.sub(r"\b(squads?|crew|HS|truck)\b", "", text)
    return " ".join(text.split())


def _crew(weapon: str) -> str:
    """11.6203: 1-2-7 for an SW/MG, 2-2-8 for a mortar."""
    return "2-2-8" if "MTR" in weapon else "1-2-7"


# --- RF ------------------------------------------------------------------------------------


def rf_strength(result: Mapping[str, Any]) -> str:
    return "F" if result.get("strength") == "full" else "D"


def rf_strength_drms(hist_drm: int, balance: int, second_line_initial: bool = False) -> list[Drm]:
    """11.6201 / 11.6204: ± own Historical DRM, − 11.32 balance; SSR III.4's +1."""
    drms = []
    if hist_drm:
        drms.append(Drm(hist_drm, id="historical"))
    if balance:
        drms.append(Drm(balance, id="balance"))
    if second_line_initial:
        drms.append(Drm(1, id="ro-cg-3-second-line"))
    return drms


def rf_units(group: Mapping[str, Any], side: str, strength: str, notes: Mapping) -> dict:
    """The units an infantry company / AFV platoon receives at Full ("F") or Depleted ("D")."""
    count = group.get("full") if strength == "F" else group.get("depleted")
    items = listed_units(group.get("units", ""))
    if count is None:
        return {}
    if len(items) == 1:
        return {counter_name(items[0][0]): count}
    received = Counter({counter_name(name): n for name, n in items})
    if strength == "D":
        for letter in group.get("notes", []):
            for restriction in notes.get(letter, {}).get("restrictions", []):
                if restriction.get("kind") == "depleted_removes":
                    received[restriction["unit"]] -= restriction.get("count", 1)
    return {name: n for name, n in received.items() if n > 0}


def rf_sw_entitlement(
    sw_chart: Mapping[str, Any], side: str, rg_id: str, map_group: str
) -> dict[str, int]:
    """11.6202: the Full entitlement of a company (RB or RO column)."""
    for row in sw_chart.get("rows", []):
        if row["side"] == side and row["rg"] == rg_id:
            return {
                weapon: cell.get(map_group, 0)
                for weapon, cell in row["sw"].items()
                if cell.get(map_group, 0)
            }
    return {}


def sw_rolls_needed(entitlement: Mapping[str, int]) -> list[str]:
    """One entry per SW of the entitlement, in the chart's order (one dr each when Depleted)."""
    return [weapon for weapon, count in entitlement.items() for _n in range(count)]


def received_by_dr(weapons: Sequence[str], drs: Sequence[int], most: int) -> dict[str, int]:
    """Each weapon with dr ≤ ``most`` is received (11.6202: 4; 11.6203: 3)."""
    received: Counter[str] = Counter()
    for weapon, dr in zip(weapons, drs, strict=True):
        if dr <= most:
            received[weapon] += 1
    return dict(received)


HW_AT_LEAST = 2


def hw_weapons(group: Mapping[str, Any]) -> list[str]:
    """An HW/MOL-P platoon's weapons, one entry each: I5 → HMG, HMG, MMG, MMG, MTR, MTR."""
    return [counter_name(name) for name, n in listed_units(group["units"]) for _i in range(n)]


def hw_round(weapons: Sequence[str], drs: Sequence[int]) -> dict[str, int]:
    """One round of 11.6203 drs for a Depleted platoon (≤ 3 received)."""
    return received_by_dr(weapons, drs, 3)


def hw_result(weapons: Sequence[str], rounds: Sequence[Sequence[int]]) -> dict[str, int]:
    """The weapons received after the rounds rolled: the last round counts (the example
    discards the earlier ones). Raises ValueError while another round is needed."""
    if not rounds:
        raise ValueError("no round rolled")
    received = hw_round(weapons, rounds[-1])
    if sum(received.values()) < HW_AT_LEAST:
        raise ValueError("fewer than 2 weapons: roll again for each weapon")
    return received


def hw_crews(received: Mapping[str, int]) -> dict[str, int]:
    crews: Counter[str] = Counter()
    for weapon, count in received.items():
        crews[_crew(weapon)] += count
    return dict(crews)


def battery_guns(group: Mapping[str, Any], strength: str) -> dict[str, int]:
    """11.6204: a Depleted battery loses one Gun of each type listed."""
    guns = {counter_name(name): n for name, n in listed_units(group["units"])}
    if strength == "D":
        guns = {name: n - 1 for name, n in guns.items() if n > 1}
    return guns


def rifle_company_drm(number_purchased: int) -> int:
    """German leader DRM for the n-th Rifle Coy bought: +1 for the 6th–8th, +2 from the 9th."""
    if number_purchased >= 9:
        return 2
    if number_purchased >= 6:
        return 1
    return 0


# 11.6205's Soviet company DRMs name a company *type*, one per company RG. The −2 "assault
# engineer company" is the chart's engineer company (I6, printed 6-2-8AE); the Guards −1 is the
# Guards Rifle and Guards SMG companies (the Militia's +3 comes after the table's other
# DRMs, as printed). RF19 makes I2's 6-2-8 squads assault engineers too, but
# that is an ability of the squads, not a company type: the rule's own example (seed L1790)
# gives the Guards SMG company the Guards −1 only (DR 6 → 5 → 9-1, 8-0). See
# docs/rules-decisions.md, "Seed corrections (issue 15)".
RF_SOVIET_LEADER_COMPANY = {
    "I1": ("guards-coy", -1),
    "I2": ("guards-coy", -1),
    "I4": ("first-line-smg", 1),
    "I6": ("assault-engineer-coy", -2),
}


def rf_leader_drms(
    side: str,
    group: Mapping[str, Any],
    *,
    depleted: bool,
    cg: str,
    rifle_number: int = 0,
) -> list[Drm]:
    """11.6205's DRMs for a company, in the table's order."""
    rg_id = group["id"]
    drms: list[Drm] = []
    if side == "german":
        by_rg = {"I3": ("assault-coy", -2), "I4": ("pioneer-coy", -1), "I2": ("second-line-coy", 1)}
        if rg_id in by_rg:
            drm_id, value = by_rg[rg_id]
            drms.append(Drm(value, id=drm_id))
        if rg_id == "I1" and rifle_company_drm(rifle_number):
            drms.append(Drm(rifle_company_drm(rifle_number), id="rifle-coy"))
        if depleted:
            drms.append(Drm(1, id="depleted"))
        if cg in ("rb-cg-2", "rb-cg-4"):
            drms.append(Drm(1, id="rb-cg-2-4"))
        return drms
    if rg_id in RF_SOVIET_LEADER_COMPANY:
        drm_id, value = RF_SOVIET_LEADER_COMPANY[rg_id]
        drms.append(Drm(value, id=drm_id))
    if cg == "rb-cg-4":
        drms.append(Drm(1, id="rb-cg-4"))
    if depleted:
        drms.append(Drm(2, id="depleted"))
    if rg_id == "I5":
        drms.append(Drm(3, id="militia-coy"))
    return drms


def rf_armor_leader_drms(side: str) -> list[Drm]:
    return [Drm(-1, id="german")] if side == "german" else [Drm(1, id="soviet")]


# --- SaP -----------------------------------------------------------------------------------

SAP_LEVEL_CODES = {
    "reinforced": "R",
    "full": "F",
    "light_depleted": "LD",
    "medium_depleted": "MD",
    "heavy_depleted": "HD",
    "depleted": "D",
}

# A19.13 ELR replacement of the squads SaP companies carry (the 11.6181 example: 4-4-7 → 4-2-6
# for the Russian; the German 1st Line 4-6-7 becomes a 2nd Line 4-4-7, Guards 4-5-8 a 4-4-7).
ELR_REPLACEMENT = {
    ("russian", "4-4-7"): "4-2-6",
    ("russian", "4-5-8"): "4-4-7",
    ("german", "4-6-7"): "4-4-7",
}


def sap_units(group: Mapping[str, Any], side: str, level: str) -> dict[str, int]:
    """The units an SaP RG receives at ``level`` (its chart's n-th entry; fixed RGs: all)."""
    levels = group.get("strength_levels") or ["fixed"]
    position = levels.index(level) if level in levels else 0
    received: Counter[str] = Counter()
    for component in group.get("components", []):
        counts = component["counts"]
        count = counts[position] if position < len(counts) else counts[-1]
        name = counter_name(component["unit"]["en"])
        replaced = (component.get("elr_replaced") or [0] * len(counts))[position]
        if replaced:
            received[ELR_REPLACEMENT.get((side, name), name)] += replaced
        received[name] += count - replaced
    return {name: n for name, n in received.items() if n > 0}


def sap_sw_row(sw_chart: Mapping[str, Any], side: str, rg_id: str) -> Mapping[str, Any] | None:
    return next(
        (r for r in sw_chart.get("rows", []) if r["side"] == side and rg_id in r["rgs"]), None
    )


def sap_depleted(level: str) -> bool:
    return level in ("light_depleted", "medium_depleted", "heavy_depleted", "depleted")


def sap_sw_drms(level: str) -> list[Drm]:
    if level == "medium_depleted":
        return [Drm(1, id="medium-depleted")]
    if level == "heavy_depleted":
        return [Drm(2, id="heavy-depleted")]
    return []


def sap_company_leader_drms(side: str, group: Mapping[str, Any], level: str) -> list[Drm]:
    if side == "german":
        return [Drm(1, id="depleted")] if sap_depleted(level) else [Drm(-1, id="reinforced-full")]
    return [Drm(-1, id="guards-airborne")] if group["id"] == "I2" else []


def sap_extra_leader(table: Mapping[str, Any], group: Mapping[str, Any], level: str) -> str | None:
    """A Reinforced company's extra 7-0 (not the Russian I3)."""
    extra = table.get("extra_leader") or {}
    if level == extra.get("when_strength") and group["id"] not in extra.get("except_rgs", []):
        return extra.get("leader")
    return None


def sap_platoon_leader_drms(side: str, group: Mapping[str, Any], level: str) -> list[Drm]:
    drms = []
    if group["id"] == "I1":
        drms.append(Drm(-2, id="pioneer") if side == "german" else Drm(-1, id="assault"))
    if sap_depleted(level):
        drms.append(Drm(1, id="depleted"))
    return drms


def sap_armor_leader_drms(side: str, group: Mapping[str, Any]) -> list[Drm]:
    drms = []
    if side == "german":
        drms.append(Drm(-1, id="german"))
    if "f" in group.get("notes", []):
        drms.append(Drm(1, id="dug-in"))
    return drms


def sap_oba_chits(result: Mapping[str, Any], pre_registered_hexes: int) -> tuple[int, int]:
    """(black, red) chits of the draw pile: +1 black with a pre-registered hex (11.6183)."""
    return result["black"] + (1 if pre_registered_hexes else 0), result["red"]


# --- dug-in AFV platoons (RF 11.6194c) ------------------------------------------------------


def dug_in_lmg(group: Mapping[str, Any], units: Mapping[str, int]) -> int:
    """RF 11.6194c: a dug-in AFV platoon's BMG are unusable — the Soviet has taken them out and
    adds as many Soviet LMG to his OB as the platoon has AFVs. ``units`` are the AFVs the
    platoon received (after its strength roll); 0 for anything but an AFV platoon."""
    if group.get("type") != "afv_platoon":
        return 0
    return sum(n for n in units.values() if n > 0)


def with_dug_in_lmg(got: Mapping[str, Any], lmg: int) -> dict[str, Any]:
    """The receipt with the dug-in platoon's LMG added to its SW and recorded apart, so the
    records can say where they came from."""
    if not lmg:
        return dict(got)
    sw = dict(got.get("sw") or {})
    sw["LMG"] = sw.get("LMG", 0) + lmg
    return {**got, "sw": sw, "dug_in": {"lmg": lmg, "bmg_removed": True}}
