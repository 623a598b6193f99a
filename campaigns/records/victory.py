"""Who won a scenario, from what its end recorded, where the victory conditions are structured
(RF 11.6031, 11.6235, the initial scenarios' VC of 11.51–11.58). Pure: plain data in, a verdict
out; the words are the pages' (campaigns.records.end).

What a scenario's end records, per side (``EndFacts``): the CVP it lost as the VC count them
(11.6031, campaigns.records.cvp_counts), the Stone Locations it gained and lost (gained: those it
controls at the end that the enemy controlled at the start), how many it controls at the end, and
which side, if any, controls every Stone Location at the end.

- Dual Attack (11.6235 [003 L1909]): each side scores the CVP it inflicted plus 1 VP per Stone
  Location gained; the German wins with more VP, else the Soviet.
- German / Soviet Assault (11.6235 [L1911]): the Soviet wins if he controls every Stone Location.
  Otherwise the attacker wins if his Stone Locations gained − lost reach the CG's figure (German
  24, Soviet 12; RO CG III 12 and 24), or if he inflicted at least twice the CVP he lost (and
  some: 0 against 0 is no win, docs/rules-decisions.md); else the defender wins.
- An initial scenario: the CG's structured VC (``victory.structured.initial_scenario``), a side
  winning if any of its conditions holds, else the other. Conditions on buildings, factories or
  map groups need map data the app does not have: the verdict then has no winner and says why,
  and the players choose.
- RF CG I (11.58): VC per map group are judged on the counts recorded for each group and
  combined (``per_map_group``): one side on both groups wins; one side on each is a draw where
  the rules say so (the CG VC), else the players judge; a group the records cannot decide
  leaves the whole undecided, each group saying why.
- Slaughter at Ponyri has no per-time-frame scenario VC: no winner is derived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.map_groups import DRAW, GroupVerdict, combine

# The kinds of condition this module evaluates; any other needs what the app does not record.
STONE_AT_LEAST = "stone_locations_at_least"
NET_GAINED_AT_LEAST = "net_stone_locations_gained_at_least"


@dataclass(frozen=True)
class EndFacts:
    """What a scenario's end recorded, per side key (None: not recorded)."""

    cvp_lost: Mapping[str, int] = field(default_factory=dict)
    gained: Mapping[str, int | None] = field(default_factory=dict)
    lost: Mapping[str, int | None] = field(default_factory=dict)
    controlled: Mapping[str, int | None] = field(default_factory=dict)
    all_stone_locations: str = ""

    def cvp_inflicted(self, side: str, enemy: str) -> int:
        return int(self.cvp_lost.get(enemy) or 0)

    def net(self, side: str) -> int | None:
        gained, lost = self.gained.get(side), self.lost.get(side)
        if gained is None and lost is None:
            return None
        return (gained or 0) - (lost or 0)


