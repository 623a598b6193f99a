"""The referee's tables page (Cherkassy Pocket): each table the rules we have leave out, what
is known of it, and the table entered so far — the weather table, the Turn Record Track's
weather, the CRT and the terrain chart as grids shaped like the printed tables; the orders of
battle (entered on the Units page) as they were stored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import RefereeTable
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import grids


@dataclass
class TableSlot:
    slot: dict[str, Any]
    name: str
    shape: str
    known: list[str]
    row: RefereeTable | None
    text: str  # a non-grid slot: the text refused, else the table entered
    error: str
    grid: grids.Grid | None = None  # a grid slot: the grid typed, entered or blank
    problems: list[str] = field(default_factory=list)  # why the stored table cannot be used
    usable: bool = False


@dataclass
class TablesPage:
    slots: list[TableSlot]


def table_slot(
    campaign: Any,
    slot: dict[str, Any],
    row: RefereeTable | None,
    game: Mapping[str, Any],
    *,
    typed: Any = None,
    error: str = "",
) -> TableSlot:
    language = get_language()
    item = TableSlot(
        slot=slot,
        name=localized(slot.get("name"), language),
        shape=localized(slot.get("shape"), language),
        known=[localized(k.get("text"), language) for k in slot.get("what_is_known", [])],
        row=row,
        text="",
        error=error,
    )
    if slot["id"] not in grids.GRID_SLOTS:
        item.text = typed or (json.dumps(row.data, ensure_ascii=False, indent=1) if row else "")
        return item
    stored = grids.from_legacy(slot["id"], row.data) if row else None
    if row is not None and stored is None:
        # An earlier JSON table no grid can hold: shown as it was, to be entered again.
        item.text = json.dumps(row.data, ensure_ascii=False, indent=1)
    if stored is not None:
        found = grids.problems(slot["id"], stored, game)
        item.problems = [p.text.in_language(language) for p in found[:10]]
        item.usable = not found
    item.grid = typed or stored or grids.blank(slot["id"], game, language or "en")
    return item


def tables_page(
    viewer: Viewer,
    typed: Mapping[str, Any] | None = None,
    errors: Mapping[str, str] | None = None,
) -> TablesPage:
    """Every slot of the game; ``typed`` and ``errors`` by slot id: a table being edited or
    refused, shown again (with why)."""
    typed, errors = typed or {}, errors or {}
    campaign = viewer.campaign
    game = short_games.game_data(campaign)
    rows = {row.slot: row for row in RefereeTable.objects.filter(campaign=campaign)}
    return TablesPage(
        slots=[
            table_slot(
                campaign,
                slot,
                rows.get(slot["id"]),
                game,
                typed=typed.get(slot["id"]),
                error=errors.get(slot["id"], ""),
            )
            for slot in short_games.referee_slots(campaign)
        ]
    )
