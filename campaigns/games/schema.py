"""Checks on a module's data files beyond module.json (the contract is docs/gamedata.md).

Each check raises GameDataError with the path of the bad field, e.g.
``red_factories/rg_charts.json: sides.german.groups[3].notes: note 'x' is not defined``.
Plain Python, no Django.
"""

from __future__ import annotations

from typing import Any

from campaigns.games.dice_tables import DiceTable, parse_table
from campaigns.games.registry import GameDataError, GameModule

STEP_FILES = ("refit_steps", "turn_sequence")

# The conditions a step's ``mandatory_rolls`` / ``roll_limits`` may name (docs/gamedata.md;
# refit.rules.strictness reads them).
ROLL_CONDITIONS = (
    "side",
    "san_at_least",
    "booby_trap_levels",
    "reph_kinds",
    "not_first_period",
    "not_months",
    "calendar_blank",
    "scenario_types",
)


def _fail(file: str, path: str, message: str) -> GameDataError:
    return GameDataError(f"{file}: {path}" if path else file, message)


def _named(item: Any, file: str, path: str) -> None:
    name = item.get("name") if isinstance(item, dict) else None
    if not isinstance(name, dict) or not all(
        isinstance(name.get(lang), str) and name[lang].strip() for lang in ("en", "ja")
    ):
        raise _fail(file, f"{path}.name", "needs English and Japanese text (en, ja)")


def check_header(stem: str, data: Any, module: GameModule) -> None:
    file = f"{module.key}/{stem}.json"
    if not isinstance(data, dict):
        raise _fail(file, "", "must be a JSON object")
    if not isinstance(data.get("version"), str) or not data["version"]:
        raise _fail(file, "version", "is required (a string; bump it on any change)")
    if not isinstance(data.get("source"), str) or not data["source"]:
        raise _fail(file, "source", "is required (the seed the data comes from)")
    # A campaign records module.json's version; a file changed without bumping it would change
    # a running campaign's data unnoticed.
    if _version_number(data["version"], file) > _version_number(module.version, "module.json"):
        raise _fail(
            file, "version", f"is newer than module.json's version {module.version}: bump that too"
        )


def _version_number(version: str, file: str) -> int:
    if not version.isdigit():
        raise _fail(file, "version", 'must be a whole number as a string, e.g. "2"')
    return int(version)


def check_tables(data: dict, module: GameModule) -> tuple[DiceTable, ...]:
    file = f"{module.key}/tables.json"
    tables = []
    seen: set[str] = set()
    for i, raw in enumerate(data.get("dice_tables", [])):
        path = f"dice_tables[{i}]"
        try:
            table = parse_table(raw, path)
        except GameDataError as error:
            raise _fail(file, error.path, error.message) from None
        _named(raw, file, path)
        if table.id in seen:
            raise _fail(file, f"{path}.id", f"{table.id!r} is used twice")
        seen.add(table.id)
        tables.append(table)
    for i, chart in enumerate(data.get("charts", [])):
        path = f"charts[{i}]"
        if not isinstance(chart, dict) or not chart.get("id") or not chart.get("rule"):
            raise _fail(file, path, "needs id and rule")
        _named(chart, file, path)
        if chart["id"] in seen:
            raise _fail(file, f"{path}.id", f"{chart['id']!r} is used twice")
        seen.add(chart["id"])
    return tuple(tables)


def check_rg_charts(data: dict, module: GameModule) -> None:
    file = f"{module.key}/rg_charts.json"
    sides = data.get("sides")
    if not isinstance(sides, dict) or not sides:
        raise _fail(file, "sides", "must map side keys to charts")
    cg_keys = {cg.key for cg in module.campaign_games}
    for side, chart in sides.items():
        base = f"sides.{side}"
        if side not in module.side_keys:
            raise _fail(file, base, f"{side!r} is not a side of {module.key}")
        notes = chart.get("notes", {})
        if not isinstance(notes, dict):
            raise _fail(file, f"{base}.notes", "must map note letters to texts")
        seen: set[str] = set()
        for i, group in enumerate(chart.get("groups", [])):
            path = f"{base}.groups[{i}]"
            if not isinstance(group, dict) or not group.get("id"):
                raise _fail(file, path, "needs an id")
            _named(group, file, path)
            if group["id"] in seen:
                raise _fail(file, f"{path}.id", f"{group['id']!r} is used twice")
            seen.add(group["id"])
            for key in ("notes", "cost_notes"):
                for letter in group.get(key, []) or []:
                    if letter not in notes:
                        raise _fail(file, f"{path}.{key}", f"note {letter!r} is not defined")
            units_ja = group.get("units_ja")
            if units_ja is not None and not (isinstance(units_ja, str) and units_ja.strip()):
                raise _fail(file, f"{path}.units_ja", "must be a non-empty text when given")
            for cg_key in group.get("cg_max", {}) or {}:
                if cg_key not in cg_keys:
                    raise _fail(file, f"{path}.cg_max", f"{cg_key!r} is not a campaign game here")
        if not seen:
            raise _fail(file, f"{base}.groups", "must list the chart's RGs")


