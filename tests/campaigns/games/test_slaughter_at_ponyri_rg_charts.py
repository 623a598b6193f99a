"""Slaughter at Ponyri RG charts (11.617) checked against the seed's two charts."""

import json
import re
from pathlib import Path

from tests.campaigns.games.seeds import seed_lines

MODULE = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "slaughter_at_ponyri"
CHARTS = json.loads((MODULE / "rg_charts.json").read_text(encoding="utf-8"))
MODULE_JSON = json.loads((MODULE / "module.json").read_text(encoding="utf-8"))
LINES = seed_lines("slaughter_at_ponyri")

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
CHART_RANGES = {"german": (1287, 1305), "russian": (1337, 1357)}
ROW = re.compile(r"^([IGVOM]\d)\t")


def seed_rows(side):
    first, last = CHART_RANGES[side]
    return {
        m.group(1): (n, LINES[n].split("\t"))
        for n in range(first, last)
        if (m := ROW.match(LINES[n]))
    }


def groups(side):
    return CHARTS["sides"][side]["groups"]


def test_file_header():
    assert CHARTS["version"] == "1"
    assert "004_012ff7493835fc3d" in CHARTS["source"]
    assert set(CHARTS["sides"]) == {s["key"] for s in MODULE_JSON["sides"]}


def test_row_counts_match_the_seed():
    assert len(seed_rows("german")) == 17
    assert len(seed_rows("russian")) == 19
    assert len(groups("german")) == 17
    assert len(groups("russian")) == 19
    for side in CHARTS["sides"]:
        assert [g["id"] for g in groups(side)] == list(seed_rows(side))


def test_every_row_cost_and_maxima_against_its_seed_line():
    cg_keys = {cg["key"] for cg in MODULE_JSON["campaign_games"]}
    for side in CHARTS["sides"]:
        rows = seed_rows(side)
        for g in groups(side):
            n, cols = rows[g["id"]]
            assert g["lines"] == [n, n], g["id"]
            cost, tf_max, cg_max = cols[-3], cols[-2], cols[-1]
            assert g["cpp_cost"] == int(cost), g["id"]
            assert g["period_max"] == {"time_frame": int(tf_max.split()[0])}, g["id"]
            assert set(g["cg_max"]) <= cg_keys
            assert g["cg_max"]["timetable-disrupted"] == int(cg_max), g["id"]
            assert g["type"] in TYPES
            assert g["rg_class"] == g["id"][0]
            assert g["name"]["ja"] in cols[1], g["id"]
            assert g["name"].get("en")


def test_sampled_cells():
    # German I2 Strong Infantry Company: 9 CPP, 2 per time frame, 4 per CG (L1289)
    g_i2 = next(g for g in groups("german") if g["id"] == "I2")
    assert g_i2["strengths"] == [15, 12, 12, 9, 9]
    assert "4-6-7 × 15/12/12*/9/9*\t9\t2\t4" in LINES[1289]
    assert g_i2["name_printed"] == "Storong Infantry Company"
    # German O5 Offboard Observer: 12 per CG (L1302)
    g_o5 = next(g for g in groups("german") if g["id"] == "O5")
    assert g_o5["cg_max"]["timetable-disrupted"] == 12
    assert LINES[1302].endswith("\t1\t2\t12")
    # Russian M1: 30 FPP, time-frame max 3 (5 in 7 July AM, note h)
    r_m1 = next(g for g in groups("russian") if g["id"] == "M1")
    assert r_m1["fpp"] == 30 and "30FPP" in LINES[1355]
    assert r_m1["period_max_notes"] == ["h"] and "3 ^h" in LINES[1355]
    assert r_m1["period_max_overrides"] == {"CG-1": 5}
    assert "7 July AM で 5" in LINES[1372]
    g_m1 = next(g for g in groups("german") if g["id"] == "M1")
    assert g_m1["fpp"] == 20 and "20FPP" in LINES[1303]
    # Russian G5 AA Section: 7 CPP, 1, 2 (L1346)
    r_g5 = next(g for g in groups("russian") if g["id"] == "G5")
    assert (r_g5["cpp_cost"], r_g5["cg_max"]["timetable-disrupted"]) == (7, 2)
    assert "85mm ZP obr.39 × 3/2\t7\t1\t2" in LINES[1346]


