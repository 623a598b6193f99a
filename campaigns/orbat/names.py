"""Order-of-battle lines the app wrote from game data, named in the reader's language.

A line's ``unit_type`` is free text: what a player typed ("4-6-7", "9-1 leader") stays as
typed. Lines the app wrote from the data — an initial OB's entries ("Fanatic Strongpoint (SSR
CG16)") and the Fortification Purchase Table's items ("Fortified Building Location") — hold
the data's English words; ``ob_name`` shows them in the reader's language where the data has
Japanese. Cached per campaign game and language (data files do not change while running).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.games.registry import get_module, localized

LINE_LENGTH = 60  # OrbatEntry.unit_type's max_length


def ob_name(unit_type: str, module: str, campaign_game: str, language: str | None) -> str:
    names = _names(module, campaign_game, (language or "en")[:2])
    if unit_type in names:
        return names[unit_type]
    return app_words(unit_type, language)


# The lines and history words the app writes itself (refit.walker.arrivals, refit.reserve):
# an armor leader rolled for CG9 ("8-1 armor leader"), a counter's AAMG ("KV-1 M42 (with
# AAMG)", as the SaP data prints it) and CG-5's dug-in T-34s ("T-34 M41 (dug-in)", CG7.23).
ARMOR_LEADER = re.compile(r"^(?P<rating>(?:\d+-\d+|[+-]\d+)) armor leader$")
AAMG = " (with AAMG)"
DUG_IN = " (dug-in)"


def app_words(text: str, language: str | None) -> str:
    """Words the app wrote in English from game data ("8-1 armor leader", "KV-1 M42 (with
    AAMG)", "T-34 M41 (dug-in)", "3 × T-34 M43"), in ``language``; any other text as it is."""
    count, times, rest = text.partition(" × ")
    if times and count.isdigit():
        return f"{count} × {app_words(rest, language)}"
    with translation.override(language or "en"):
        match = ARMOR_LEADER.match(text)
        if match:
            return _("%(rating)s armor leader") % {"rating": match["rating"]}
        if text.endswith(AAMG):
            return _("%(vehicle)s (with AAMG)") % {"vehicle": text[: -len(AAMG)]}
        if text.endswith(DUG_IN):
            return _("%(vehicle)s (dug-in)") % {"vehicle": text[: -len(DUG_IN)]}
    return text


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
