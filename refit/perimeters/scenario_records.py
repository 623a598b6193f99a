"""Which scenarios' control records a Refit Phase's perimeter starts from (11.605): those played
after the last perimeter's Refit Phase and before this one. Reads only; the changes are in
``scenario_control``."""

from __future__ import annotations

from collections.abc import Iterable

from campaigns.compiled import CompiledQuery
from campaigns.models import Campaign, RefitPhase, Scenario
from refit.models import PerimeterState, ScenarioControl
from refit.rules.perimeter.control_changes import apply_changes


def scenario_rephs(campaign: Campaign) -> dict[tuple[int, int], RefitPhase]:
    """The walker's position of each scenario played, by (CG day, sequence)."""
    return {
        (r.index, r.sequence): r
        for r in RefitPhase.objects.filter(campaign=campaign, kind="scenario").order_by("id")
    }


def played_before(
    reph: RefitPhase | None, scenario: Scenario, positions: dict[tuple[int, int], RefitPhase]
) -> bool:
    """Was ``scenario`` played before ``reph`` opened? By the walker's order where the scenario
    was played in it, else by the CG day (a scenario ends its day; RF's RePh after it has the
    same day, SaP's the next period)."""
    if reph is None:
        return False
    position = positions.get((scenario.index, scenario.sequence))
    if position is not None:
        return reph.pk is not None and reph.pk > position.pk
    if reph.index != scenario.index:
        return reph.index > scenario.index
    return reph.kind not in ("scenario", "before_initial", "scenario_day") and (
        reph.sequence >= scenario.sequence
    )


# The campaign's control records with their scenarios, in play order: asked by the perimeter
# page on every GET before the first change (compiled once: campaigns.compiled).
_records = CompiledQuery(
    lambda campaign_id: (
        ScenarioControl.objects.filter(campaign_id=campaign_id)
        .select_related("scenario")
        .order_by("scenario__index", "scenario__sequence")
    ),
    1,
)


def played_between(
    campaign: Campaign, previous: PerimeterState | None, reph: RefitPhase
) -> list[ScenarioControl]:
    """The control records of the scenarios played after ``previous``'s Refit Phase (all, if
    none) and before ``reph``, in the order they were played."""
    records = _records(campaign.pk)
    if not records:
        return []
    positions = scenario_rephs(campaign)
    since = previous.reph if previous is not None else None
    return [
        r
        for r in records
        if played_before(reph, r.scenario, positions)
        and not (previous is not None and since is None and r.scenario.index < previous.index)
        and not played_before(since, r.scenario, positions)
    ]


def applied(control: dict[str, str], records: Iterable[ScenarioControl]) -> dict[str, str]:
    for record in records:
        control = apply_changes(control, record.changes)
    return control
