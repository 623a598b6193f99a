"""Statuses for RGs recorded before the life cycle: the data migration (0009) and older export
files without the ``status`` column use this one rule (campaigns.orbat.lifecycle.legacy_status).

Model classes are passed in, so the migration can hand over its historical models.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.orbat.lifecycle import Phase, legacy_status


def rg_types(module_key: str, side: str) -> dict[str, str]:
    """RG id → the chart's type for a side, from the game data ({} for an unknown module)."""
    from campaigns.games.registry import get_module

    try:
        charts = get_module(module_key).files.get("rg_charts") or {}
    except KeyError:
        return {}
    groups = (charts.get("sides") or {}).get(side, {}).get("groups", [])
    return {group["id"]: group.get("type", "") for group in groups}


def walk_of(phases: Iterable[Any]) -> tuple[list[Phase], int]:
    """A campaign's RePhs in order as the rules' walk, and how many of them are over."""
    rows = list(phases)
    return (
        [Phase(row.kind, row.index) for row in rows],
        sum(1 for row in rows if row.finished_at is not None),
    )


def status_of(rg: Any, walk: list[Phase], finished: int, types: dict[str, str]) -> str:
    return legacy_status(
        rolled="received" in (rg.details or {}) or bool(rg.strength),
        entered=rg.entered,
        index=rg.index,
        rg_type=types.get(rg.rg_id, ""),
        walk=walk,
        finished=finished,
    )


def fill_statuses(campaign: Any, rgs: list[Any], refit_phase_model: Any) -> list[Any]:
    """Set ``status`` on ``rgs`` (of one campaign) by the rule; returns them (not saved)."""
    walk, finished = walk_of(
        refit_phase_model.objects.filter(campaign_id=campaign.pk).order_by("started_at", "id")
    )
    types: dict[str, dict[str, str]] = {}
    for rg in rgs:
        if rg.side not in types:
            types[rg.side] = rg_types(campaign.module, rg.side)
        rg.status = status_of(rg, walk, finished, types[rg.side])
    return rgs
