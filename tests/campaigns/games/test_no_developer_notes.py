"""No text a player reads holds a note for developers.

Every ``{"en", "ja"?}`` text of every game data file is shown to players somewhere (a step, a DRM
reason, a chart's notes, the game browser). Spec question numbers, seed line numbers, data file
names and JSON paths belong in the file's ``dev_notes`` (keyed by the text's path), which no page
shows (docs/gamedata.md).
"""

import json
import re
from pathlib import Path

import pytest

from campaigns.games.display import hidden_key
from campaigns.templatetags.gamedata_tags import show

GAMES = Path(__file__).resolve().parents[3] / "campaigns" / "games"
DATA_FILES = sorted(GAMES.glob("*/*.json"))
DEVELOPER_NOTE = re.compile(
    r"\bspec\b"  # "spec Q26 default", "spec §14 item 2"
    r"|\.json\b"  # "see rg_charts.json"
    r"|\w\[\]"  # "turns[].historical_weather"
    r"|\b[Ss]eed\b"  # "the seed's heading", "(seed wording garbled)"
    r"|\bL\d{3,4}\b"  # a seed line: "(L1714)" (not a hex: "L19", "(L33)")
    r"|\b(?:rf|sap|dr|cp)\.[a-z0-9]+(?:-[a-z0-9]+)+"  # a table id: "rf.scenario-balance"
    r"|\b(?:TODO|FIXME|XXX)\b|garbled"
)


def texts(node, path=""):
    """(path, language, text) of every {"en", "ja"?} text in a data file, dev_notes left out."""
    if isinstance(node, dict):
        if "en" in node:  # a text, or a result with its text beside its data
            for language in ("en", "ja"):
                if isinstance(node.get(language), str):
                    yield path, language, node[language]
            if set(node) <= {"en", "ja"}:
                return
        for key, value in node.items():
            if key not in ("dev_notes", "en", "ja"):
                yield from texts(value, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from texts(value, f"{path}[{n}]")


@pytest.mark.parametrize("file", DATA_FILES, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_no_player_text_holds_a_developer_note(file):
    found = [
        f"{path} [{language}]: {text}"
        for path, language, text in texts(json.loads(file.read_text(encoding="utf-8")))
        if isinstance(text, str) and DEVELOPER_NOTE.search(text)
    ]
    assert found == []


def test_the_walk_finds_the_texts_and_the_pattern_catches_the_notes_once_found():
    data = {
        "steps": [{"applies": {"en": "Every turn: read turns[].historical_weather.", "ja": "x"}}],
        "when": {"en": "cumulative (spec Q26 default)"},
        "notes": {"en": "Example (L1714): 10/18."},
        "shape": {"en": "As cp.setup-scenario-2."},
        "result": {"effect": "relocate", "en": "Relocated (see game.json leaders[].relocation)."},
        "dev_notes": {"when": "spec Q26 default"},
    }
    found = [text for _path, _language, text in texts(data) if DEVELOPER_NOTE.search(text)]
    assert found == [
        "Every turn: read turns[].historical_weather.",
        "cumulative (spec Q26 default)",
        "Example (L1714): 10/18.",
        "As cp.setup-scenario-2.",
        "Relocated (see game.json leaders[].relocation).",
    ]
    # Rule numbers, unit designations and ASL words are not notes.
    for fine in ("11.6161", "SSR CG-6.1", "9-1 leader", "8-3-8", "A25.22", "RB CG II", "L19"):
        assert not DEVELOPER_NOTE.search(fine)


@pytest.mark.parametrize("file", DATA_FILES, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_a_files_developer_notes_are_hidden_from_the_game_browser(file):
    data = json.loads(file.read_text(encoding="utf-8"))
    assert hidden_key("dev_notes")
    if "dev_notes" in data:
        assert next(iter(data["dev_notes"].values())) not in str(show(data))