def printed_counts(counts, elr):
    return "/".join(f"{c}*" if e else str(c) for c, e in zip(counts, elr, strict=True))


def test_strength_lists_reproduce_the_printed_unit_column():
    for side in CHARTS["sides"]:
        rows = seed_rows(side)
        for g in groups(side):
            _, cols = rows[g["id"]]
            printed = g["units"] if "units_printed" in g else cols[2]
            if g["strengths"] is not None:
                assert len(g["strengths"]) == len(g["strength_levels"]), g["id"]
            for comp in g["components"]:
                assert len(comp["counts"]) == len(g["strength_levels"]), g["id"]
                if comp.get("from_note"):
                    assert comp["from_note"] in g["notes"]
                    continue
                elr = comp.get("elr_replaced", [0] * len(comp["counts"]))
                assert f"× {printed_counts(comp['counts'], elr)}" in printed, (g["id"], comp)
    # the Russian I2 row prints '12*9' without a slash (L1339)
    r_i2 = next(g for g in groups("russian") if g["id"] == "I2")
    assert r_i2["units_printed"] in LINES[1339]
    assert r_i2["strengths"] == [15, 12, 12, 9, 9]


def test_company_rows_have_five_levels_and_platoons_full_depleted():
    for side in CHARTS["sides"]:
        for g in groups(side):
            if g["type"] == "infantry_company":
                assert g["strength_levels"] == CHARTS["strength_levels"]["company"]
                assert g["full"] == g["strengths"][1]
                assert "c" in g["notes"]
            if g["strength_levels"] == ["full", "depleted"]:
                assert [g["full"], g["depleted"]] == g["strengths"]
                assert "d" in g["notes"], g["id"]


def superscripts(cell):
    m = re.search(r"\^\{([^}]*)\}|\^([a-z])", cell)
    if not m:
        return []
    return [x.strip() for x in (m.group(1) or m.group(2)).split(",")]


def test_note_letters_as_printed_or_documented_as_garbled():
    for side in CHARTS["sides"]:
        rows = seed_rows(side)
        for g in groups(side):
            _, cols = rows[g["id"]]
            printed = superscripts(cols[1])
            if "notes_printed" in g:
                assert side == "russian"
                assert g["notes_printed"] == printed, g["id"]
                assert g["notes_inferred"]
                assert g["notes"] != printed
            else:
                assert g["notes"] == printed, g["id"]
    garbled = [g["id"] for g in groups("russian") if "notes_printed" in g]
    assert garbled == ["I1", "I3", "G1", "G5", "V2", "V3", "O1", "O3", "O5"]


def test_every_note_defined_with_seed_text():
    for side, chart in CHARTS["sides"].items():
        notes = chart["notes"]
        for g in chart["groups"]:
            for letter in g["notes"] + g.get("period_max_notes", []) + g["cost_notes"]:
                assert letter in notes, (side, g["id"], letter)
        for letter, note in notes.items():
            assert note["en"] and note["ja"]
            line = note["lines"][0]
            assert note["ja"][:12] in LINES[line], (side, letter)
            assert LINES[line].lstrip("- ").startswith(letter), (side, letter)
    assert set(CHARTS["sides"]["german"]["notes"]) == set("abcdelopqrs")
    assert set(CHARTS["sides"]["russian"]["notes"]) == set("abcdefghklopqr")


