"""The referee's tables typed as grids shaped like the printed tables: every problem names its
cell, a grid with a problem is never read into the rules' data, and the JSON tables entered
before the grids still read."""

import pytest

from campaigns.games.dice_tables import parse_table
from campaigns.shortgames.rules.cherkassy import grids
from campaigns.shortgames.rules.cherkassy.air import fixed_credit
from campaigns.shortgames.rules.cherkassy.combat import crt_answers, crt_result, terrain_shifts

COLUMNS = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]


def crt(cell="0/1", **changed):
    """A CRT grid with every cell ``cell`` but 2:1 / 4 (the rules' 1/1), ``changed`` by
    "row_column" (1-based row, column index)."""
    rows = []
    for face in range(1, 7):
        cells = ["1/1" if (face, column) == (4, "2:1") else cell for column in COLUMNS]
        for key, value in changed.items():
            row, column = map(int, key[1:].split("_"))
            if row == face:
                cells[column] = value
        rows.append((str(face), cells))
    return grids.make_grid(COLUMNS, rows)


def texts(slot, grid, game):
    return [problem.text.en for problem in grids.problems(slot, grid, game)]


def test_a_crt_typed_as_printed_is_read_cell_by_cell(game):
    grid = crt("2/0")
    assert texts("cp.crt", grid, game) == []
    table = grids.usable("cp.crt", grid, game)
    assert table["2:1"]["4"] == {"attacker_steps": 1, "defender_steps": 1}
    assert table["7:1"]["6"] == {"attacker_steps": 2, "defender_steps": 0}
    referee = {"cp.crt": table}
    assert crt_result("1:4", 1, referee, game) == {"attacker_steps": 2, "defender_steps": 0}
    assert crt_answers("3:1", referee, game)


def test_a_cell_that_is_no_result_is_named_by_row_and_column(game):
    grid = crt(r3_2="X")
    assert texts("cp.crt", grid, game) == [
        "Row 3, column 1:2: 'X' is not a result (attacker/defender step losses such as 1/1, or 0)."
    ]
    assert grids.usable("cp.crt", grid, game) is None
    ja = grids.problems("cp.crt", grid, game)[0].text.ja
    assert ja.startswith("3行目・1:2列：「X」は戦闘結果ではありません")


def test_0_is_the_result_of_no_loss_and_an_empty_cell_is_refused(game):
    assert grids.crt_cell("0") == (0, 0)  # 11.11
    assert grids.crt_cell("0/0") == (0, 0)
    assert grids.crt_cell("AE") is None  # not a result our rules print
    assert texts("cp.crt", crt(r6_9=""), game) == ["Row 6, column 7:1: the cell is empty."]


def test_the_printed_example_must_agree(game):
    grid = crt(r4_4="0/1")
    assert texts("cp.crt", grid, game) == [
        "Row 4, column 2:1: the rules print 1/1 for roll 4 (11.9)."
    ]


def test_columns_run_from_1_4_to_7_1_one_per_odds(game):
    grid = grids.make_grid(
        [c for c in COLUMNS if c != "3:1"],
        [
            (label, [c for c, h in zip(cells, COLUMNS, strict=True) if h != "3:1"])
            for label, cells in crt().rows
        ],
    )
    assert "The columns must run from 1:4 to 7:1 in order, one per odds (11.8)." in texts(
        "cp.crt", grid, game
    )
    bad = grids.make_grid(["1:4", "x", *COLUMNS[2:]], crt().rows)
    assert "Column x: the heading is not odds (such as 1:2 or 3:1)." in texts("cp.crt", bad, game)


def test_die_rows_cover_1_to_6_once(game):
    rows = list(crt().rows)
    assert texts("cp.crt", grids.make_grid(COLUMNS, rows[:5]), game) == ["Die roll 6 has no row."]
    rows[5] = ("5", rows[5][1])
    assert "Row 6: die roll 5 is already on row 5." in texts(
        "cp.crt", grids.make_grid(COLUMNS, rows), game
    )
    rows[5] = ("7", rows[5][1])
    assert "Row 6: '7' is not a die roll (1–6, or a range such as 2-3)." in texts(
        "cp.crt", grids.make_grid(COLUMNS, rows), game
    )


def test_a_weather_table_reads_ranges_and_either_language(game):
    grid = grids.make_grid(["Weather"], [("1-4", ["Snow"]), ("5–6", ["泥濘"])])
    assert texts("cp.weather-table", grid, game) == []
    table = parse_table(grids.usable("cp.weather-table", grid, game), "cp.weather-table")
    assert [(row.min, row.max, row.result["weather"]) for row in table.rows] == [
        (1, 4, "snow"),
        (5, 6, "mud"),
    ]
    bad = grids.make_grid(["Weather"], [("1-4", ["Snow"]), ("5-6", ["rain"])])
    assert texts("cp.weather-table", bad, game) == [
        "Row 2, column Weather: 'rain' is not a weather (snow or mud)."
    ]


