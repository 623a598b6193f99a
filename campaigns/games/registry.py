"""The registry of game modules: which games exist, their sides and campaign games.

Each module is a data file, ``campaigns/games/<module>/module.json``, loaded and validated
once. This module is plain Python over plain data (no Django import) so that rules code and
management commands can use it anywhere.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

GAMES_DIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "ja")
PERIOD_KINDS = ("cg_day", "time_frame", "turn")


class GameDataError(ValueError):
    """A module file does not match the schema; ``path`` names the bad field."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True)
class LocalizedText:
    en: str
    ja: str

    def in_language(self, language: str | None) -> str:
        return localized(self, language)

    def __str__(self) -> str:
        return self.en


def localized(value: LocalizedText | Mapping[str, str] | str | None, language: str | None) -> str:
    """The one way to pick a text in the reader's language.

    ``value`` is a ``LocalizedText`` or a data file's ``{"en", "ja"?}``; ``language`` a language
    code as Django gives it ("ja", "ja-jp", "en-us") or None. Japanese when asked for and
    present, English otherwise: longer data texts may lack Japanese (docs/gamedata.md), and
    English is better than nothing. None gives "", anything else its ``str()``, so a caller
    may pass a data field that holds a plain id or number.
    """
    if value is None:
        return ""
    if isinstance(value, LocalizedText):
        en, ja = value.en, value.ja
    elif isinstance(value, Mapping):
        en, ja = str(value.get("en") or ""), str(value.get("ja") or "")
    else:
        return str(value)
    if ja and language and language.lower().startswith("ja"):
        return ja
    return en


@dataclass(frozen=True)
class Side:
    key: str
    name: LocalizedText


@dataclass(frozen=True)
class Period:
    """One CG day (RF), time frame (SaP) or game turn (the short games)."""

    key: str
    label: LocalizedText


@dataclass(frozen=True)
class CampaignGame:
    key: str
    code: str
    rule: str
    name: LocalizedText
    periods: tuple[Period, ...]
    # The code as a reader sees it: a name like "RB CG I" reads the same in every language,
    # "Scenario 1" does not ("シナリオ1"); the data's optional ``label``, else the code.
    label: LocalizedText | None = None

    @property
    def shown_code(self) -> LocalizedText:
        return self.label or LocalizedText(en=self.code, ja=self.code)

    @property
    def title(self) -> LocalizedText:
        """How pages and sheets name it: its code and its name ("RB CG I Into the Factory";
        the name alone where it is the code)."""
        code = self.shown_code
        if self.code == self.name.en:
            return self.name
        return LocalizedText(en=f"{code.en} {self.name.en}", ja=f"{code.ja} {self.name.ja}")


@dataclass(frozen=True)
class GameModule:
    key: str
    version: str
    position: int
    name: LocalizedText
    period_kind: str
    sides: tuple[Side, ...]
    campaign_games: tuple[CampaignGame, ...]
    # The module's other data files by name (``tables`` for tables.json …), checked against
    # docs/gamedata.md, and its dice tables parsed.
    files: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    dice_tables: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    def side(self, key: str) -> Side:
        for side in self.sides:
            if side.key == key:
                return side
        raise KeyError(key)

    def campaign_game(self, key: str) -> CampaignGame:
        for cg in self.campaign_games:
            if cg.key == key:
                return cg
        raise KeyError(key)

    @property
    def side_keys(self) -> tuple[str, ...]:
        return tuple(side.key for side in self.sides)

    def dice_table(self, table_id: str) -> Any:
        for table in self.dice_tables:
            if table.id == table_id:
                return table
        raise KeyError(table_id)


def _require(data: dict[str, Any], key: str, kind: type, path: str) -> Any:
    if key not in data:
        raise GameDataError(f"{path}.{key}", "is required")
    value = data[key]
    if not isinstance(value, kind) or (kind is str and not value.strip()):
        raise GameDataError(f"{path}.{key}", f"must be a non-empty {kind.__name__}")
    return value


def _text(data: dict[str, Any], key: str, path: str) -> LocalizedText:
    value = _require(data, key, dict, path)
    for language in LANGUAGES:
        _require(value, language, str, f"{path}.{key}")
    return LocalizedText(en=value["en"], ja=value["ja"])


