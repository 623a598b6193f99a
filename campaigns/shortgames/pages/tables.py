"""The referee's tables page (Cherkassy Pocket): each table the rules we have leave out, with
the shape it must have, what is known of it, and the table entered so far."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import RefereeTable
from campaigns.shortgames import services as short_games


@dataclass
class TableSlot:
    slot: dict[str, Any]
    name: str
    shape: str
    known: list[str]
    row: RefereeTable | None
    text: str  # what the form shows: the text refused, else the table entered
    error: str


@dataclass
class TablesPage:
    slots: list[TableSlot]


def tables_page(
    viewer: Viewer,
    typed: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
) -> TablesPage:
    """Every slot of the game; ``typed`` and ``errors`` by slot id: a table refused, shown again
    with why."""
    typed, errors = typed or {}, errors or {}
    campaign = viewer.campaign
    rows = {row.slot: row for row in RefereeTable.objects.filter(campaign=campaign)}
    slots = []
    for slot in short_games.referee_slots(campaign):
        row = rows.get(slot["id"])
        slots.append(
            TableSlot(
                slot=slot,
                name=localized(slot.get("name"), get_language()),
                shape=localized(slot.get("shape"), get_language()),
                known=[
                    localized(item.get("text"), get_language())
                    for item in slot.get("what_is_known", [])
                ],
                row=row,
                text=typed.get(slot["id"])
                or (json.dumps(row.data, ensure_ascii=False, indent=1) if row else ""),
                error=errors.get(slot["id"], ""),
            )
        )
    return TablesPage(slots=slots)