def rg_ids(data: dict | None, side: str) -> set[str]:
    if not data:
        return set()
    return {group["id"] for group in data["sides"].get(side, {}).get("groups", [])}


def check_campaign_games(data: dict, module: GameModule, rg_charts: dict | None) -> None:
    file = f"{module.key}/campaign_games.json"
    cgs = data.get("campaign_games")
    if not isinstance(cgs, dict):
        raise _fail(file, "campaign_games", "must map campaign-game keys to definitions")
    cg_keys = {cg.key for cg in module.campaign_games}
    for key, cg in cgs.items():
        base = f"campaign_games.{key}"
        if key not in cg_keys:
            raise _fail(file, base, f"{key!r} is not a campaign game of {module.key}")
        for role in ("sets_up_first", "moves_first"):
            if role in cg and cg[role] is not None and cg[role] not in module.side_keys:
                raise _fail(file, f"{base}.{role}", f"{cg[role]!r} is not a side")
        for side, ob in (cg.get("initial_ob") or {}).items():
            path = f"{base}.initial_ob.{side}"
            if side not in module.side_keys:
                raise _fail(file, path, f"{side!r} is not a side of {module.key}")
            known = rg_ids(rg_charts, side)
            for i, entry in enumerate(ob.get("rgs", [])):
                if entry.get("rg") not in known:
                    raise _fail(
                        file,
                        f"{path}.rgs[{i}].rg",
                        f"RG {entry.get('rg')!r} is not in the {side} RG chart",
                    )


def _applies(item: dict, file: str, path: str) -> None:
    """What to do at the table is read by players in either language, so it needs both."""
    if "applies" not in item:
        return
    applies = item["applies"]
    if not isinstance(applies, dict) or not all(
        isinstance(applies.get(lang), str) and applies[lang].strip() for lang in ("en", "ja")
    ):
        raise _fail(
            file,
            f"{path}.applies",
            'needs English and Japanese text: {"en": "...", "ja": "..."}, both non-empty',
        )


def check_steps(stem: str, data: dict, module: GameModule, table_ids: set[str]) -> None:
    file = f"{module.key}/{stem}.json"
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise _fail(file, "steps", "must list the steps in order")
    for i, step in enumerate(steps):
        path = f"steps[{i}]"
        if not isinstance(step, dict) or not step.get("rule"):
            raise _fail(file, path, "needs a rule number")
        _named(step, file, path)
        _applies(step, file, path)
        for j, sub in enumerate(step.get("substeps", []) or []):
            if isinstance(sub, dict):
                _applies(sub, file, f"{path}.substeps[{j}]")
        for marker in step.get("markers", []) or []:
            if marker not in ("*", "#", "†"):
                raise _fail(file, f"{path}.markers", f"unknown marker {marker!r}")
        for table_id in step.get("tables", []) or []:
            if table_id not in table_ids:
                raise _fail(file, f"{path}.tables", f"table {table_id!r} is not in tables.json")
        _roll_rules(step, file, path)