@dataclass(frozen=True)
class Verdict:
    """``winner`` a side key, or None when the VC cannot be evaluated from what is recorded;
    ``reason`` a key the page words, ``values`` the numbers behind it; ``missing`` what the
    players must record (or judge themselves) first."""

    winner: str | None
    reason: str
    values: Mapping[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()

    @property
    def derived(self) -> bool:
        return self.winner is not None


def scenario_vc(
    definition: Mapping[str, Any], scenario_type: str, *, first_day: bool = False
) -> dict[str, Any] | None:
    """The VC that judge a scenario of ``scenario_type`` in a campaign game (``definition``:
    its entry of campaign_games.json), as ``{"kind": …}``; None when the game has none."""
    if scenario_type == "initial":
        structured = (definition.get("victory") or {}).get("structured") or {}
        initial = structured.get("initial_scenario")
        return {"kind": "initial", **initial} if initial else None
    vc = definition.get("scenario_vc")
    if not vc:
        return None
    # RF CG I (11.58): each map group is judged on its own counts (``scenario_winner``).
    groups = tuple(definition.get("map_groups") or ())
    split = {"map_groups": groups} if len(groups) > 1 else {}
    if scenario_type == "dual_attack":
        return {"kind": "dual_attack", **vc, **split}
    if scenario_type == "assault":
        return {"kind": "assault", **vc, **split}
    return None


def _other(sides: Sequence[str], side: str) -> str:
    return next(s for s in sides if s != side)


def dual_attack(facts: EndFacts, sides: Sequence[str]) -> Verdict:
    """11.6235 Dual Attack: CVP inflicted + Stone Locations gained; the German (the first side)
    wins with more VP, else the Soviet."""
    german, soviet = sides
    missing = tuple(f"gained:{side}" for side in sides if facts.gained.get(side) is None)
    if missing:
        return Verdict(None, "record_locations", missing=missing)
    vp = {
        side: facts.cvp_inflicted(side, _other(sides, side)) + int(facts.gained[side] or 0)
        for side in sides
    }
    winner = german if vp[german] > vp[soviet] else soviet
    return Verdict(winner, "dual_attack_vp", {"vp": vp})


def assault(
    facts: EndFacts, sides: Sequence[str], attacker: str, thresholds: Mapping[str, int], ratio: int
) -> Verdict:
    """11.6235 German / Soviet Assault, in the rule's order."""
    soviet = sides[1]
    if attacker not in sides:
        return Verdict(None, "record_attacker", missing=("attacker",))
    defender = _other(sides, attacker)
    if facts.all_stone_locations == soviet:
        return Verdict(soviet, "assault_all_stone_locations")
    net = facts.net(attacker)
    needed = int(thresholds[attacker])
    inflicted = facts.cvp_inflicted(attacker, defender)
    suffered = facts.cvp_inflicted(defender, attacker)
    values = {"net": net, "needed": needed, "inflicted": inflicted, "suffered": suffered}
    if net is not None and net >= needed:
        return Verdict(attacker, "assault_locations", values)
    if inflicted > 0 and inflicted >= ratio * suffered:
        return Verdict(attacker, "assault_cvp", {**values, "ratio": ratio})
    if net is None:
        return Verdict(None, "record_locations", values, missing=(f"gained:{attacker}",))
    return Verdict(defender, "assault_defender", {**values, "ratio": ratio})


def _condition(condition: Mapping[str, Any], side: str, facts: EndFacts) -> bool | None:
    """Whether one initial-scenario condition holds for ``side`` (None: cannot tell)."""
    kind = condition.get("kind")
    if kind == STONE_AT_LEAST:
        controlled = facts.controlled.get(side)
        return None if controlled is None else controlled >= int(condition["count"])
    if kind == NET_GAINED_AT_LEAST:
        net = facts.net(side)
        if net is None:
            return None
        if net < int(condition["count"]):
            return False
        # "of which N in building V22" (RO CG II) needs the map: the players judge it.
        return None if condition.get("of_which") else True
    return None


def per_map_group(vc: Mapping[str, Any], groups: Mapping[str, EndFacts]) -> Verdict:
    """RF CG I (11.58): each map group judged by its own VC (``vc["per_map_group"]``) on the
    counts recorded for it, then combined (``campaigns.games.map_groups.combine``). The
    verdict's ``values["groups"]`` holds each group's winner ("" unknown) and reason. The same
    side on both groups wins; one side on each: a draw where the data's ``combination`` says so
    (the CG VC, L941), else the players judge (the initial scenario: not stated, spec Q20)."""
    verdicts = {
        group: initial(group_vc, groups.get(group) or EndFacts())
        for group, group_vc in vc["per_map_group"].items()
    }
    return combined(verdicts, split_is_draw=_split_is_draw(vc))


def _split_is_draw(vc: Mapping[str, Any]) -> bool:
    return (vc.get("combination") or {}).get("kind") == "split_is_draw"


def combined(verdicts: Mapping[str, Verdict], *, split_is_draw: bool) -> Verdict:
    """Each map group's verdict combined into one (``campaigns.games.map_groups.combine``):
    ``values["groups"]`` holds each group's winner ("" unknown), reason and numbers."""
    judged = []
    shown: dict[str, dict[str, Any]] = {}
    for group, verdict in verdicts.items():
        judged.append(GroupVerdict(group, verdict.winner or "", verdict.reason))
        shown[group] = {
            "winner": verdict.winner or "",
            "reason": verdict.reason,
            "values": dict(verdict.values),
        }
    result = combine(judged)
    missing = tuple(f"{g.map_group}:{g.why}" for g in judged if not g.winner)
    values = {"groups": shown}
    if result.why == "same_side":
        return Verdict(result.winner, "map_groups_same", values)
    if result.why == "split":
        if split_is_draw:
            return Verdict(DRAW, "map_groups_draw", values)
        return Verdict(None, "map_groups_split", values, missing=("map_groups_split",))
    return Verdict(None, "map_groups_unknown", values, missing=missing)


def initial(
    vc: Mapping[str, Any], facts: EndFacts, groups: Mapping[str, EndFacts] | None = None
) -> Verdict:
    """An initial scenario's structured VC: ``side`` wins if any condition holds, else
    ``otherwise``; a condition the records cannot decide leaves the players to judge. VC per
    map group (RF CG I) are judged on ``groups``, the counts recorded per map group."""
    if "per_map_group" in vc:
        return per_map_group(vc, groups or {})
    if not vc.get("side"):
        return Verdict(None, "no_vc", missing=("no_vc",))
    side, otherwise = vc["side"], vc["otherwise"]
    undecided = []
    for condition in vc.get("any_of") or ():
        held = _condition(condition, side, facts)
        if held:
            return Verdict(side, condition["kind"], {"count": condition.get("count")})
        if held is None:
            undecided.append(condition.get("kind", ""))
    if undecided:
        known = {STONE_AT_LEAST: "controlled", NET_GAINED_AT_LEAST: "gained"}
        missing = tuple(
            f"{known[kind]}:{side}" if kind in known and _recordable(kind, side, facts) else kind
            for kind in undecided
        )
        # Only counts not recorded yet: the players record them, they need not judge.
        only_counts = all(":" in key for key in missing)
        return Verdict(
            None, "record_counts" if only_counts else "initial_undecided", missing=missing
        )
    return Verdict(otherwise, "initial_not_met")


def _recordable(kind: str, side: str, facts: EndFacts) -> bool:
    """Whether the condition is undecided only because a count is not recorded yet."""
    if kind == STONE_AT_LEAST:
        return facts.controlled.get(side) is None
    return facts.net(side) is None


def scenario_winner(
    vc: Mapping[str, Any] | None,
    facts: EndFacts,
    sides: Sequence[str],
    *,
    attacker: str = "",
    groups: Mapping[str, EndFacts] | None = None,
) -> Verdict:
    """The winner of a scenario whose VC are ``vc`` (``scenario_vc``) and whose end recorded
    ``facts`` (and, for VC per map group, ``groups``); ``sides`` in the game's order (German
    first)."""
    if vc is None:
        return Verdict(None, "no_vc", missing=("no_vc",))
    if vc["kind"] in ("dual_attack", "assault") and vc.get("map_groups"):
        return scenario_per_map_group(vc, groups or {}, sides, attacker=attacker)
    if vc["kind"] == "dual_attack":
        return dual_attack(facts, sides)
    if vc["kind"] == "assault":
        return assault(
            facts,
            sides,
            attacker,
            vc["assault_net_stone_locations"],
            int(vc.get("assault_cvp_ratio", 2)),
        )
    return initial(vc, facts, groups)


def scenario_per_map_group(
    vc: Mapping[str, Any],
    groups: Mapping[str, EndFacts],
    sides: Sequence[str],
    *,
    attacker: str = "",
) -> Verdict:
    """RF CG I (11.58, 11.6235): a Dual Attack or an Assault judged on each map group (``vc[
    "map_groups"]``) by 11.6235 on that group's Stone Location counts, then combined: the same
    side on every group wins; one side on each is for the players to judge (the rules make a
    split a draw only for the CG VC, L941; docs/rules-decisions.md). The CVP are the
    scenario's, counted on the joined map (CG1), so each group's facts carry all of them."""
    verdicts = {}
    for group in vc["map_groups"]:
        facts = groups.get(group) or EndFacts()
        if vc["kind"] == "dual_attack":
            verdicts[group] = dual_attack(facts, sides)
        else:
            verdicts[group] = assault(
                facts,
                sides,
                attacker,
                vc["assault_net_stone_locations"],
                int(vc.get("assault_cvp_ratio", 2)),
            )
    return combined(verdicts, split_is_draw=False)
