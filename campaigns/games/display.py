"""Game data as players read it in the game browser: ids the data names are shown by their
names, and what is bookkeeping for maintainers is left out. Plain Python over plain data.

``for_players(value, names)`` returns a copy of a data file's value where every string that is
an id named somewhere (a dice table's id, a campaign game's key, a side's key, or an id the
same file gives a ``name``) is replaced by that name (``{en, ja}``); ``hidden_key`` says which
keys are for maintainers or for the program (seed line numbers, inferences, remarks).
"""

from __future__ import annotations

from typing import Any

from campaigns.games.registry import GameModule, all_modules

# Keys for the program or for maintainers, never shown: the seed's line numbers, the reasoning
# behind an inferred value, remarks, the file's own bookkeeping, a chart's internal kind.
HIDDEN = {
    "raw_row",
    "source_line",
    "version",
    "source",
    "lines",
    "dev_notes",
    "inferred",
    "remark",
    "kind",
    "line",
    # How the print differs from the data, where a maintainer looks first; the data's
    # reading of it is shown.
    "flags_printed",
    "printed_as",
    "scope_note",
    "not_in_seed",
    "cell_format",
    "data_missing",
    "used_by",
    "null_means",
    "rounding_decision",
    # Where the program reads a value from (a data file's name).
    "lookup",
    "file",
    "turn_sequence_file",
    # The words earlier versions of the app stored, read back as a key (weather.json).
    "legacy",
    # How the app reads an unclear rule (the question, the reading chosen and why; recorded in
    # docs/rules-decisions.md), a value's derivation, and a data format for the program.
    "decision",
    "decisions",
    "reading",
    "derived",
    "shape",
}
HIDDEN_ENDINGS = ("_lines", "_inferred", "_printed", "_decision")


def hidden_key(key: str) -> bool:
    return key in HIDDEN or key.endswith(HIDDEN_ENDINGS)


def _collect(value: Any, names: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for id_key in ("id", "key"):  # an RG or a chart by id, a weather by key
            if isinstance(value.get(id_key), str) and isinstance(value.get("name"), dict):
                names.setdefault(value[id_key], value["name"])
        if isinstance(value.get("id"), str) and isinstance(value.get("text"), dict):
            names.setdefault(value["id"], value["text"])  # a rule or condition by its text
        for item in value.values():
            _collect(item, names)
    elif isinstance(value, list):
        for item in value:
            _collect(item, names)


def id_names(module: GameModule, data: Any = None) -> dict[str, Any]:
    """Every id a page of ``module`` may show, with its name: the ids ``data`` names itself,
    the module's sides and campaign games, the ids its other files name, and every module's
    dice tables and charts."""
    names: dict[str, Any] = {}
    _collect(data, names)
    for side in module.sides:
        names.setdefault(side.key, {"en": side.name.en, "ja": side.name.ja})
    for cg in module.campaign_games:
        names.setdefault(cg.key, {"en": cg.shown_code.en, "ja": cg.shown_code.ja})
    for other_file in module.files.values():  # the module's weathers, leaders, boxes …
        _collect(other_file, names)
    for other in all_modules():
        tables = other.files.get("tables") or {}
        for table in [*tables.get("dice_tables", []), *tables.get("charts", [])]:
            if isinstance(table, dict) and table.get("id") and isinstance(table.get("name"), dict):
                names.setdefault(table["id"], table["name"])
    return names


def for_players(value: Any, names: dict[str, Any]) -> Any:
    """``value`` with named ids replaced by their names and hidden keys left out (an object's
    own ``id`` stays: pages link to it)."""
    if isinstance(value, dict):
        if isinstance(value.get("en"), str) and set(value) <= {"en", "ja", *HIDDEN}:
            return {key: value[key] for key in ("en", "ja") if key in value}  # a text
        return {
            key: (item if key == "id" else for_players(item, names))
            for key, item in value.items()
            if not hidden_key(key)
        }
    if isinstance(value, list):
        return [for_players(item, names) for item in value]
    if isinstance(value, str) and value in names:
        return names[value]
    return value
