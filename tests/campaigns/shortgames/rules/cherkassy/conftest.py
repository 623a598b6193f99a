"""Cherkassy Pocket's data files, passed to the pure rules functions as plain dicts."""

import pytest

from campaigns.games.registry import get_module


@pytest.fixture(scope="module")
def files():
    return get_module("cherkassy_pocket").files


@pytest.fixture(scope="module")
def game(files):
    return files["game"]


@pytest.fixture(scope="module")
def tables(files):
    return files["tables"]


@pytest.fixture(scope="module")
def sequence(files):
    return files["turn_sequence"]


@pytest.fixture
def weather_table():
    """A weather table as the referee might enter it (the rules we have do not print one)."""
    return {
        "id": "cp.weather",
        "rule": "5.3",
        "roll": "dr",
        "rows": [
            {"min": 1, "max": 4, "result": {"weather": "snow"}},
            {"min": 5, "max": 6, "result": {"weather": "mud"}},
        ],
    }