def test_structured_note_restrictions():
    g_notes = CHARTS["sides"]["german"]["notes"]
    r_notes = CHARTS["sides"]["russian"]["notes"]
    assert g_notes["c"]["restrictions"][0]["drm_by_rg"] == {"I2": -3, "I4": 3}
    assert "- 3DRM" in LINES[1308] and "+3DRM" in LINES[1308]
    assert r_notes["c"]["restrictions"][0]["drm_by_rg"] == {"I2": -1}
    assert "- 1DRM" in LINES[1362]
    assert r_notes["g"]["restrictions"][1] == {"kind": "earliest_purchase", "period": "CG-3"}
    assert "8 July AM 以降" in LINES[1370]
    assert r_notes["p"]["restrictions"][0]["max_per_module"] == 2
    assert "2 個を越えて" in LINES[1380]
    periods = [p["key"] for p in MODULE_JSON["campaign_games"][0]["periods"]]
    assert r_notes["h"]["restrictions"][0]["period"] == periods[0]


def test_purchase_limits():
    german = CHARTS["sides"]["german"]["purchase_limits"]
    russian = CHARTS["sides"]["russian"]["purchase_limits"]
    # 11.6174a: +1 CPP (Russian) / +2 CPP (German), Russian I4 free (L1260)
    assert russian["on_map_surcharge"]["cpp"] == 1 and german["on_map_surcharge"]["cpp"] == 2
    assert "(ソ連なら) 1 を、又は (ドイツなら) 2 を" in LINES[1260]
    assert russian["on_map_surcharge"]["exempt_rgs"] == ["I4"] and "(I4)" in LINES[1260]
    # 11.6174b: Reserve -1 CPP, up to 5 dummies (2 platoon, 0 MG platoon), 6 hexes (L1262)
    reserve = german["reserve_discount"]
    assert reserve["cpp"] == -1 and "1 少なく" in LINES[1262]
    assert reserve["dummy_cloaking_counters_max"] == {"company": 5, "platoon": 2, "mg_platoon": 0}
    assert "5 つまで" in LINES[1262] and "小隊 RG に対し 2 つ" in LINES[1262]
    assert reserve["min_hexes_from_enemy_front_line"] == 6 and "6 ヘクス以上" in LINES[1262]
    # 11.6175: 2 companies per time frame, 3 platoons = 1 company (L1322)
    cap = russian["company_cap_per_time_frame"]
    assert (cap["max_company_rgs"], cap["platoons_per_company"]) == (2, 3)
    assert "2 個の歩兵中隊 RG まで" in LINES[1322] and "3 個 (切り捨て)" in LINES[1322]
    for side, limits in (("german", german), ("russian", russian)):
        ids = {g["id"] for g in groups(side)}
        assert set(limits["company_cap_per_time_frame"]["company_rgs"]) <= ids
        assert set(limits["company_cap_per_time_frame"]["platoon_rgs"]) <= ids
    # CG5: at most 2 OBA modules per time frame (L437)
    assert german["oba_module_cap"]["max_modules_per_time_frame"] == 2
    assert "上限 2 個まで" in LINES[437]
    # CG-1.2 / CG-1.4 (L634, L638)
    assert russian["period_rules"]["CG-1"]["period_max_overrides"] == {"M1": 5}
    assert german["period_rules"]["CG-1"]["forbidden_rg_classes"] == ["I", "V"]
    assert "“I”、又は“V”-タイプRGを購入してはならない" in LINES[638]
    assert german["period_rules"]["CG-1"]["on_map_purchase_allowed"] is False


def test_mg_platoon_retention_bonus_matches_11_60721():
    g_i5 = next(g for g in groups("german") if g["id"] == "I5")
    r_i4 = next(g for g in groups("russian") if g["id"] == "I4")
    assert g_i5["mg_retention_bonus"] == {"mmg": 2, "hmg": 2}
    assert r_i4["mg_retention_bonus"] == {"mmg": 2, "hmg": 1}
    assert "HMG × 2, MMG × 2" in LINES[1292]
    assert ".50-cal HMG × 1, HMG × 1, MMG × 2" in LINES[1341]
