"""Names of game-data ids (dice tables, optional rules) in the reader's language, for sentences
that kept only the id (history events): looked up across every module, no campaign needed, so a
history page asks no query per event. An id no module knows is shown as it is."""

from __future__ import annotations

from functools import cache
from typing import Any

from campaigns.games.registry import all_modules, localized


@cache
def _names() -> dict[str, dict[str, Any]]:
    tables: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for module in all_modules():
        for table in (module.files.get("tables") or {}).get("dice_tables", []):
            if isinstance(table, dict) and table.get("id") and table.get("name"):
                tables.setdefault(table["id"], table["name"])
        for option in (module.files.get("game") or {}).get("optional_rules", []) or []:
            if isinstance(option, dict) and option.get("id") and option.get("name"):
                options.setdefault(option["id"], option["name"])
    return {"tables": tables, "options": options}


def table_name(table_id: str, language: str | None) -> str:
    name = _names()["tables"].get(table_id)
    return localized(name, language) if name else table_id


def option_name(option_id: str, language: str | None) -> str:
    name = _names()["options"].get(option_id)
    return localized(name, language) if name else option_id
