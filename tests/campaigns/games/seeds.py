"""Read the original rules (the seeds) from tests, to check the data files against them."""

import json
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[4] / "shared" / "seeds"
FILES = {
    "defiant_russia": "001_534cfa9f1632b81e.txt",
    "cherkassy_pocket": "002_df3dfbb03d5b62ed.txt",
    "red_factories": "003_17379023c41927ed.txt",
    "slaughter_at_ponyri": "004_012ff7493835fc3d.txt",
}


def seed_lines(module: str) -> list[str]:
    """The seed's lines, 1-based (index 0 is empty) so that line numbers read as in the spec."""
    path = SEEDS / FILES[module]
    if not path.exists():
        pytest.fail(f"the rules seed {path} is not beside this checkout (shared/ must be)")
    return ["", *path.read_text(encoding="utf-8").splitlines()]


GAMES = Path(__file__).resolve().parents[3] / "campaigns" / "games"


def load_data(module: str, name: str) -> dict:
    """One of a module's data files, as JSON."""
    with open(GAMES / module / name, encoding="utf-8") as f:
        return json.load(f)


def dice(tables: dict, table_id: str):
    """A dice table of tables.json, parsed (and so checked) by the app's own parser."""
    from campaigns.games.dice_tables import parse_table

    for table in tables["dice_tables"]:
        if table["id"] == table_id:
            return parse_table(table, table_id)
    raise AssertionError(f"no dice table {table_id}")


def chart(tables: dict, chart_id: str) -> dict:
    for item in tables["charts"]:
        if item["id"] == chart_id:
            return item
    raise AssertionError(f"no chart {chart_id}")


def walk(node, path="$"):
    """Every object in a JSON tree with its path, e.g. ("$.turns[2]", {...})."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{path}[{i}]")
