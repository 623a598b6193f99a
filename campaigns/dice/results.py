"""A dice table's result in the reader's language.

A roll stores the table row's result as the data file gives it (``DiceRoll.result``): a text
``{"en", "ja"}``, an object with a ``text`` or ``label`` text, or plain values under keys
(``{"leader": "8-0"}``, ``{"cpp": 16}``, ``{"strength": "full"}``). ``result_words`` says it in
the active language: the text where there is one, else each key and value in words, so that no
raw key ("armor_leader", "elr_change") or value ("light_depleted") reaches a page. A key or
value without words here is shown as it is; ``tests/campaigns/dice/test_results.py`` checks
that every key and value of every module's tables has words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, gettext_lazy

from campaigns.games.registry import localized

KEY_WORDS = {
    "air_points": gettext_lazy("Air points"),
    "ammo": gettext_lazy("Ammunition"),
    "armor_leader": gettext_lazy("Armor leader"),
    "black": gettext_lazy("Black"),
    "building": gettext_lazy("Building"),
    "chart_entry": gettext_lazy("Chart entry"),
    "code": gettext_lazy("Code"),
    "cpp": gettext_lazy("CPP"),
    "december": gettext_lazy("December weather"),
    "ec": gettext_lazy("EC"),
    "effect": gettext_lazy("Effect"),
    "eliminated": gettext_lazy("Eliminated"),
    "elr_change": gettext_lazy("ELR change"),
    "elr_replacement": gettext_lazy("Replaced by ELR"),
    "fire_strength": gettext_lazy("Fire strength"),
    "footnote": gettext_lazy("Footnote"),
    "hardens_to": gettext_lazy("Hardens to"),
    "hit": gettext_lazy("Hit"),
    "inexperienced_crews": gettext_lazy("Inexperienced crews"),
    "infantry": gettext_lazy("Infantry"),
    "kept": gettext_lazy("Kept"),
    "leader": gettext_lazy("Leader"),
    "leaders": gettext_lazy("Leaders"),
    "level_change": gettext_lazy("Booby-trap level change"),
    "locations": gettext_lazy("Locations"),
    "mmc": gettext_lazy("MMC"),
    "mobile": gettext_lazy("Mobile again"),
    "mobile_afv": gettext_lazy("Mobile AFV"),
    "moves_first": gettext_lazy("Moves first"),
    "not_applicable": gettext_lazy("Does not apply"),
    "received": gettext_lazy("Received"),
    "red": gettext_lazy("Red"),
    "removed": gettext_lazy("Removed"),
    "repaired": gettext_lazy("Repaired"),
    "result": gettext_lazy("Result"),
    "roll_on_table": gettext_lazy("Roll on the table"),
    "salvaged": gettext_lazy("Salvaged"),
    "san_change": gettext_lazy("SAN change"),
    "sets_up_first": gettext_lazy("Sets up first"),
    "sniper": gettext_lazy("Sniper"),
    "sniper_dr": gettext_lazy("Sniper dr"),
    "strength": gettext_lazy("Strength"),
    "sw": gettext_lazy("SW"),
    "unknown": gettext_lazy("Unknown"),
    "weather": gettext_lazy("Weather"),
    "withdrawn": gettext_lazy("Withdrawn"),
    # Nested results: an escape's parts (infantry, mobile AFV).
    "abandoned": gettext_lazy("Abandoned"),
    "casualty_reduced": gettext_lazy("Casualty reduced"),
    "casualty_reduction": gettext_lazy("Casualty reduction"),
    "crew": gettext_lazy("Crew"),
    "destroyed": gettext_lazy("Destroyed"),
    "escape": gettext_lazy("Escape"),
    "escapes": gettext_lazy("Escapes"),
    "footnotes": gettext_lazy("Footnotes"),
    "replaced": gettext_lazy("Replaced"),
    "replacement": gettext_lazy("Replacement"),
}
# Map groups and ASL designations stay as printed.
AS_PRINTED = {"RB", "RO"}
VALUE_WORDS = {
    "full": gettext_lazy("Full"),
    "depleted": gettext_lazy("Depleted"),
    "reinforced": gettext_lazy("Reinforced"),
    "light_depleted": gettext_lazy("Lightly depleted"),
    "medium_depleted": gettext_lazy("Medium depleted"),
    "heavy_depleted": gettext_lazy("Heavily depleted"),
    "gutted": gettext_lazy("Gutted"),
    "rubble": gettext_lazy("Rubble"),
    "rubbled": gettext_lazy("Rubbled"),
    "escapes": gettext_lazy("Escapes"),
    "eliminated": gettext_lazy("Eliminated"),
    "northern": gettext_lazy("Northern"),
    "southern": gettext_lazy("Southern"),
    "german": gettext_lazy("German"),
    "soviet": gettext_lazy("Soviet"),
    "russian": gettext_lazy("Russian"),
}


def is_text(value: Any) -> bool:
    return isinstance(value, Mapping) and "en" in value and set(value) <= {"en", "ja"}


def text_of(value: Any, language: str | None) -> str | None:
    """The result's own words, if it has any: its ``en``/``ja``, its ``text`` or ``label``."""
    if isinstance(value, Mapping):
        if "en" in value:
            return localized({key: value[key] for key in ("en", "ja") if key in value}, language)
        for key in ("text", "label"):
            if is_text(value.get(key)):
                return localized(value[key], language)
    return None


def value_words(value: Any, language: str | None) -> str:
    if value is None:
        return "—"
    if value is True:
        return str(gettext_lazy("yes"))
    if value is False:
        return str(gettext_lazy("no"))
    if isinstance(value, str):
        return str(VALUE_WORDS.get(value, value))
    if isinstance(value, list | tuple):
        return ", ".join(value_words(item, language) for item in value)
    if isinstance(value, Mapping):
        return result_words(value, language)
    return str(value)


def key_words(key: str) -> str:
    return key if key in AS_PRINTED else str(KEY_WORDS.get(key, key))


def result_words(result: Any, language: str | None = None) -> str:
    """The result as the reader reads it ("" for a roll without a table)."""
    language = language or get_language()
    if result is None:
        return ""
    own = text_of(result, language)
    if own is not None:
        return own
    if isinstance(result, Mapping):
        return " · ".join(
            f"{key_words(key)}: {value_words(value, language)}" for key, value in result.items()
        )
    return value_words(result, language)
