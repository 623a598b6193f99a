"""The hexes over a short game's stacking limits, each read by its own game's rules, without a
database."""

import pytest

from campaigns.games.registry import get_module
from campaigns.shortgames.rules.stacking import Counter, by_hex, stacking_warnings


@pytest.fixture(scope="module")
def dr_game():
    return get_module("defiant_russia").files["game"]


@pytest.fixture(scope="module")
def cp_game():
    return get_module("cherkassy_pocket").files["game"]


def army(hex_, key=""):
    return Counter(hex_, "soviet", "infantry_army", nationality="soviet", key=key)


def test_counters_without_a_hex_are_in_no_stack():
    a, b, off = army("2020"), army("2020"), army("")
    assert by_hex([a, off, b]) == {"2020": [a, b]}


def test_defiant_russia_warns_per_hex_in_hex_order(dr_game):
    counters = [army("3030"), army("2020"), army("3030"), army("2020"), army("1010")]
    warnings = stacking_warnings("defiant_russia", counters, dr_game)
    assert [(w.hex, w.reason.rule) for w in warnings] == [("2020", "6.21"), ("3030", "6.21")]
    assert "Stalin" in warnings[0].reason.text.en


def test_defiant_russia_reads_stalin_by_his_key(dr_game):
    stalin = Counter("2020", "soviet", "leader", nationality="soviet", key="stalin")
    assert stacking_warnings("defiant_russia", [army("2020"), army("2020"), stalin], dr_game) == []


def test_cherkassy_counts_its_artillery_apart(cp_game):
    battalions = [Counter("2121", "german", "infantry", unit_id=str(n)) for n in range(3)]
    assert stacking_warnings("cherkassy_pocket", battalions, cp_game) == []
    guns = Counter("2121", "german", "motorized_artillery", unit_id="9")
    warnings = stacking_warnings("cherkassy_pocket", [*battalions, guns], cp_game)
    assert [(w.hex, w.reason.rule) for w in warnings] == [("2121", "8.4")]
    four = [*battalions, Counter("2121", "german", "infantry", unit_id="4")]
    assert [w.reason.rule for w in stacking_warnings("cherkassy_pocket", four, cp_game)] == ["8.1"]
