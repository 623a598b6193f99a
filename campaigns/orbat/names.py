"""Order-of-battle lines the app wrote from game data, named in the reader's language.

A line's ``unit_type`` is free text: what a player typed ("4-6-7", "9-1 leader") stays as
typed. Lines the app wrote from the data — an initial OB's entries ("Fanatic Strongpoint (SSR
CG16)") and the Fortification Purchase Table's items ("Fortified Building Location") — hold
the data's English words; ``ob_name`` shows them in the reader's language where the data has
Japanese. Cached per campaign game and language (data files do not change while running).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from campaigns.games.registry import get_module, localized

LINE_LENGTH = 60  # OrbatEntry.unit_type's max_length


def ob_name(unit_type: str, module: str, campaign_game: str, language: str | None) -> str:
    return _names(module, campaign_game, (language or "en")[:2]).get(unit_type, unit_type)


@lru_cache(maxsize=64)
def _names(module: str, campaign_game: str, language: str) -> dict[str, str]:
    files = get_module(module).files
    names: dict[str, str] = {}
    for chart in (files.get("tables") or {}).get("charts", []):
        if chart.get("kind") in ("purchase_costs", "fortification_costs"):
            for item in chart.get("items", []):
                name = item.get("name")
                if isinstance(name, dict) and name.get("en"):
                    names[name["en"]] = localized(name, language)
    definition = ((files.get("campaign_games") or {}).get("campaign_games") or {}).get(
        campaign_game
    ) or {}
    for side in (definition.get("initial_ob") or {}).values():
        for unit in _units(side):
            text, ja = unit.get("text"), unit.get("ja")
            if isinstance(text, str) and isinstance(ja, str) and ja:
                # A new campaign writes a line's first 60 characters (OrbatEntry.unit_type).
                for key in (text, text[:LINE_LENGTH]):
                    names.setdefault(key, ja if language == "ja" else text)
    return names


def _units(side: Any) -> list[dict[str, Any]]:
    if not isinstance(side, dict):
        return []
    units = side.get("units") or []
    return [unit for unit in units if isinstance(unit, dict)]
