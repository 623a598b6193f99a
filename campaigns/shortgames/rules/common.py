"""What the two short games' rules functions share (pure, no Django).

Results speak both languages: every sentence the player sees is a ``LocalizedText`` (shown with
the ``localized`` template filter), written here or read from the module's data, so the rules
code never needs gettext. What the rules forbid or limit is the one refusal type of every rules
module, ``campaigns.games.rules.Reason``, with its words ready-made in its ``text``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.games.weather import key_of


def text(en: str, ja: str) -> LocalizedText:
    return LocalizedText(en=en, ja=ja)


def data_text(value: Mapping[str, str] | None, fallback: str = "") -> LocalizedText:
    """A data file's ``{"en", "ja"?}``; longer data texts may lack Japanese (docs/gamedata.md),
    and then the English is shown in both languages rather than nothing."""
    if not value:
        return LocalizedText(en=fallback, ja=fallback)
    return LocalizedText(en=value["en"], ja=value.get("ja") or value["en"])


def turn_list(turns: Iterable[int]) -> str:
    return ", ".join(str(turn) for turn in sorted(turns))


def field_of(unit: Any, key: str) -> Any:
    """A roster unit's field, whether the caller passes a mapping or an object."""
    if isinstance(unit, Mapping):
        return unit.get(key)
    return getattr(unit, key, None)


def weather_key(game: Mapping[str, Any], stored: str | None) -> str | None:
    """The game's weather key (``game["weather"]["types"]``) that a stored weather stands for,
    or None when it stands for none of them.

    The turn's weather is kept on the calendar as text, and people type it there: "Mud",
    "light mud", "Light Mud", "泥濘". It is recognised against each weather's key and its
    English and Japanese names, ignoring case, spaces and underscores (and full-width forms),
    so that the rules, which expect a key, never see anything else; the caller treats None as
    "weather not recorded". The reading is every game's (``campaigns.games.weather.key_of``).
    """
    return key_of((game.get("weather") or {}).get("types") or (), stored)


@dataclass(frozen=True)
class Limit:
    """One limit of the turn for a side, e.g. rail moves 3 (6.5)."""

    key: str
    value: Any
    rule: str
    text: LocalizedText

    @property
    def text_en(self) -> str:
        return self.text.en

    @property
    def text_ja(self) -> str:
        return self.text.ja


@dataclass(frozen=True)
class TableUse:
    """Whether a dice table is rolled now, who rolls it, and why (not)."""

    table_id: str | None
    applies: bool
    rule: str
    reason: LocalizedText | None = None
    roller: str | None = None


@dataclass(frozen=True)
class StepState:
    """One step of the turn sequence on a given turn: whether it takes place and why not."""

    id: str
    phase: str | None
    side: str | None
    rule: str
    applies: bool
    limited: bool = False
    reason: LocalizedText | None = None
    tables: tuple[TableUse, ...] = ()
    referee_slots: tuple[str, ...] = ()


def count_hits(faces: Iterable[int], hit_on: Iterable[int]) -> int:
    """How many of the rolled faces hit."""
    hits = set(hit_on)
    return sum(1 for face in faces if face in hits)


def lookup(table: Mapping[str, Any], face: int) -> Any:
    """A dice table row's result for an unmodified face."""
    for row in table["rows"]:
        low, high = row.get("min"), row.get("max")
        if (low is None or face >= low) and (high is None or face <= high):
            return row["result"]
    raise ValueError(f"{table['id']}: no row for {face}")


def dice_table(tables: Mapping[str, Any], table_id: str) -> Mapping[str, Any]:
    for table in tables["dice_tables"]:
        if table["id"] == table_id:
            return table
    raise KeyError(table_id)