def _date(value: Any, path: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise GameDataError(path, "must be a date as YYYY-MM-DD") from None


def _calendar_days(first: dt.date, last: dt.date) -> tuple[Period, ...]:
    days = []
    day = first
    while day <= last:
        days.append(
            Period(
                key=day.isoformat(),
                label=LocalizedText(
                    en=f"{day.day} {day.strftime('%b')} {day.year}",
                    ja=f"{day.year}年{day.month}月{day.day}日",
                ),
            )
        )
        day += dt.timedelta(days=1)
    return tuple(days)


def _periods(data: dict[str, Any], path: str) -> tuple[Period, ...]:
    if "periods" in data:
        raw = _require(data, "periods", list, path)
        periods = tuple(
            Period(
                key=_require(item, "key", str, f"{path}.periods[{i}]"),
                label=_text(item, "label", f"{path}.periods[{i}]"),
            )
            for i, item in enumerate(raw)
        )
    else:
        first = _date(data.get("first_day"), f"{path}.first_day")
        last = _date(data.get("last_day"), f"{path}.last_day")
        if last < first:
            raise GameDataError(f"{path}.last_day", "is before first_day")
        periods = _calendar_days(first, last)
    if not periods:
        raise GameDataError(f"{path}.periods", "must list at least one period")
    keys = [period.key for period in periods]
    if len(set(keys)) != len(keys):
        raise GameDataError(f"{path}.periods", "keys must be unique")
    return periods


def parse_module(data: Any, path: str = "module") -> GameModule:
    """Validate one module's data and build it; raise GameDataError naming the bad field."""
    if not isinstance(data, dict):
        raise GameDataError(path, "must be an object")
    period_kind = _require(data, "period_kind", str, path)
    if period_kind not in PERIOD_KINDS:
        raise GameDataError(f"{path}.period_kind", f"must be one of {', '.join(PERIOD_KINDS)}")
    raw_sides = _require(data, "sides", list, path)
    if len(raw_sides) != 2:
        raise GameDataError(f"{path}.sides", "every game has exactly two sides")
    sides = tuple(
        Side(
            key=_require(side, "key", str, f"{path}.sides[{i}]"),
            name=_text(side, "name", f"{path}.sides[{i}]"),
        )
        for i, side in enumerate(raw_sides)
    )
    if sides[0].key == sides[1].key:
        raise GameDataError(f"{path}.sides", "side keys must differ")
    raw_cgs = _require(data, "campaign_games", list, path)
    campaign_games = tuple(
        CampaignGame(
            key=_require(cg, "key", str, f"{path}.campaign_games[{i}]"),
            code=_require(cg, "code", str, f"{path}.campaign_games[{i}]"),
            rule=_require(cg, "rule", str, f"{path}.campaign_games[{i}]"),
            name=_text(cg, "name", f"{path}.campaign_games[{i}]"),
            periods=_periods(cg, f"{path}.campaign_games[{i}]"),
            label=_text(cg, "label", f"{path}.campaign_games[{i}]") if "label" in cg else None,
        )
        for i, cg in enumerate(raw_cgs)
    )
    if not campaign_games:
        raise GameDataError(f"{path}.campaign_games", "must list at least one campaign game")
    cg_keys = [cg.key for cg in campaign_games]
    if len(set(cg_keys)) != len(cg_keys):
        raise GameDataError(f"{path}.campaign_games", "keys must be unique")
    return GameModule(
        key=_require(data, "key", str, path),
        version=_require(data, "version", str, path),
        position=_require(data, "position", int, path),
        name=_text(data, "name", path),
        period_kind=period_kind,
        sides=sides,
        campaign_games=campaign_games,
    )


def read_json(file: Path) -> Any:
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise GameDataError(
            f"{file.parent.name}/{file.name}", f"is not valid JSON ({exc})"
        ) from None


def load_module_file(file: Path, overrides: dict[str, Any] | None = None) -> GameModule:
    """Load a module.json and every other data file beside it, all checked.

    ``overrides`` replaces files by name (used to validate an edited file in its context).
    """
    from campaigns.games.schema import check_files

    overrides = overrides or {}
    data = overrides["module"] if "module" in overrides else read_json(file)
    module = parse_module(data, path=file.parent.name)
    if module.key != file.parent.name:
        raise GameDataError(f"{file.parent.name}.key", "must match the module's folder name")
    files = {
        other.stem: read_json(other)
        for other in sorted(file.parent.glob("*.json"))
        if other.name != "module.json"
    }
    files.update({stem: value for stem, value in overrides.items() if stem != "module"})
    return replace(module, files=files, dice_tables=check_files(module, files))


@cache
def all_modules() -> tuple[GameModule, ...]:
    modules = (load_module_file(file) for file in GAMES_DIR.glob("*/module.json"))
    return tuple(sorted(modules, key=lambda module: module.position))


def get_module(key: str) -> GameModule:
    for module in all_modules():
        if module.key == key:
            return module
    raise KeyError(key)
