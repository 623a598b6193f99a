"""Saving what the players enter for victory that our rules do not give (issue 15): the Stone
Location totals the CG VC count (``save_totals``) and the CVP table (``save_cvp_values``). Each
save is one public event with the rows it touched (before/after), undone together; a row whose
version moved on since the page was shown refuses the whole save."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.games.map_groups import map_groups
from campaigns.history import services as history
from campaigns.models import Campaign, CvpValue, StoneLocationTotal
from campaigns.records import cg_victory
from campaigns.state import StaleEdit, StateError

PUBLIC = "public"


def campaign_vc(campaign: Campaign) -> dict[str, Any] | None:
    """The CG VC the data structures (``victory.structured.campaign``), or None."""
    definition = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    victory = (definition.get(campaign.campaign_game) or {}).get("victory") or {}
    return (victory.get("structured") or {}).get("campaign")


def groups_of(campaign: Campaign) -> tuple[str, ...]:
    definition = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return map_groups(definition.get(campaign.campaign_game) or {})


def has_cg_victory(campaign: Campaign) -> bool:
    """Whether the campaign game has structured CG VC (Red Factories)."""
    return campaign_vc(campaign) is not None


def totals(campaign: Campaign) -> dict[str, tuple[int | None, str]]:
    """Each area the CG VC count: (its total, where it comes from: "entered", "rules" for the
    L496 figure, "" unknown). One query."""
    vc = campaign_vc(campaign)
    if vc is None:
        return {}
    entered = {row.area: row for row in StoneLocationTotal.objects.filter(campaign=campaign)}
    result: dict[str, tuple[int | None, str]] = {}
    for area in cg_victory.areas(vc, groups_of(campaign)):
        row = entered.get(area)
        if row is not None:
            result[area] = (row.total, "entered" if row.total is not None else "")
        else:
            known = cg_victory.known_total(area)
            result[area] = (known, "rules" if known is not None else "")
    return result


def _stale() -> StaleEdit:
    return StaleEdit()


@transaction.atomic
def save_totals(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    values: Mapping[str, int | None],
    versions: Mapping[str, int],
) -> int:
    """Save the areas' totals that changed; returns how many. ``versions``: each area's row
    version when the page was shown (0: no row then)."""
    vc = campaign_vc(campaign)
    allowed = set(cg_victory.areas(vc or {}, groups_of(campaign)))
    rows = {
        row.area: row
        for row in StoneLocationTotal.objects.select_for_update(of=("self",)).filter(
            campaign=campaign
        )
    }
    shown = totals(campaign)
    changes = []
    for area, value in values.items():
        if area not in allowed:
            raise StateError(_("This campaign game's VC count no such area."))
        row = rows.get(area)
        if (row.version if row else 0) != versions.get(area, 0):
            raise _stale()
        if shown.get(area, (None, ""))[0] == value and (row is not None or value is not None):
            continue
        before = history.snapshot(row) if row else None
        if row is None:
            # Version 1: a page shown before the row existed (version 0) is stale now.
            row = StoneLocationTotal.objects.create(
                campaign=campaign, area=area, total=value, version=1
            )
        else:
            row.total, row.version = value, row.version + 1
            row.save(update_fields=["total", "version"])
        changes.append((row, before, history.snapshot(row)))
    if changes:
        history.record_change(
            campaign,
            by,
            "cg_victory.totals",
            visibility=PUBLIC,
            changes=changes,
            areas=[row.area for row, _b, _a in changes],
        )
    return len(changes)


def normal_type(text: str) -> str:
    """A unit type as the CVP table keys it: spaces collapsed, case kept for reading."""
    return " ".join(text.split())


def cvp_values(campaign: Campaign) -> dict[str, int]:
    """The CVP table: {unit type casefolded: CVP}. One query."""
    return {
        normal_type(unit_type).casefold(): cvp
        for unit_type, cvp in CvpValue.objects.filter(campaign=campaign).values_list(
            "unit_type", "cvp"
        )
    }


@transaction.atomic
def save_cvp_values(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    values: Mapping[str, int | None],
    versions: Mapping[str, int],
) -> int:
    """Set (a number), change or remove (None) the CVP of unit types; returns how many rows
    changed. ``versions``: each type's row version when the page was shown (absent: new)."""
    rows = {
        normal_type(row.unit_type).casefold(): row
        for row in CvpValue.objects.select_for_update(of=("self",)).filter(campaign=campaign)
    }
    changes = []
    for unit_type, value in values.items():
        name = normal_type(unit_type)
        if not name:
            continue
        row = rows.get(name.casefold())
        if row is not None and name.casefold() in {k.casefold() for k in versions}:
            version = {k.casefold(): v for k, v in versions.items()}[name.casefold()]
            if row.version != version:
                raise _stale()
        before = history.snapshot(row) if row else None
        if value is None:
            if row is None:
                continue
            row.delete()
            changes.append((row, before, None))
            continue
        if row is None:
            row = CvpValue.objects.create(campaign=campaign, unit_type=name, cvp=value, version=1)
        elif row.cvp == value:
            continue
        else:
            row.cvp, row.version = value, row.version + 1
            row.save(update_fields=["cvp", "version"])
        changes.append((row, before, history.snapshot(row)))
    if changes:
        history.record_change(
            campaign,
            by,
            "cg_victory.cvp_values",
            visibility=PUBLIC,
            changes=changes,
            types=[(after or before or {}).get("unit_type", "") for _r, before, after in changes],
        )
    return len(changes)
