"""Which CVP entries count for what, and what they add up to (RF/SaP 11.12, 11.6031, 11.616,
RF SSR CG13, CG18; SaP SSR CG11).

A side's CVP entries are counted three ways, each by its own rule:

- for victory (and the MMC Battle Hardening DRM, 11.6112): the losses recorded during the
  scenario or in the RePh before victory determination (11.6031), uncontrolled exits included
  (RF CG13);
- for the CPP replenishment DRM: every phase of the day, but not uncontrolled exits (RF CG13);
- for the CVP Tally Box: every CVP the side suffered.

CG18's "no CVP" losses count for none. In Slaughter at Ponyri a unit that exits from a hex its
side does not control is eliminated and adds no CVP at all (SaP CG11 [004 L508–L512]): it counts
for none either. ``rules_for(module)`` gives a game's rules; the module-level functions are Red
Factories'. The functions are pure, over plain rows (``CvpFacts``:
a ``CvpEntry`` or a ``CvpLine``); ``cvp_lines`` is the one query that reads those rows, for the
CVP and scenarios pages and for the Refit Phase's facts (refit.walker.facts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from campaigns.compiled import CompiledQuery
from campaigns.models import Campaign, CvpEntry, CvpPhase

# The phases before victory determination (11.6031).
VICTORY_PHASES = (CvpPhase.SCENARIO, CvpPhase.REPH_BEFORE_VC)


class CvpFacts(Protocol):
    side: str
    index: int
    phase: str
    cvp: int
    exited_uncontrolled: bool
    no_cvp: bool


@dataclass(frozen=True)
class CvpLine:
    """One CVP entry as plain data: what the counting rules read of it."""

    side: str
    index: int
    phase: str
    cvp: int
    exited_uncontrolled: bool = False
    no_cvp: bool = False
    scenario_id: int | None = None


Counts = Callable[[CvpFacts], bool]


@dataclass(frozen=True)
class CvpRules:
    """A game's CVP counting rules. ``uncontrolled_exits_add_cvp``: RF CG13 counts a unit exited
    from an uncontrolled hex for victory (not for the 11.616 DRM); SaP CG11 gives it no CVP."""

    uncontrolled_exits_add_cvp: bool = True

    def _counted(self, entry: CvpFacts) -> bool:
        if entry.no_cvp:
            return False
        return self.uncontrolled_exits_add_cvp or not entry.exited_uncontrolled

    def for_victory(self, entry: CvpFacts) -> bool:
        """Scenario VC count losses up to victory determination (11.6031), exits included
        where they add CVP (CG13)."""
        return self._counted(entry) and entry.phase in VICTORY_PHASES

    def for_cpp_drm(self, entry: CvpFacts) -> bool:
        """The 11.616 DRM counts every phase of the day, but not uncontrolled exits."""
        return self._counted(entry) and not entry.exited_uncontrolled

    def for_tally(self, entry: CvpFacts) -> bool:
        """The CVP Tally Box: every CVP the side suffered."""
        return self._counted(entry)


RF_RULES = CvpRules()
SAP_RULES = CvpRules(uncontrolled_exits_add_cvp=False)
RULES_BY_MODULE = {"slaughter_at_ponyri": SAP_RULES}


def rules_for(module: str) -> CvpRules:
    """The CVP rules of a game (Red Factories' unless the game says otherwise)."""
    return RULES_BY_MODULE.get(module, RF_RULES)


def counts_for_victory(entry: CvpFacts) -> bool:
    """Scenario VC count losses up to victory determination (11.6031), exits included (CG13)."""
    return RF_RULES.for_victory(entry)


def counts_for_cpp_drm(entry: CvpFacts) -> bool:
    """The 11.616 DRM counts every phase of the day, but not uncontrolled exits (CG13)."""
    return RF_RULES.for_cpp_drm(entry)


def counts_for_tally(entry: CvpFacts) -> bool:
    """The CVP Tally Box: every CVP the side suffered (CG18 'no CVP' losses excepted)."""
    return RF_RULES.for_tally(entry)


def lost(entries: Iterable[CvpFacts], counts: Counts, *, side: str, index: int) -> int:
    """The CVP ``side`` lost on CG day ``index`` that ``counts`` (one of the rules above)."""
    return sum(
        entry.cvp
        for entry in entries
        if entry.side == side and entry.index == index and counts(entry)
    )


@dataclass
class CvpSums:
    for_victory: int = 0
    for_cpp_drm: int = 0
    tally: int = 0
    running: int = 0

    def add(self, entry: CvpFacts, rules: CvpRules = RF_RULES) -> None:
        if rules.for_victory(entry):
            self.for_victory += entry.cvp
        if rules.for_cpp_drm(entry):
            self.for_cpp_drm += entry.cvp
        if rules.for_tally(entry):
            self.tally += entry.cvp


def cvp_days(
    entries: Iterable[CvpFacts], sides: Sequence[str], rules: CvpRules = RF_RULES
) -> tuple[list[tuple[int, list[CvpSums]]], list[CvpSums]]:
    """Per day with entries, each side's sums (in ``sides`` order), with the running CVP Tally
    through that day; and the CG totals so far."""
    by_day: dict[int, dict[str, CvpSums]] = {}
    for entry in entries:
        day_sums = by_day.setdefault(entry.index, {side: CvpSums() for side in sides})
        if entry.side in day_sums:
            day_sums[entry.side].add(entry, rules)
    totals = {side: CvpSums() for side in sides}
    days = []
    for index in sorted(by_day):
        for side in sides:
            sums = by_day[index][side]
            totals[side].for_victory += sums.for_victory
            totals[side].for_cpp_drm += sums.for_cpp_drm
            totals[side].tally += sums.tally
            sums.running = totals[side].tally
        days.append((index, [by_day[index][side] for side in sides]))
    for side in sides:
        totals[side].running = totals[side].tally
    return days, [totals[side] for side in sides]


def scenario_cvp(
    entries: Iterable[CvpLine], scenarios: Mapping[int, int], rules: CvpRules = RF_RULES
) -> dict[int, dict[str, int]]:
    """The CVP each side lost for victory in each scenario (``scenarios``: id → CG day).

    An entry linked to a scenario counts for it; an unlinked one counts for its day's scenario
    when that day had only one (with two, nobody can tell which). Entries of other scenarios
    are left out.
    """
    by_day: dict[int, list[int]] = {}
    for scenario_id, index in scenarios.items():
        by_day.setdefault(index, []).append(scenario_id)
    result: dict[int, dict[str, int]] = {scenario_id: {} for scenario_id in scenarios}
    for entry in entries:
        if not rules.for_victory(entry):
            continue
        scenario_id = entry.scenario_id
        if scenario_id is None and len(by_day.get(entry.index, [])) == 1:
            scenario_id = by_day[entry.index][0]
        if scenario_id in result:
            side_sums = result[scenario_id]
            side_sums[entry.side] = side_sums.get(entry.side, 0) + entry.cvp
    return result


def cvp_lines(
    campaign: Campaign, *, side: str | None = None, index: int | None = None
) -> list[CvpLine]:
    """The campaign's CVP entries as plain rows (one query), of one side or day if asked."""
    if side is None and index is None:
        return [CvpLine(*row) for row in _all_lines(campaign.pk)]
    entries = CvpEntry.objects.filter(campaign=campaign)
    if side is not None:
        entries = entries.filter(side=side)
    if index is not None:
        entries = entries.filter(index=index)
    return [
        CvpLine(*row)
        for row in entries.order_by("index", "id").values_list(
            "side", "index", "phase", "cvp", "exited_uncontrolled", "no_cvp", "scenario_id"
        )
    ]


# Every CVP page reads all the campaign's lines: the query compiled once (campaigns.compiled).
_all_lines = CompiledQuery(
    lambda campaign_id: (
        CvpEntry.objects.filter(campaign_id=campaign_id)
        .order_by("index", "id")
        .values_list(
            "side", "index", "phase", "cvp", "exited_uncontrolled", "no_cvp", "scenario_id"
        )
    ),
    1,
)