def test_the_track_reads_snow_mud_and_the_roll(game):
    grid = grids.make_grid(["Weather"], [("0", ["snow"]), ("1", ["snow/mud"]), ("2", ["Mud"])])
    assert grids.usable("cp.weather-track", grid, game) == [
        {"turn": 0, "condition": "snow"},
        {"turn": 1, "condition": "snow_or_mud_roll"},
        {"turn": 2, "condition": "mud"},
    ]
    bad = grids.make_grid(["Weather"], [("24", ["snow"])])
    assert texts("cp.weather-track", bad, game) == ["Row 1: '24' is not a turn (0–23)."]


def test_the_terrain_chart_reads_its_combat_column(game):
    grid = grids.make_grid(
        ["Movement (snow)", "Combat"],
        [("Woods", ["2", "L1"]), ("River hexside", ["all", "½"]), ("Clear", ["1", "—"])],
    )
    assert texts("cp.tec", grid, game) == []
    tec = grids.usable("cp.tec", grid, game)
    assert terrain_shifts({"cp.tec": tec}, game) == {"Woods": -1, "River hexside": 0, "Clear": 0}
    assert tec["River hexside"]["halves"] and tec["Woods"]["Movement (snow)"] == "2"
    bad = grids.make_grid(["Combat"], [("Woods", ["L"]), ("Hill", [""])])
    assert texts("cp.tec", bad, game) == [
        "Row 1, column Combat: 'L' is not a combat effect (L1 or R1: column shift; ½: attack "
        "halved; — or empty: none).",
        "Row 2, column Combat: the cell is empty (type — for no effect).",
    ]
    no_combat = grids.make_grid(["Movement"], [("Woods", ["2"])])
    assert texts("cp.tec", no_combat, game)[0].startswith("Head one column 'Combat'")


def test_blank_grids_carry_only_what_the_rules_print(game):
    blank = grids.blank("cp.crt", game)
    assert list(blank.columns) == COLUMNS and [label for label, _ in blank.rows] == list("123456")
    assert all(cell == "" for _, cells in blank.rows for cell in cells)
    assert grids.usable("cp.crt", blank, game) is None
    assert grids.usable("cp.tec", grids.blank("cp.tec", game), game) is None
    assert grids.blank("cp.weather-table", game, "ja").columns == ("天候",)


def test_rows_and_columns_are_added_and_removed(game):
    grid = grids.make_grid(["a", "b"], [("1", ["x", "y"]), ("2", ["z", "w"])])
    assert grids.edited(grid, "add-row").rows[-1] == ("", ("", ""))
    assert grids.edited(grid, "add-column").columns == ("a", "b", "")
    assert grids.edited(grid, "remove-column-0").rows == (("1", ("y",)), ("2", ("w",)))
    assert grids.edited(grid, "remove-row-1").rows == (("1", ("x", "y")),)
    assert grids.edited(grid, "remove-row-9") == grid
    full = grids.make_grid(["a"] * grids.MAX_COLUMNS, [])
    assert len(grids.edited(full, "add-column").columns) == grids.MAX_COLUMNS


def test_the_json_tables_entered_before_still_read(game):
    old_crt = {
        column: {str(f): {"attacker_steps": 0, "defender_steps": 1} for f in range(1, 7)}
        for column in COLUMNS
    }
    old_crt["2:1"]["4"] = {"attacker_steps": 1, "defender_steps": 1}
    grid = grids.from_legacy("cp.crt", old_crt)
    assert grids.usable("cp.crt", grid, game) == old_crt
    # The shape the page described: columns, then rows for die rolls 1-6.
    described = {"columns": COLUMNS, "rows": [["0/1"] * 10 for _ in range(6)]}
    described["rows"][3][4] = "1/1"
    assert grids.usable("cp.crt", grids.from_legacy("cp.crt", described), game)["1:4"]["6"] == {
        "attacker_steps": 0,
        "defender_steps": 1,
    }
    tec = grids.from_legacy("cp.tec", {"woods": {"combat": "L1"}, "hill": {"column_shift": -2}})
    assert terrain_shifts({"cp.tec": grids.usable("cp.tec", tec, game)}, game) == {
        "woods": -1,
        "hill": -2,
    }
    assert grids.from_legacy("cp.crt", "plain text") is None


def test_a_tables_file_round_trips(game):
    grid = crt()
    payload = grids.tables_file({"cp.crt": grid.data()})
    assert grids.read_tables_file(payload) == [("cp.crt", grid)]
    assert not isinstance(grids.read_tables_file({"format": "other"}), list)
    bad = {**payload, "tables": [{"slot": "cp.unknown", "data": grid.data()}]}
    assert "Table 1" in grids.read_tables_file(bad).en


@pytest.mark.parametrize(
    ("turn", "segment", "side", "scenario", "points"),
    [
        (0, 1, "soviet", "scenario-1", 3),
        (0, 2, "soviet", "scenario-1", 3),
        (1, 2, "soviet", "scenario-4", 6),
        (2, 1, "soviet", "scenario-4", None),
        (7, 1, "soviet", "scenario-2", None),
        (7, 2, "soviet", "scenario-2", None),
        (7, 1, "german", "scenario-2", 3),
        (16, 2, "german", "scenario-3", 3),
        (17, 1, "german", "scenario-3", None),
    ],
)
def test_fixed_air_credit(turn, segment, side, scenario, points):
    assert fixed_credit(turn, segment, side, scenario) == points
