"""Every history sentence, word for word, for each action and each branch of its sentence."""

import pytest

from campaigns.history import services as history
from campaigns.models import CampaignEvent
from tests.campaigns.shortgames.conftest import make_game

pytestmark = pytest.mark.django_db

# (game: "rf" Red Factories RB CG I or "cp" Cherkassy Pocket, action, data, sentence in English)
WORD_FOR_WORD = [
    (
        "rf",
        "campaign.created",
        {"name": "Into the Factory"},
        "Created the campaign “Into the Factory”.",
    ),
    (
        "rf",
        "member.joined",
        {"user": "soviet", "role": "player", "side": "soviet"},
        "soviet joined as Soviet player.",
    ),
    (
        "rf",
        "member.joined",
        {"user": "ref", "role": "referee", "side": ""},
        "ref joined as Referee.",
    ),
    (
        "rf",
        "member.role_changed",
        {
            "user": "obs",
            "role": "referee",
            "side": "",
            "previous_role": "observer",
            "previous_side": "",
        },
        "obs is now Referee (was Observer).",
    ),
    (
        "rf",
        "member.removed",
        {"user": "obs", "role": "player", "side": "martian"},
        "obs was removed (was martian player).",
    ),
    (
        "rf",
        "invitation.created",
        {"role": "player", "side": "german"},
        "Made an invitation link for German player.",
    ),
    (
        "rf",
        "invitation.revoked",
        {"role": "observer", "side": ""},
        "Revoked the invitation link for Observer.",
    ),
    (
        "rf",
        "ledger.added",
        {"side": "german", "index": 1, "ledger": "cpp", "kind": "replenishment", "amount": 16},
        "German CPP, 18 Oct 1942: +16 (Replenishment).",
    ),
    (
        "rf",
        "ledger.added",
        {"side": "soviet", "index": 0, "ledger": "fpp", "kind": "odd", "amount": -3},
        "Soviet FPP, 17 Oct 1942: -3 (odd).",
    ),
    (
        "rf",
        "cvp.added",
        {"side": "german", "index": 2, "what": "4-6-7", "cvp": 2},
        "German lost 4-6-7: 2 CVP (19 Oct 1942).",
    ),
    ("rf", "scenario.added", {"index": 1}, "Recorded the scenario of 18 Oct 1942."),
    ("rf", "scenario.updated", {"index": 1}, "Recorded the scenario of 18 Oct 1942."),
    ("rf", "day.updated", {"index": 3}, "Updated the calendar for 20 Oct 1942."),
    (
        "rf",
        "side_day.updated",
        {"index": 3, "side": "soviet"},
        "Updated the Soviet roster for 20 Oct 1942.",
    ),
    (
        "rf",
        "side_day.carried",
        {"index": 1, "side": "soviet", "elr": 3, "san": 4},
        "Soviet ELR 3 and SAN 4 carried into 18 Oct 1942.",
    ),
    (
        "rf",
        "side_day.carried",
        {"index": 1, "side": "german", "elr": 4},
        "German ELR 4 carried into 18 Oct 1942.",
    ),
    (
        "rf",
        "side_day.carried",
        {"index": 2, "side": "german", "san": 2, "san_was": 0},
        "German SAN 2 carried into 19 Oct 1942. SAN 0 rises to 2 (11.6122).",
    ),
    (
        "rf",
        "orbat.added",
        {"side": "german", "box": "active", "units": ["4-6-7", "9-1"]},
        "German OB: added 4-6-7, 9-1.",
    ),
    (
        "rf",
        "orbat.changed",
        {"side": "german", "box": "active", "unit": "4-6-7"},
        "German OB: changed 4-6-7.",
    ),
    ("rf", "orbat.removed", {"side": "soviet", "unit": "MMG"}, "Soviet OB: removed MMG."),
    ("rf", "change.undone", {"action_undone": "ledger.added"}, "Undid a change."),
    (
        "rf",
        "dice.rolled",
        {"index": 1, "kind": "DR", "step": "11.61", "faces": [3, 4], "final": 8},
        "Rolled DR for 11.61: 3 + 4 → 8.",
    ),
    (
        "rf",
        "dice.voided",
        {"step": "11.61", "reason": "wrong table"},
        "Voided a roll of 11.61: wrong table",
    ),
    (
        "rf",
        "refit.step_marked",
        {"index": 1, "side": "german", "rule": "11.61", "status": "done", "reason": ""},
        "German finished 11.61.",
    ),
    (
        "rf",
        "refit.step_marked",
        {"index": 1, "side": "german", "rule": "11.61", "status": "skipped", "reason": "no need"},
        "German skipped 11.61: no need",
    ),
    (
        "rf",
        "refit.step_unmarked",
        {"index": 1, "side": "soviet", "rule": "11.62"},
        "Soviet took back 11.62.",
    ),
    (
        "rf",
        "refit.finished",
        {"index": 1, "kind": "night", "next": "day"},
        "Finished the Refit Phase of 18 Oct 1942.",
    ),
    (
        "rf",
        "initiative.revealed",
        {"index": 1, "chits": {"german": "attack", "soviet": "idle"}, "result": "x"},
        "Initiative chits of 18 Oct 1942 revealed: German Attack, Soviet Idle.",
    ),
    ("rf", "initiative.revealed", {"index": 1}, "Initiative chits of 18 Oct 1942 revealed: ."),
    (
        "rf",
        "rg.purchased",
        {"side": "german", "index": 1, "rg": "A6#1", "cpp": 5, "override": ""},
        "German bought A6#1 for 5 CPP (18 Oct 1942).",
    ),
    (
        "rf",
        "rg.purchased",
        {"side": "german", "index": 1, "rg": "A6#1", "cpp": 5, "override": "Errata"},
        "German bought A6#1 for 5 CPP (18 Oct 1942), past a limit: Errata",
    ),
    (
        "rf",
        "rg.purchase_removed",
        {"side": "soviet", "index": 2, "rg": "I3#2"},
        "Soviet took back the purchase of I3#2 (19 Oct 1942).",
    ),
    (
        "rf",
        "rg.noted",
        {"side": "soviet", "index": 2, "rg": "I3#2"},
        "Soviet wrote down the hexes, observer or notes of I3#2.",
    ),
    (
        "rf",
        "rg.received",
        {"side": "soviet", "index": 2, "rg": "I3#2", "what": "5 · 3 × 4-4-7"},
        "Soviet I3#2: 5 · 3 × 4-4-7.",
    ),
    (
        "rf",
        "fortification.purchased",
        {"side": "german", "index": 1, "item": "foxhole", "detail": "3S", "quantity": 3, "fpp": 9},
        "German bought 3 × Foxhole (3S) for 9 FPP (18 Oct 1942).",
    ),
    (
        "rf",
        "fortification.purchased",
        {
            "side": "german",
            "index": 1,
            "item": "foxhole",
            "detail": "",
            "quantity": 1,
            "fpp": 2,
            "override": "agreed",
        },
        "German bought 1 × Foxhole for 2 FPP (18 Oct 1942), past a limit: agreed",
    ),
    (
        "rf",
        "fortification.purchased",
        {
            "side": "german",
            "index": 1,
            "item": "foxhole",
            "quantity": 1,
            "fpp": 2,
            "under_construction": True,
        },
        "German bought 1 × Foxhole Under Construction for 2 FPP (18 Oct 1942).",
    ),
    (
        "rf",
        "fortification.purchased",
        {"side": "german", "index": 1, "what": "Mines", "fpp": 2},
        "German bought Mines for 2 FPP (18 Oct 1942).",
    ),
    (
        "rf",
        "fortification.removed",
        {"side": "german", "index": 1, "item": "nothing", "quantity": 2},
        "German took back 2 × nothing (18 Oct 1942).",
    ),
    (
        "rf",
        "fortification.located",
        {"side": "german", "item": "foxhole", "location": "G5"},
        "German recorded where 1 × Foxhole is set up.",
    ),
    (
        "rf",
        "fortification.located",
        {"side": "german", "item": "foxhole", "lost": True},
        "German lost 1 × Foxhole: a hex no longer qualified at placement.",
    ),
    (
        "rf",
        "perimeter.control",
        {"index": 1, "side": "german", "hexes": ["G5", "G6"]},
        "Placed control markers in G5 G6.",
    ),
    (
        "rf",
        "perimeter.control",
        {"index": 1, "side": "", "hexes": ["G5"]},
        "Removed control markers from G5.",
    ),
    ("rf", "perimeter.water", {"hexes": ["A1"], "water": True}, "Marked water obstacles in A1."),
    ("rf", "perimeter.water", {"hexes": ["A1"], "water": False}, "Marked A1 as land."),
    (
        "rf",
        "perimeter.fires",
        {"index": 1, "hexes": ["B2"], "burning": True},
        "Changed the fires in B2.",
    ),
    (
        "rf",
        "perimeter.units",
        {"index": 1, "side": "soviet", "hexes": ["B2", "C3"]},
        "Soviet placed units in B2 C3 for the perimeter.",
    ),
    (
        "rf",
        "perimeter.units_removed",
        {"index": 1, "side": "soviet", "hexes": ["B2"]},
        "Soviet removed units from B2.",
    ),
    (
        "rf",
        "perimeter.declared",
        {"index": 1, "side": "soviet"},
        "Soviet declared its units for the perimeter.",
    ),
    (
        "rf",
        "perimeter.marker_added",
        {"index": 1, "side": "german", "marker": "G42 – H41 → J41"},
        "German placed the perimeter marker G42 – H41 → J41.",
    ),
    (
        "rf",
        "perimeter.marker_removed",
        {"index": 1, "side": "german", "marker": "G42 → J41"},
        "German removed the perimeter marker G42 → J41.",
    ),
    (
        "rf",
        "perimeter.proposed",
        {"index": 1, "side": "german", "count": 4},
        "German took a proposed perimeter (4 markers).",
    ),
    (
        "rf",
        "perimeter.pocket_added",
        {"index": 1, "side": "german", "hexes": ["K1"]},
        "German entered a non-ground pocket in K1.",
    ),
    (
        "rf",
        "perimeter.pocket_removed",
        {"index": 1, "side": "german", "hexes": ["K1"]},
        "German removed the non-ground pocket in K1.",
    ),
    (
        "rf",
        "perimeter.escape",
        {"index": 1, "side": "german", "units": ["A 4-6-7"], "final": 7, "outcome": "eliminated"},
        "German A 4-6-7 tried to escape: DR 7, eliminated.",
    ),
    (
        "rf",
        "perimeter.escape",
        {
            "index": 1,
            "side": "german",
            "units": ["A 4-6-7", "B"],
            "final": 4,
            "outcome": "abandoned",
        },
        "German A 4-6-7, B tried to escape: DR 4, abandoned.",
    ),
    (
        "rf",
        "perimeter.escape",
        {"index": 1, "side": "german", "units": [], "final": 3, "outcome": "escaped"},
        "German  tried to escape: DR 3, escaped.",
    ),
    (
        "rf",
        "perimeter.recorded",
        {"index": 1, "areas": {"german": 3}, "types": "AB"},
        "Recorded the perimeters of 18 Oct 1942 (isolated area types: AB).",
    ),
    (
        "rf",
        "perimeter.recorded",
        {"index": 1, "types": ""},
        "Recorded the perimeters of 18 Oct 1942 (isolated area types: —).",
    ),
    ("rf", "perimeter.unknown", {"index": 1}, "perimeter.unknown"),
    (
        "rf",
        "campaign.imported",
        {"name": "Old", "role": "player", "side": "german", "scope": "full"},
        "Imported “Old” from an export file, as German player.",
    ),
    ("rf", "nobody.knows", {"x": 1}, "nobody.knows"),
    (
        "cp",
        "shortgame.started",
        {"options": ["a", "b"]},
        "Started the game (optional rules: a, b).",
    ),
    ("cp", "shortgame.started", {"options": []}, "Started the game (optional rules: —)."),
    (
        "cp",
        "units.added",
        {"count": 2, "units": ["1/72", "2/72"]},
        "Added 2 units to the roster: 1/72, 2/72.",
    ),
    (
        "cp",
        "unit.changed",
        {"side": "german", "unit": "1/72", "fields": ["state", "hex"]},
        "German 1/72 changed (state, hex).",
    ),
    (
        "cp",
        "unit.changed",
        {
            "side": "german",
            "unit": "1/72",
            "reconstituted": True,
            "hex": "1010",
            "eliminated": ["a", "b"],
        },
        "1/72 was reconstituted in 1010 (12.1); 2 other units of the division were permanently "
        "eliminated.",
    ),
    (
        "cp",
        "unit.removed",
        {"side": "soviet", "unit": "5 Gds"},
        "Soviet 5 Gds removed from the roster.",
    ),
    (
        "cp",
        "turn.step_marked",
        {"index": 0, "side": "german", "rule": "weather", "status": "done", "reason": ""},
        "German finished weather.",
    ),
    (
        "cp",
        "turn.step_marked",
        {"index": 0, "side": "german", "rule": "weather", "status": "skipped", "reason": "rain"},
        "German skipped weather: rain",
    ),
    (
        "cp",
        "turn.step_unmarked",
        {"index": 0, "side": "soviet", "step": "supply"},
        "Soviet took back supply.",
    ),
    ("cp", "turn.advanced", {"index": 1}, "Advanced the turn marker from Turn 1: 26 Jan 1944."),
    (
        "cp",
        "points.added",
        {"side": "german", "index": 1, "kind": "replacement", "amount": 2},
        "German Replacement points, Turn 1: 26 Jan 1944: +2.",
    ),
    (
        "cp",
        "points.added",
        {"side": "german", "index": 1, "kind": "air", "amount": -1},
        "German Air points, Turn 1: 26 Jan 1944: -1.",
    ),
    ("cp", "control.changed", {"place": "Korsun", "side": "soviet"}, "Korsun is held by Soviet."),
    ("cp", "control.changed", {"place": "Korsun", "side": ""}, "Korsun is held by —."),
    ("cp", "referee_table.saved", {"slot": "weather"}, "The referee entered the table weather."),
    (
        "cp",
        "pocket.changed",
        {"formed": True, "count": 12},
        "The pocket closed with 12 German units in the Stemmermann Group.",
    ),
    ("cp", "pocket.changed", {"formed": False}, "The pocket is recorded as not closed."),
    ("cp", "victory.changed", {"condition": "v1", "met": True}, "Victory condition v1 met."),
    (
        "cp",
        "victory.changed",
        {"condition": "v1", "met": False},
        "Victory condition v1 taken back.",
    ),
    (
        "cp",
        "unit.arrived",
        {"side": "soviet", "unit": "5 Gds", "hex": "2020", "index": 2},
        "Soviet 5 Gds entered the map in 2020.",
    ),
    (
        "cp",
        "unit.arrived",
        {"side": "soviet", "unit": "5 Gds", "hex": "", "index": 2},
        "Soviet 5 Gds entered the map in —.",
    ),
]


@pytest.fixture
def games(campaign, people):
    return {"rf": campaign, "cp": make_game(people, "cherkassy_pocket", "scenario-1", "german")}


def test_every_sentence_reads_word_for_word(games):
    for game, action, data, sentence in WORD_FOR_WORD:
        event = CampaignEvent(campaign=games[game], action=action, data=data)
        assert (action, history.describe(event)) == (action, sentence)
