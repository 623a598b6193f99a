"""Red Factories RG charts (11.619) checked against the rules seed (L1533-L1640)."""

import json
import re
from pathlib import Path

import pytest

from tests.campaigns.games.seeds import seed_lines

MODULE_DIR = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "red_factories"
RB_KEYS = ["rb-cg-1", "rb-cg-2", "rb-cg-3", "rb-cg-4"]
RO_KEYS = ["ro-cg-1", "ro-cg-2", "ro-cg-3"]
TYPES = {
    "infantry_company",
    "infantry_platoon",
    "afv_platoon",
    "gun",
    "oba",
    "air",
    "fortification",
    "other",
}
DASHES = {"-", "—", "–"}
# Soviet rows whose seed line repeats the RO Day Max (spec Q6): one extra numeric cell.
SOVIET_DUP_ROWS = {
    "I7",
    "I8",
    "O1",
    "O2",
    "O3",
    "O4",
    "O5",
    "G1",
    "G2",
    "G3",
    "G4",
    "M1",
    "M2",
    "M3",
}


@pytest.fixture(scope="module")
def lines():
    return seed_lines("red_factories")


@pytest.fixture(scope="module")
def charts():
    with open(MODULE_DIR / "rg_charts.json", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def module():
    with open(MODULE_DIR / "module.json", encoding="utf-8") as f:
        return json.load(f)


def groups(charts, side):
    return {g["id"]: g for g in charts["sides"][side]["groups"]}


def seed_cells(lines, line_no, side, rid):
    """Numeric cells of a seed chart row: (cost, rb_day, rb1..rb4, ro_day, ro1..ro3)."""
    cells = lines[line_no].split("\t")
    n = 11 if side == "soviet" and rid in SOVIET_DUP_ROWS else 10
    tail = cells[-n:]
    if n == 11:
        assert tail[7] == tail[6], f"{rid}: the extra cell is not a repeat of the RO Day Max"
        del tail[7]
    out = []
    for cell in tail:
        cell = cell.strip()
        out.append(None if cell in DASHES else int(re.match(r"\d+", cell).group()))
    return out


def seed_ids(lines, first, last):
    return [ln.split("\t")[0] for ln in lines[first : last + 1] if re.match(r"^[ASIOGM]\d\t", ln)]


def test_file_header(charts):
    # 2: elr_first_line_exempt on German A9 (11.617); Soviet A4's note n on its RO CG I cell only
    assert charts["version"] == "2"
    assert "003_17379023c41927ed" in charts["source"]
    assert set(charts["sides"]) == {"german", "soviet"}


def test_row_counts_and_order_match_seed(charts, lines):
    german_ids = seed_ids(lines, 1543, 1572)
    soviet_ids = seed_ids(lines, 1597, 1625)
    assert len(german_ids) == 27
    assert len(soviet_ids) == 26
    assert [g["id"] for g in charts["sides"]["german"]["groups"]] == german_ids
    assert [g["id"] for g in charts["sides"]["soviet"]["groups"]] == soviet_ids
    assert len(charts["sides"]["german"]["groups"]) == 27
    assert len(charts["sides"]["soviet"]["groups"]) == 26


def test_chart_titles_in_seed(charts, lines):
    assert charts["sides"]["german"]["name"]["ja"] in lines[1539]
    assert charts["sides"]["soviet"]["name"]["ja"] in lines[1595]


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_every_row_against_its_seed_line(charts, lines, module, side):
    cg_keys = {c["key"] for c in module["campaign_games"]}
    for g in charts["sides"][side]["groups"]:
        first, last = g["lines"]
        assert first == last
        line = lines[first]
        assert line.startswith(g["id"] + "\t"), g["id"]
        assert g["name"]["ja"] in line.split("\t")[1], g["id"]
        assert g["name"]["en"], g["id"]
        assert g["type"] in TYPES, g["id"]
        cost, rb_day, *rest = seed_cells(lines, first, side, g["id"])
        assert g["cpp_cost"] == cost, g["id"]
        assert g["period_max"] == {"RB": rb_day or 0, "RO": rest[4] or 0}, g["id"]
        printed = dict(zip(RB_KEYS + RO_KEYS, rest[0:4] + rest[5:8], strict=True))
        for key, value in printed.items():
            assert g["cg_max"][key] == (value if value is not None else 0), (g["id"], key)
            if value is None:
                assert f"cg_max.{key}" in g["printed_dash"], (g["id"], key)
        assert set(g["cg_max"]) <= cg_keys
        # RF CG I has no column of its own (README; campaign_games.json rg_limits).
        assert "rf-cg-1" not in g["cg_max"]
        if g["full"] is not None:
            assert f"{g['full']}/{g['depleted']}" in line, g["id"]


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_ids_unique_and_notes_defined(charts, side):
    ids = [g["id"] for g in charts["sides"][side]["groups"]]
    assert len(ids) == len(set(ids))
    defined = set(charts["sides"][side]["notes"])
    for g in charts["sides"][side]["groups"]:
        used = set(g["notes"]) | set(g["cost_notes"])
        for letters in g.get("cg_max_notes", {}).values():
            used |= set(letters)
        assert used <= defined, (g["id"], used - defined)


@pytest.mark.parametrize(
    "side,first,last",
    [("german", 1573, 1587), ("soviet", 1626, 1640)],
)
def test_note_texts_are_the_seed_notes(charts, lines, side, first, last):
    seed_letters = {}
    for n in range(first, last + 1):
        m = re.match(r"^- ([a-z]{1,2}) (.+)$", lines[n].strip())
        if m:
            seed_letters[m.group(1)] = (n, m.group(2).strip())
    notes = charts["sides"][side]["notes"]
    assert set(notes) == set(seed_letters)
    for letter, note in notes.items():
        n, text = seed_letters[letter]
        assert note["lines"] == [n, n]
        assert note["ja"] == text
        assert note["en"]


def test_sample_cells_german(charts, lines):
    g = groups(charts, "german")
    # S1: cost 1 with note b, RB CG III max 9, RO CG III max 0.
    assert g["S1"]["cpp_cost"] == 1 and g["S1"]["cost_notes"] == ["b"]
    assert "1 ^b" in lines[1545]
    assert g["S1"]["cg_max"]["rb-cg-3"] == 9 and g["S1"]["cg_max"]["ro-cg-3"] == 0
    assert lines[1545].endswith("\t9\t3\t1\t5\t3\t0")
    # A3 StuIG: note n on the RB CG II and III cells.
    assert g["A3"]["cg_max_notes"] == {"rb-cg-2": ["n"], "rb-cg-3": ["n"]}
    assert "2 ⁿ\t2 ⁿ" in lines[1548]
    # A7-A9 are RB only.
    for rid in ("A7", "A8", "A9"):
        assert g[rid]["period_max"]["RO"] == 0
        assert all(g[rid]["cg_max"][k] == 0 for k in RO_KEYS)
    assert lines[1552].endswith("\t-\t-\t-\t-")
    # I1 Rifle Coy 12/9 4-6-7, cost 7, RB CG III max 14.
    assert (g["I1"]["full"], g["I1"]["depleted"], g["I1"]["units"]) == (12, 9, "4-6-7")
    assert g["I1"]["cpp_cost"] == 7 and g["I1"]["cg_max"]["rb-cg-3"] == 14
    assert "12/9\t4-6-7" in lines[1555] and "\t14\t" in lines[1555]
    # I2 2nd Line Coy: RO only.
    assert g["I2"]["period_max"] == {"RB": 0, "RO": 2}
    assert g["I2"]["cg_max"]["ro-cg-3"] == 4 and g["I2"]["cg_max"]["rb-cg-1"] == 0
    # I4 Pioneer Coy: cost 14, 8/6, RB CG III 7 with note y; printed notes 'dgr'.
    assert g["I4"]["cpp_cost"] == 14 and (g["I4"]["full"], g["I4"]["depleted"]) == (8, 6)
    assert g["I4"]["cg_max"]["rb-cg-3"] == 7 and g["I4"]["cg_max_notes"] == {"rb-cg-3": ["y"]}
    assert "7 ^y" in lines[1558] and "^{dgr}" in lines[1558]
    assert g["I4"]["notes_printed"] == "dgr" and "e" in g["I4"]["notes"]
    # O1 Battalion Mortar RB CG III 12; M1 20 FPP RO CG III 25; M2 RB CG III 30.
    assert g["O1"]["cg_max"]["rb-cg-3"] == 12 and "\t12\t" in lines[1560]
    assert g["M1"]["cg_max"]["ro-cg-3"] == 25 and lines[1570].endswith("\t25")
    assert g["M2"]["cg_max"]["rb-cg-3"] == 30 and "\t30\t" in lines[1571]
    # G4 AA battery: RO only.
    assert g["G4"]["period_max"] == {"RB": 0, "RO": 1}
    assert g["G4"]["cg_max"]["ro-cg-1"] == 2


def test_sample_cells_soviet(charts, lines):
    s = groups(charts, "soviet")
    # A4 T-34 M43: RO CG I cell carries note n.
    assert s["A4"]["cg_max"]["ro-cg-1"] == 1 and s["A4"]["cg_max_notes"] == {"ro-cg-1": ["n"]}
    assert "1 ⁿ" in lines[1602]
    # A6 OT-34: RB CG IV only, 3/2 with z.
    assert s["A6"]["cg_max"] == {
        "rb-cg-1": 0,
        "rb-cg-2": 0,
        "rb-cg-3": 0,
        "rb-cg-4": 1,
        "ro-cg-1": 0,
        "ro-cg-2": 0,
        "ro-cg-3": 0,
    }
    assert "z" in s["A6"]["notes"] and "3/2 ^z" in lines[1604]
    # I2 Guards SMG 9/7 6-2-8 cost 7; RO CG III 12.
    assert (s["I2"]["full"], s["I2"]["depleted"], s["I2"]["cpp_cost"]) == (9, 7, 7)
    assert s["I2"]["cg_max"]["ro-cg-3"] == 12 and lines[1606].endswith("\t12")
    # I3 Rifle Coy: RB CG IV 6 with aa.
    assert s["I3"]["cg_max"]["rb-cg-4"] == 6 and s["I3"]["cg_max_notes"] == {"rb-cg-4": ["aa"]}
    assert "6 ^{aa}" in lines[1607]
    # I5 Militia: RB CG III 4 with f; RB CG II 0.
    assert s["I5"]["cg_max"]["rb-cg-3"] == 4 and s["I5"]["cg_max_notes"] == {"rb-cg-3": ["f"]}
    assert s["I5"]["cg_max"]["rb-cg-2"] == 0 and "4 ^f" in lines[1609]
    # I7 HW Pltn (duplicate RO Day Max cell dropped): RB CG IV 4 bb, RO CG I 3, RO CG III 2.
    assert s["I7"]["cg_max"]["rb-cg-4"] == 4 and s["I7"]["cg_max_notes"] == {"rb-cg-4": ["bb"]}
    assert (s["I7"]["cg_max"]["ro-cg-1"], s["I7"]["cg_max"]["ro-cg-3"]) == (3, 2)
    assert lines[1611].endswith("4 ^{bb}\t1\t1\t3\t3\t2")
    # M1 40 FPP: day max 4, RB CG III 90; M3 MOL RO CG III 16.
    assert s["M1"]["period_max"] == {"RB": 4, "RO": 4} and s["M1"]["cg_max"]["rb-cg-3"] == 90
    assert "40 FPP" in lines[1622] and "\t90\t" in lines[1622]
    assert s["M3"]["cpp_cost"] == 2 and s["M3"]["cg_max"]["ro-cg-3"] == 16
    # G4 Medium ART battery: RO only, RO CG I 0.
    assert s["G4"]["cg_max"]["ro-cg-1"] == 0 and s["G4"]["cg_max"]["ro-cg-3"] == 1
    assert s["G4"]["cg_max"]["rb-cg-1"] == 0 and "cg_max.rb-cg-1" in s["G4"]["printed_dash"]


def test_inferred_rows_are_marked(charts):
    s = groups(charts, "soviet")
    g = groups(charts, "german")
    assert "notes_inferred" in s["I7"] and s["I7"]["notes"] == ["a", "c", "d"]
    # Note n is printed on A4's RO CG I cell only (L1602): a cell note, not a row note.
    assert "notes_inferred" not in s["A4"] and "n" not in s["A4"]["notes"]
    assert "notes_inferred" in g["I4"]
    for side in ("german", "soviet"):
        for row in charts["sides"][side]["groups"]:
            if row.get("notes_printed") in ("d ⁰ rw", "d0rw", "d1r", "ad1"):
                assert "notes_read_as" in row, row["id"]


def test_note_restrictions_against_seed(charts, lines):
    gn = charts["sides"]["german"]["notes"]
    sn = charts["sides"]["soviet"]["notes"]
    assert gn["n"]["restrictions"] == [{"kind": "not_before", "date": "1942-11-05"}]
    assert "11月5日" in lines[1580]
    assert sn["n"]["restrictions"] == [{"kind": "not_before", "date": "1942-10-30"}]
    assert "10月30日" in lines[1633]
    assert sn["f"]["restrictions"][0] == {
        "kind": "only_between",
        "from": "1942-10-01",
        "to": "1942-10-31",
    }
    assert "10月にのみ" in lines[1630]
    caps = gn["y"]["restrictions"][0]["caps"]
    assert caps == [{"through": "1942-11-07", "max": 3}, {"from": "1942-11-08", "max": 7}]
    assert "11月7日までは最大3" in lines[1587] and "11月8日から最大7" in lines[1587]
    aa = sn["aa"]["restrictions"][0]
    assert aa["cumulative_max_before"] == {"date": "1942-10-26", "max": 0}
    assert (
        sum(aa["per_date_max"].values()) == 6 == groups(charts, "soviet")["I3"]["cg_max"]["rb-cg-4"]
    )
    assert "26日、27日にはそれぞれ1個" in lines[1639] and "28日、29日にはそれぞれ2個" in lines[1639]
    bb = sn["bb"]["restrictions"][0]
    assert bb["cumulative_max_before"] == {"date": "1942-10-28", "max": 2}
    total = bb["cumulative_max_before"]["max"] + sum(bb["per_date_max"].values())
    assert total == 4 == groups(charts, "soviet")["I7"]["cg_max"]["rb-cg-4"]
    assert "総計で2個" in lines[1640]
    b = {r["kind"]: r for r in gn["b"]["restrictions"]}
    assert b["alternative_cost"]["cpp"] == 2 and "use_on_purchase_day_or_lost" in b
    assert "2CPPで購入すれば" in lines[1574] and "-2drm" in lines[1574]
    p = gn["p"]["restrictions"][0]
    assert (p["cpp"], p["max_items"]) == (1, 2) and "CPPコストは1増える" in lines[1583]
    assert sn["p"]["restrictions"] == gn["p"]["restrictions"]
    assert sn["z"]["restrictions"][0] == {"kind": "depleted_removes", "unit": "T-70", "count": 1}
    assert "T-70を1両取り除く" in lines[1638]


def test_worked_examples(charts, lines):
    g = groups(charts, "german")
    s = groups(charts, "soviet")
    limits = charts["purchase_limits"]
    # 11.6194a: German A6 at 5 CPP, 8 (= 5 + 3) to set up on map on the purchase day.
    on_map = limits["on_map_option"]
    assert g["A6"]["cpp_cost"] == 5
    assert g["A6"]["cpp_cost"] + on_map["surcharge"]["german"] == 8
    assert "5CPP" in lines[1471] and "8PP(5+3=8)" in lines[1471]
    assert "+2 (ソ連軍)" in lines[1469] and "+3 (ドイツ軍)" in lines[1469]
    assert on_map["surcharge"] == {"german": 3, "soviet": 2}
    # 11.6194b: Soviet I2 7 CPP, 6 as Reserve.
    assert s["I2"]["cpp_cost"] == 7
    assert s["I2"]["cpp_cost"] + limits["reserve_option"]["cost_change"] == 6
    assert "通常の7CPPでなく6CPP" in lines[1489]
    # 11.6194c: Soviet A3 5 CPP, dug-in 3 (FRU of 2.5).
    dug = limits["dug_in_option"]
    assert s["A3"]["cpp_cost"] == 5
    assert -(-s["A3"]["cpp_cost"] * 1 // 2) == 3 and dug["rounding"] == "up"
    assert dug["cost_factor"] == 0.5 and "3CPP(5 × ½ = 2 ½(FRU)=3)" in lines[1495]
    # 11.6195: 2 companies, modified by the Historical DRM with the sign reversed.
    cap = limits["infantry_companies_per_day"]
    for ex in cap["example"]:
        assert cap["base"] + cap["historical_drm_factor"] * ex["historical_drm"] == ex["max"]
    assert "最大3個歩兵中隊" in lines[1499] and "(-1史的DRM)" in lines[1499]
    assert (
        "2個中隊(±0史的DRM)" in lines[1499] and "1個中隊しか購入できない(+1史的DRM)" in lines[1499]
    )
    # 11.6196: German Medium Artillery at most 7 in RB CG III.
    assert g["O2"]["cg_max"]["rb-cg-3"] == 7 and "合計7つまで" in lines[1503]
    # 11.6197: German Rifle Coy is I1; 12 units at Full strength.
    assert g["I1"]["name"]["ja"] == "ライフル中隊" and g["I1"]["full"] == 12
    assert "“I1”" in lines[1509] and "“12”" in lines[1519]
