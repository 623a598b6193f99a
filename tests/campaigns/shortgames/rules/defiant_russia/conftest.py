"""Defiant Russia's data files, passed to the pure rules functions as plain dicts."""

import pytest

from campaigns.games.registry import get_module


@pytest.fixture(scope="module")
def files():
    return get_module("defiant_russia").files


@pytest.fixture(scope="module")
def game(files):
    return files["game"]


@pytest.fixture(scope="module")
def tables(files):
    return files["tables"]


@pytest.fixture(scope="module")
def sequence(files):
    return files["turn_sequence"]
