"""Slaughter at Ponyri's Japanese texts name time frames in Japanese ("7月7日午前"), as the
app's period labels do, never in English ("7 July AM")."""

import json
import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3] / "campaigns/games/slaughter_at_ponyri"
ENGLISH = re.compile(r"\b(?:\d+ July|AM|PM)\b")


def _japanese(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "ja" and isinstance(value, str):
                yield value
            else:
                yield from _japanese(value)
    elif isinstance(node, list):
        for value in node:
            yield from _japanese(value)


@pytest.mark.parametrize("name", sorted(path.name for path in DATA.glob("*.json")))
def test_japanese_names_time_frames_in_japanese(name):
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    english = [text for text in _japanese(data) if ENGLISH.search(text)]
    assert english == []


def test_the_pre_cg_marker_names_the_first_time_frame_in_japanese():
    steps = json.loads((DATA / "refit_steps.json").read_text(encoding="utf-8"))
    assert "7月7日午前" in steps["markers"]["*"]["ja"]
