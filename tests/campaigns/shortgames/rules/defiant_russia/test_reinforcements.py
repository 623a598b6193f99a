"""Defiant Russia: the units entering on a turn (10.2)."""

from campaigns.shortgames.rules.defiant_russia.reinforcements import reinforcements_due


def test_rules_named_reinforcements(game):
    assert [r.unit_id for r in reinforcements_due(4, "soviet", (), game)] == ["zhukov"]
    assert [r.unit_id for r in reinforcements_due(6, "soviet", (), game)] == ["soviet_airborne"]
    assert reinforcements_due(4, "axis", (), game) == []


def test_early_invasion_reinforcements(game):
    assert [r.unit_id for r in reinforcements_due(4, "axis", ("early_invasion",), game)] == [
        "hungarian_mobile_corps"
    ]
    assert [r.unit_id for r in reinforcements_due(5, "axis", ("early_invasion",), game)] == [
        "italian_csir"
    ]


def test_roster_reinforcements(game):
    roster = [
        {"unit_id": "hungarian_mobile_corps", "side": "axis", "entry_turn": 3},
        {"unit_id": "4th_army", "side": "soviet", "entry_turn": 3},
        {"unit_id": "1st_panzer", "side": "axis", "entry_turn": 2},
    ]
    due = reinforcements_due(3, "axis", (), game, roster)
    assert [(r.unit_id, r.source) for r in due] == [("hungarian_mobile_corps", "roster")]