def _roll_rules(step: dict, file: str, path: str) -> None:
    """A step's mandatory rolls and roll limits name its own tables and known conditions."""
    own = set(step.get("tables", []) or [])
    for sub in step.get("substeps", []) or []:
        own |= set(sub.get("tables", []) or []) if isinstance(sub, dict) else set()
    for key in ("mandatory_rolls", "roll_limits"):
        entries = step.get(key)
        if entries is None:
            continue
        if not isinstance(entries, list):
            raise _fail(file, f"{path}.{key}", "must be a list")
        for i, entry in enumerate(entries):
            where = f"{path}.{key}[{i}]"
            if not isinstance(entry, dict) or entry.get("table") not in own:
                raise _fail(file, f"{where}.table", "must name one of the step's tables")
            when = entry.get("when", {})
            if not isinstance(when, dict):
                raise _fail(file, f"{where}.when", "must be an object")
            for condition in when:
                if condition not in ROLL_CONDITIONS:
                    raise _fail(file, f"{where}.when", f"unknown condition {condition!r}")
            instead = entry.get("instead")
            if instead is not None and not (
                isinstance(instead, dict)
                and instead.get("rule")
                and all(isinstance(instead.get(lang), str) for lang in ("en", "ja"))
            ):
                raise _fail(file, f"{where}.instead", "needs a rule and English and Japanese text")


WEATHER_KEY_MAX = 30  # CampaignDay.weather holds the key


def _results(tables: dict | None, field: str) -> set[Any]:
    return {
        row["result"].get(field)
        for table in (tables or {}).get("dice_tables", [])
        for row in table.get("rows", [])
        if isinstance(row.get("result"), dict)
    } - {None}


def _check_named_types(types: Any, file: str, list_path: str) -> None:
    """Named weathers (or ECs): unique keys that fit the calendar, names in both languages."""
    if not isinstance(types, list) or not types:
        raise _fail(file, list_path, "must list the game's weathers")
    seen: set[str] = set()
    for i, kind in enumerate(types):
        path = f"{list_path}[{i}]"
        key = kind.get("key") if isinstance(kind, dict) else None
        if not isinstance(key, str) or not key or len(key) > WEATHER_KEY_MAX:
            raise _fail(file, f"{path}.key", f"must be a text of 1-{WEATHER_KEY_MAX} characters")
        if key in seen:
            raise _fail(file, f"{path}.key", f"repeats {key!r}")
        seen.add(key)
        _named(kind, file, path)


def check_weather(data: dict, module: GameModule, tables: dict | None) -> None:
    """``weather.json``: named weathers with unique keys that fit the calendar, names in both
    languages, boolean flags, and a ``rolled`` that is a result of the module's weather table;
    ``ec_types`` (optional) the same, each key a result of the module's EC table."""
    file = f"{module.key}/weather.json"
    types = data.get("types")
    _check_named_types(types, file, "types")
    results = _results(tables, "weather")
    for i, kind in enumerate(types):
        path = f"types[{i}]"
        for flag in ("december", "falling_snow", "falling_snow_possible", "ground_snow"):
            if flag in kind and not isinstance(kind[flag], bool):
                raise _fail(file, f"{path}.{flag}", "must be true or false")
        if "rolled" in kind and kind["rolled"] not in results:
            raise _fail(file, f"{path}.rolled", "is no result of the module's weather table")
    # A game without weather or EC tables (SaP) names the weathers its SSRs fix and the
    # calendar's typed words may name; its fields stay free text (``entered_as_text``).
    as_text = data.get("entered_as_text", False)
    if not isinstance(as_text, bool):
        raise _fail(file, "entered_as_text", "must be true or false")
    if "ec_types" in data:
        _check_named_types(data["ec_types"], file, "ec_types")
        if as_text:
            return
        ecs = _results(tables, "ec")
        for i, kind in enumerate(data["ec_types"]):
            if kind["key"] not in ecs:
                raise _fail(file, f"ec_types[{i}].key", "is no result of the module's EC table")


def check_files(module: GameModule, files: dict[str, Any]) -> tuple[DiceTable, ...]:
    """Check every data file of one module against the contract and each other."""
    for stem, data in files.items():
        check_header(stem, data, module)
    tables = check_tables(files["tables"], module) if "tables" in files else ()
    table_ids = {t.id for t in tables} | {
        c["id"] for c in files.get("tables", {}).get("charts", [])
    }
    if "rg_charts" in files:
        check_rg_charts(files["rg_charts"], module)
    if "campaign_games" in files:
        check_campaign_games(files["campaign_games"], module, files.get("rg_charts"))
    if "weather" in files:
        check_weather(files["weather"], module, files.get("tables"))
    for stem in STEP_FILES:
        if stem in files:
            check_steps(stem, files[stem], module, table_ids)
    return tables
