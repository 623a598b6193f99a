"""Cherkassy Pocket: the reinforcements, the north edge and the 24th Panzer (9.0)."""

from campaigns.shortgames.rules.cherkassy.data import CpState
from campaigns.shortgames.rules.cherkassy.reinforcements import (
    north_edge_open,
    pz24_arrival,
    pz24_result,
    reinforcement_queue,
)
from campaigns.shortgames.rules.common import dice_table, lookup


def test_pz24(tables):
    assert pz24_arrival(9, 1, CpState()).applies
    assert not pz24_arrival(9, 2, CpState()).applies
    assert not pz24_arrival(8, 1, CpState()).applies
    table = dice_table(tables, "cp.pz24-arrival")
    for face in range(1, 7):
        assert pz24_result(face) == (lookup(table, face)["effect"] == "arrives")
    assert pz24_result(3) and not pz24_result(4)


def test_north_edge(game):
    assert not north_edge_open("german", 2, 1, CpState())[0]
    assert north_edge_open("german", 2, 2, CpState())[0]
    assert north_edge_open("german", 3, 1, CpState())[0]
    assert north_edge_open("german", 1, 1, CpState(encirclement_formed=True))[0]
    assert not north_edge_open("soviet", 5, 1, CpState(encirclement_formed=True))[0]
    assert north_edge_open("soviet", 5, 1, CpState(german_north_entered=True))[0]


def test_reinforcement_queue():
    roster = [
        {
            "unit_id": "a",
            "side": "german",
            "entry_turn": 3,
            "entry_edge": "E",
            "formation": "SS Wiking",
        },
        {
            "unit_id": "b",
            "side": "german",
            "entry_turn": 4,
            "entry_edge": "W",
            "formation": "16 PzD",
        },
        {
            "unit_id": "n",
            "side": "german",
            "entry_turn": 1,
            "entry_edge": "N",
            "formation": "72 ID",
        },
        {
            "unit_id": "pz",
            "side": "german",
            "entry_turn": 9,
            "entry_edge": "E",
            "formation": "24 PzD",
        },
        {"unit_id": "set-up", "side": "soviet", "entry_turn": None},
    ]
    queue = {r.unit_id: r for r in reinforcement_queue(3, 1, roster, CpState())}
    assert set(queue) == {"a", "n"}  # late is allowed, early never
    assert queue["a"].may_enter and queue["n"].may_enter
    queue = {r.unit_id: r for r in reinforcement_queue(9, 1, roster, CpState())}
    assert not queue["pz"].may_enter and "Roll" in queue["pz"].reason.en
    assert not {
        r.unit_id: r for r in reinforcement_queue(9, 1, roster, CpState(pz24_arrives=False))
    }["pz"].may_enter
    assert {r.unit_id: r for r in reinforcement_queue(9, 1, roster, CpState(pz24_arrives=True))}[
        "pz"
    ].may_enter
    early_n = {r.unit_id: r for r in reinforcement_queue(1, 2, roster, CpState())}
    assert not early_n["n"].may_enter
