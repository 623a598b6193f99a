"""Slaughter at Ponyri dice tables and charts checked against the seed, with the worked examples."""

import json
import math
from pathlib import Path

import pytest

from campaigns.games.dice_tables import parse_table
from tests.campaigns.games.seeds import seed_lines

MODULE = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "slaughter_at_ponyri"
TABLES = json.loads((MODULE / "tables.json").read_text(encoding="utf-8"))
RG = json.loads((MODULE / "rg_charts.json").read_text(encoding="utf-8"))
LINES = seed_lines("slaughter_at_ponyri")

DICE = {t["id"]: t for t in TABLES["dice_tables"]}
CHARTS = {c["id"]: c for c in TABLES["charts"]}

EXPECTED_TABLES = {
    "sap.cpp-replenishment",
    "sap.infantry-company-strength",
    "sap.platoon-gun-strength",
    "sap.oba-german",
    "sap.oba-russian",
    "sap.sw-receipt-depleted",
    "sap.guards-airborne-extra-sw",
    "sap.company-leader-german",
    "sap.company-leader-russian",
    "sap.platoon-leader-german",
    "sap.platoon-leader-russian-eligibility",
    "sap.platoon-leader-russian",
    "sap.armor-leader",
    "sap.wounded-leader",
    "sap.mmc-battle-hardening",
    "sap.leader-battle-hardening-german",
    "sap.leader-battle-hardening-russian",
    "sap.san-adjustment",
    "sap.booby-trap-decay",
    "sap.stone-building",
    "sap.salvage",
    "sap.immobilization-repair",
    "sap.recall-wreck-repair",
    "sap.weapon-repair",
    "sap.captured-weapon",
    "sap.fortification-removal",
    "sap.escape",
    "sap.recon",
    "sap.sniper-selection",
    "sap.balance-russian-battle-hardening",
}


def lookup(table_id, final):
    return parse_table(DICE[table_id], table_id).lookup(final)


def test_file_header_and_ids():
    assert TABLES["version"] == "1"
    assert "004_012ff7493835fc3d" in TABLES["source"]
    assert set(DICE) == EXPECTED_TABLES
    assert set(CHARTS) == {
        "sap.sw-chart",
        "sap.fortification-purchase",
        "sap.continue-end",
        "sap.mg-retention",
    }
    assert len(DICE) + len(CHARTS) == len(TABLES["dice_tables"]) + len(TABLES["charts"])


@pytest.mark.parametrize("table_id", sorted(EXPECTED_TABLES))
def test_every_dice_table_parses_and_is_documented(table_id):
    table = DICE[table_id]
    parsed = parse_table(table, table_id)
    assert parsed.id == table_id
    assert table["name"]["en"] and table["name"]["ja"]
    assert isinstance(table["secret"], bool)
    first, last = table["lines"]
    assert 307 <= first <= last <= len(LINES) - 1
    assert table["drm_range_basis"]
    fixed = [m["value"] for m in table["modifiers"] if m["value"] is not None]
    if fixed and all(m["value"] is not None for m in table["modifiers"]):
        # the declared range lies within what the listed modifiers can add up to
        assert sum(v for v in fixed if v < 0) <= table["drm_range"][0]
        assert table["drm_range"][1] <= sum(v for v in fixed if v > 0)
    for m in table["modifiers"]:
        assert m["id"] and m["when"]["en"]
        if m["value"] is None:
            assert "formula" in m


def test_cpp_replenishment():
    assert [lookup("sap.cpp-replenishment", r)["cpp"] for r in (2, 3, 6, 7, 10, 11, 12)] == [
        19,
        18,
        17,
        16,
        15,
        14,
        14,
    ]
    assert lookup("sap.cpp-replenishment", -8)["cpp"] == 19
    assert LINES[1234].split("\t") == ["≤ 2", "+19"]
    assert LINES[1239].split("\t") == ["≥ 11", "+14"]
    assert "20CVP" in LINES[1243]
    assert DICE["sap.cpp-replenishment"]["modifiers"][0]["formula"]["each"] == 20
    assert DICE["sap.cpp-replenishment"]["secret"] and "秘密裏 DR" in LINES[1229]


def test_company_strength_table_and_the_11_6181_example():
    table = "sap.infantry-company-strength"
    assert lookup(table, 2)["strength"] == "reinforced" and "≤ 2\t増強戦力" in LINES[1411]
    assert lookup(table, 7)["strength"] == "full" and "3 ~ 7\t完全戦力" in LINES[1412]
    assert lookup(table, 9)["elr_replacement"] is True and "8 ~ 9\t軽消耗 *" in LINES[1413]
    assert lookup(table, 11)["strength"] == "medium_depleted" and "10 ~ 11" in LINES[1414]
    assert lookup(table, 15)["chart_entry"] == 5 and "≥ 12\t重消耗 *" in LINES[1415]
    drm = {m["id"]: m["value"] for m in DICE[table]["modifiers"]}
    assert drm == {"russian-guards-airborne": -1, "german-strong": -3, "german-weak": 3}
    assert LINES[1421].startswith("-1") and LINES[1422].startswith("-3")
    assert LINES[1423].startswith("+3")

    # The example (L1425): Russian 4 × I3 rolling DR 5, 7, 10, 12
    i3 = next(g for g in RG["sides"]["russian"]["groups"] if g["id"] == "I3")
    received = []
    for roll in (5, 7, 10, 12):
        res = lookup(table, roll)
        k = res["chart_entry"] - 1
        units = {}
        for comp in i3["components"]:
            name = comp["unit"]["en"].split()[0]
            elr = comp["elr_replaced"][k]
            if comp["counts"][k] - elr:
                units[name] = comp["counts"][k] - elr
            if elr:
                units["4-2-6"] = elr  # ELR replacement of a 4-4-7 (A19.13)
        received.append((res["strength"], units))
    assert received == [
        ("full", {"4-4-7": 9, "5-2-7": 3}),
        ("full", {"4-4-7": 9, "5-2-7": 3}),
        ("medium_depleted", {"4-4-7": 7, "5-2-7": 2}),
        ("heavy_depleted", {"4-4-7": 4, "4-2-6": 3, "5-2-7": 2}),
    ]
    example = DICE[table]["example"]
    assert example["rolls"] == [5, 7, 10, 12]
    assert [(r["strength"], r["units"]) for r in example["results"]] == received
    text = LINES[1425]
    assert "DR 5、7、10、そして、12" in text
    assert "4-4-7 × 9 と 5-2-7 分隊 × 3" in text
    assert "4-4-7 × 7 と 5-2-7 × 2" in text
    assert "4-4-7 × 4、4-2-6 × 3、そして、5-2-7 × 2" in text


def test_platoon_gun_strength():
    assert lookup("sap.platoon-gun-strength", 9)["strength"] == "full"
    assert lookup("sap.platoon-gun-strength", 10)["strength"] == "depleted"
    assert LINES[1432] == "≤ 9\t完全戦力" and LINES[1433] == "≥ 10\t減少"


def test_oba_tables():
    assert lookup("sap.oba-german", 4) == {
        "code": "P",
        "black": 9,
        "red": 3,
        "label": DICE["sap.oba-german"]["rows"][0]["result"]["label"],
    }
    assert lookup("sap.oba-german", 8)["code"] == "N"
    assert lookup("sap.oba-german", 9)["red"] == 4
    assert lookup("sap.oba-russian", 5)["black"] == 6
    assert lookup("sap.oba-russian", 9)["code"] == "N"
    assert lookup("sap.oba-russian", 10)["red"] == 3
    assert "≤ 4\t弾薬豊富 Plentiful (9B/3R)" in LINES[1439]
    assert "≤ 5\t弾薬豊富 Plentiful (6B/2R)" in LINES[1439]
    assert "5 ~ 8\t普通 Normal (8B/3R)" in LINES[1440] and "6 ~ 9" in LINES[1440]
    assert "≥ 9\t弾薬減少 Scarce (8B/4R)" in LINES[1441] and "(5B/3R)" in LINES[1441]
    assert DICE["sap.oba-german"]["result_adjustments"][0]["black"] == 1
    assert "+1 黒チット" in LINES[1443]


def test_sw_receipt_and_guards_extra():
    assert lookup("sap.sw-receipt-depleted", 4)["received"] is True
    assert lookup("sap.sw-receipt-depleted", 5)["received"] is False
    assert "dr4 以下" in LINES[1445] and "+1drm" in LINES[1445] and "+2drm" in LINES[1445]
    assert lookup("sap.guards-airborne-extra-sw", 3)["sw"] == "LMG"
    assert lookup("sap.guards-airborne-extra-sw", 4)["sw"] == "DC"
    assert "dr3 以下で追加の LMG" in LINES[1456] and "dr4 以上で DC" in LINES[1456]


def test_company_leader_tables():
    for n in range(1, 14):
        cols = LINES[1462 + n].split("\t")
        assert cols[0] == str(n)
        assert lookup("sap.company-leader-german", n)["leaders"] == cols[1].split("、")
        if n < 13:
            assert lookup("sap.company-leader-russian", n)["leaders"] == cols[2].split("、")
    assert cols[2] == "適用されない"
    assert lookup("sap.company-leader-russian", 13)["not_applicable"] is True
    assert DICE["sap.company-leader-russian"]["extra_leader"]["except_rgs"] == ["I3"]
    assert "ソ連狙撃兵中隊 (I3)" in LINES[1477] and "7-0" in LINES[1477]


def test_platoon_leader_tables():
    for i in range(9):
        cols = LINES[1488 + i].split("\t")
        row_g = DICE["sap.platoon-leader-german"]["rows"][i]
        row_r = DICE["sap.platoon-leader-russian"]["rows"][i]
        assert row_g["result"]["leader"] == cols[1]
        assert row_r["result"]["leader"] == (None if cols[2] == "-" else cols[2])
    assert lookup("sap.platoon-leader-german", -1)["leader"] == "10-3"
    assert lookup("sap.platoon-leader-russian", 12)["leader"] is None
    assert lookup("sap.platoon-leader-russian-eligibility", 4)["roll_on_table"] is True
    assert lookup("sap.platoon-leader-russian-eligibility", 5)["roll_on_table"] is False
    assert "dr4 以下" in LINES[1498]
    drm = {m["id"]: m["value"] for m in DICE["sap.platoon-leader-german"]["modifiers"]}
    assert drm == {"pioneer": -2, "depleted": 1}
    assert LINES[1502].startswith("-2") and LINES[1504].startswith("+1")


def test_armor_leader_table():
    expected = {2: "10-2", 3: "9-2", 4: "9-1", 5: "8-1", 6: None}
    for roll, leader in expected.items():
        assert lookup("sap.armor-leader", roll)["leader"] == leader
    assert lookup("sap.armor-leader", -1)["leader"] == "10-2"
    assert LINES[492] == "≤ 2\t10-2" and LINES[495] == "5\t8-1" and LINES[496] == "≥ 6\t—"
    drm = {m["id"]: m["value"] for m in DICE["sap.armor-leader"]["modifiers"]}
    assert drm == {"stug": -2, "german": -1, "dug-in": 1}
    assert "StuG IIIg" in LINES[500] and "ドイツ" in LINES[502] and "埋設" in LINES[504]


def test_battle_hardening_tables():
    mmc = {-5: 5, -1: 5, 0: 4, 1: 3, 3: 2, 4: 1, 5: 1, 6: 0, 12: 0}
    for roll, n in mmc.items():
        assert lookup("sap.mmc-battle-hardening", roll)["mmc"] == n
    assert LINES[1017] == "≤ - 1\t5" and LINES[1020] == "2 ~ 3\t2" and LINES[1022] == "≥ 6\t-"
    assert "30CVP" in LINES[1026]
    for i, line in enumerate(range(1035, 1042)):
        cols = LINES[line].split("\t")
        assert DICE["sap.leader-battle-hardening-german"]["rows"][i]["result"]["leader"] == cols[0]
        assert DICE["sap.leader-battle-hardening-russian"]["rows"][i]["result"]["leader"] == cols[0]
    assert lookup("sap.leader-battle-hardening-german", 7)["leader"] == "8-0"
    assert LINES[1039] == "8-0\t6 ~ 7\t6"
    assert lookup("sap.leader-battle-hardening-russian", 7)["leader"] == "7-0"
    assert lookup("sap.leader-battle-hardening-russian", 11)["leader"] is None
    assert LINES[1042] == "なし\t適用されない\t≥ 11"
    assert lookup("sap.leader-battle-hardening-german", 12)["leader"] == "6+1"


def test_small_rePh_dr_tables():
    assert lookup("sap.wounded-leader", 2)["eliminated"] is False
    assert lookup("sap.wounded-leader", 3)["eliminated"] is True
    assert "2 以下で負傷状態" in LINES[1008] and "3 以上ならば" in LINES[1008]
    assert "+1drm" in LINES[1008]
    assert lookup("sap.san-adjustment", 5)["san_change"] == -1
    assert lookup("sap.san-adjustment", 4)["san_change"] == 0
    assert "5 以上はその陣営の現在通用している SAN から 1 引く" in LINES[1058]
    assert lookup("sap.booby-trap-decay", 6)["level_change"] == -1
    assert lookup("sap.booby-trap-decay", 5)["level_change"] == 0
    assert "修正前 dr 6 はレベルを 1 段階減少" in LINES[1060]
    assert lookup("sap.stone-building", 4)["result"] == "gutted"
    assert lookup("sap.stone-building", 5)["result"] == "rubbled"
    assert LINES[983].startswith("≤ 4") and LINES[984].startswith("≥ 5") and "+ 2" in LINES[986]
    assert lookup("sap.captured-weapon", 3)["eliminated"] is True
    assert lookup("sap.captured-weapon", 2)["eliminated"] is False
    assert "3 以上の場合、除去される" in LINES[1192]


def test_afv_repair_tables():
    assert lookup("sap.salvage", 3)["salvaged"] is True and LINES[1120].startswith("≤ 3")
    assert lookup("sap.salvage", 4)["salvaged"] is False and LINES[1121].startswith("≥ 4")
    salvage = {m["id"]: m["value"] for m in DICE["sap.salvage"]["modifiers"]}
    assert salvage == {"far": -2, "near": 2, "german-count": 2, "russian-count": 2}
    assert LINES[1128].startswith("-2\t") and "8 ヘクス以上" in LINES[1128]
    assert "10 以上のドイツ" in LINES[1130] and "6 以上のソ連" in LINES[1131]
    assert DICE["sap.salvage"]["original_roll_effects"][0]["original"] == 6
    assert "修正前 dr 6" in LINES[1123]
    assert lookup("sap.immobilization-repair", 4)["mobile"] is True
    assert lookup("sap.immobilization-repair", 5)["mobile"] is False
    assert LINES[1142] == "≤ 4\t移動可能になる"
    assert lookup("sap.recall-wreck-repair", 2)["repaired"] is True
    assert lookup("sap.recall-wreck-repair", 3)["repaired"] is False
    assert LINES[1152] == "≤ 2\t修理された*" and LINES[1161].startswith("-1\tドイツ")
    assert lookup("sap.weapon-repair", 2)["repaired"] is True
    assert lookup("sap.weapon-repair", 3)["repaired"] is False
    weapon = {m["id"]: m["value"] for m in DICE["sap.weapon-repair"]["modifiers"]}
    assert weapon["vehicular"] == -2 and LINES[1178] == "-2\t車載の場合"
    assert weapon["russian-mg-art"] == -1 and LINES[1179] == "-1\tソ連 MG/ART"
    assert weapon["repair-number"] is None and LINES[1180].startswith("-X")


def test_fortification_removal():
    assert lookup("sap.fortification-removal", 3)["removed"] is True
    assert lookup("sap.fortification-removal", 4)["removed"] is False
    assert LINES[1215] == "≤ 3\t撤去された*" and LINES[1216] == "≥ 4 †\t影響なし"
    values = [m["value"] for m in DICE["sap.fortification-removal"]["modifiers"]]
    assert values == [2, 1, -1, -1]
    assert [LINES[n].split("\t")[0] for n in range(1224, 1228)] == ["+2", "+1", "-1", "-1"]


def test_escape_table_and_the_y43_example():
    assert lookup("sap.escape", 8)["infantry"]["escape"] is True
    row9 = lookup("sap.escape", 9)
    assert row9["infantry"]["replacement"] and row9["mobile_afv"]["en"] == "Escape"
    assert lookup("sap.escape", 11)["mobile_afv"]["en"] == "Abandoned"
    assert lookup("sap.escape", 12)["infantry"]["escape"] is False
    assert LINES[902].startswith("≤ 8\t離脱") and LINES[906] == "≥ 12\t除去\t除去： ⁴"
    # Example (L1084): a 5-4-8 rolls an original 9, +1 for the extra HS -> 10:
    # Casualty Reduction to a 2-3-8 HS, which escapes.
    extra_hs = next(m for m in DICE["sap.escape"]["modifiers"] if m["id"] == "extra-hs")
    final = 9 + extra_hs["formula"]["value"] * 1
    result = lookup("sap.escape", final)["infantry"]
    assert result["escape"] and result["casualty_reduction"] and not result["replacement"]
    assert "修正前 DR は 9 である、10 に修正されて" in LINES[1084]
    assert "損耗され 2-3-8 HS になる" in LINES[1084]
    assert "+ 1 同じ離脱 DR を使用する 1HS を越える" in LINES[923]


def test_recon_sniper_balance():
    assert lookup("sap.recon", 1)["locations"] == 1
    assert lookup("sap.recon", 11)["locations"] == 11
    recon = {m["id"]: m["value"] for m in DICE["sap.recon"]["modifiers"]}
    assert recon == {"two-cpp": 3, "russian": 1, "stealthy": 1}
    assert LINES[1577] == "+3 2CPP 使う" and LINES[1579] == "+1 ソ連軍"
    sniper = lookup("sap.sniper-selection", 4)
    assert sniper["sniper"] is None and sniper["unknown"] is True
    assert "dr を行い、どちらの狙撃兵攻撃なのかを決める" in LINES[443]
    assert lookup("sap.balance-russian-battle-hardening", 4)["mmc"] == 4
    assert "秘密裏の dr と同じ MMC 数" in LINES[403]


def test_secret_flags_follow_the_seed():
    secret = {tid for tid, t in DICE.items() if t["secret"]}
    assert secret == {
        "sap.cpp-replenishment",
        "sap.oba-german",
        "sap.oba-russian",
        "sap.sw-receipt-depleted",
        "sap.company-leader-german",
        "sap.company-leader-russian",
        "sap.platoon-leader-german",
        "sap.platoon-leader-russian-eligibility",
        "sap.platoon-leader-russian",
        "sap.armor-leader",
        "sap.mmc-battle-hardening",
        "sap.leader-battle-hardening-german",
        "sap.leader-battle-hardening-russian",
        "sap.balance-russian-battle-hardening",
    }
    assert "秘密裏" in LINES[1435] and "秘密裏" in LINES[487] and "秘密裏" in LINES[1030]


def test_sw_chart_against_the_seed():
    chart = CHARTS["sap.sw-chart"]
    header = LINES[1449].split("\t")
    assert header[2:] == chart["columns"]
    for row in chart["rows"]:
        cols = LINES[row["line"]].split("\t")
        assert cols[1] == row["group"]["ja"]
        printed = {
            name: cell.rstrip("†")
            for name, cell in zip(header[2:], cols[2:], strict=False)
            if cell.rstrip("†")
        }
        assert {k: str(v) for k, v in row["sw"].items()} == printed
        daggers = [name for name, cell in zip(header[2:], cols[2:], strict=False) if "†" in cell]
        assert row["dagger"] == daggers
        side_ids = {g["id"] for g in RG["sides"][row["side"]]["groups"]}
        assert set(row["rgs"]) <= side_ids
    assert len(chart["rows"]) == 5


def uc_cost(cost):
    return math.ceil(cost * 0.5)


def item_cost(chart, item_id, variant):
    item = next(i for i in chart["items"] if i["id"] == item_id)
    if variant is None:
        return item["cost"]
    if isinstance(item["cost"], dict) and variant in item["cost"]:
        return item["cost"][variant]
    return next(v["cost"] for v in item["variants"] if v["id"] == variant)


def test_fortification_chart_costs_and_footnotes():
    chart = CHARTS["sap.fortification-purchase"]
    assert chart["fpp_per_m1"] == {"german": 20, "russian": 30}
    for item in chart["items"]:
        line = LINES[item["lines"][0]]
        cell = line.split("\t")[1]
        if isinstance(item["cost"], int):
            assert cell.startswith(str(item["cost"])), item["id"]
        for mark in item["footnotes"]:
            assert mark in chart["footnotes"]
        assert item["under_construction_ok"] == ("P" in cell)
        assert item["front_line_ok"] == ("F" in line.split("\t")[0])
        assert item["isolated_ok"] == ("I" in line.split("\t")[0])
        assert ("russian" in item["sides"]) and (
            ("german" in item["sides"]) == (line_no(item) < 1526)
        )
    foxhole = next(i for i in chart["items"] if i["id"] == "foxhole")
    assert foxhole["cost"] == {"3S": 3, "2S": 2, "1S": 1} and "3/2/1" in LINES[1517]
    hip = next(i for i in chart["items"] if i["id"] == "hip")
    assert list(hip["cost"].values()) == [5, 3, 2, 1, 1] and "5/3/2/1/1" in LINES[1522]
    belt = next(i for i in chart["items"] if i["id"] == "hidden_mine_belt")
    assert belt["cost"]["ap_12"] == 2 * belt["cost"]["ap_6"] and "2 倍" in LINES[1542]
    fn = chart["footnotes"]
    assert fn["2"]["variant_costs"] == {"connected": 5, "replaces_3s_foxhole": 4}
    trench = next(i for i in chart["items"] if i["id"] == "trench")
    assert {v["id"]: v["cost"] for v in trench["variants"]} == fn["2"]["variant_costs"]
    assert "コストが 5" in LINES[1537] and "4 はマップ上の 3S" in LINES[1537]
    assert fn["4"]["hip_limit"]["fraction"] == 0.1 and "10% (切り上げ)" in LINES[1539]
    assert fn["8"]["period_multiplier"]["multiplier"] == 0.5 and "半減" in LINES[1543]
    assert fn["9"]["level_steps"] == ["C", "B", "A"]
    for key, note in fn.items():
        assert note["ja"][:10] in LINES[note["lines"][0]], key
    pillbox = next(i for i in chart["items"] if i["id"] == "pillbox")
    assert pillbox["cost_formula"]["multiplier"] == 1.5 and "× 1.5(切り上げ)" in LINES[1533]


def line_no(item):
    return item["lines"][0]


def test_under_construction_rules():
    uc = CHARTS["sap.fortification-purchase"]["under_construction"]
    assert uc["sides"] == ["russian"] and uc["eligible_footnote"] == "P"
    assert uc["cost"] == {"fraction": 0.5, "rounding": "FRU", "per_item": True}
    assert "50% (切り上げ)" in LINES[1553]
    assert uc["recorded_hexes"]["min_hexes_from_any_german_controlled_hex"] == 8
    assert "8 ヘクス以上" in LINES[1553]
    assert uc["placement"]["bought_in_daytime_reph"]["steps"] == ["11.6211", "11.6213"]
    assert uc["placement"]["bought_in_full_or_pre_cg_reph"]["steps"] == ["11.622"]
    assert "RePh 手順 11.622 で 8 July AM CG 時間枠の後に続く RePh" in LINES[1565]
    assert uc["at_placement"]["mine_belt_any_bad_hex_loses_whole_belt"] is True
    assert "地雷地帯全体が失われる" in LINES[1553]


def test_11_6191_example_is_reproduced_by_the_chart_costs():
    chart = CHARTS["sap.fortification-purchase"]
    example = chart["under_construction"]["example"]
    total = 0
    for p in example["purchases"]:
        item = next(i for i in chart["items"] if i["id"] == p["item"])
        assert item["under_construction_ok"]
        paid = uc_cost(item_cost(chart, p["item"], p["variant"]))
        assert paid == p["paid_each"], p
        total += paid * p["count"]
    assert total == example["total_paid"] == example["fpp_available"] == 30
    assert "30FPP があり" in LINES[1555]
    assert "1 つ目の塹壕は 4(7 × ½ [切り上げ])" in LINES[1557]
    assert "それぞれ 3(5 × ½ [切り上げ])" in LINES[1557]
    assert "それぞれ 5FPP のコストで (10 × ½)" in LINES[1559]
    assert "フレイム地雷を 3FPP (6 × ½)" in LINES[1559]
    assert "要塞化建物区域を 5FPP (10 × ½)" in LINES[1559]
    assert "それぞれ 1FPP (2 × ½)" in LINES[1559]


def test_continue_end_chart():
    chart = CHARTS["sap.continue-end"]
    assert chart["turns"] == {"min": 5, "max": 8, "first_choice_after_turn": 5}
    assert "5 ~ 8 ゲームターン" in LINES[409]
    penalties = chart["penalties_by_continue_count"]
    assert [(p["elr_change"], p["ammo_shortage"]) for p in penalties] == [
        (-1, False),
        (0, True),
        (-1, False),
    ]
    assert "ELR は 1 減らされる" in LINES[411] and "弾薬減少" in LINES[412]
    assert LINES[413].startswith("- 3 回目") and "ELR は 1 減らされる" in LINES[413]
    assert chart["turn_8"] == {"double_time": False, "esb": False, "line": 415}
    assert "ゲームターン 8" in LINES[415]


def test_mg_retention_example():
    chart = CHARTS["sap.mg-retention"]
    ex = chart["example"]
    base = math.ceil(ex["squad_equivalents"] / chart["per_squad_equivalents"])
    add = chart["additions_per_mg_platoon_rg"][ex["side"]]
    assert {"mmg": base, "hmg": base} == ex["base_allowed"]
    total = {k: base + ex["mg_platoon_rgs"] * add[k] for k in ("mmg", "hmg")}
    assert total == ex["total"] == {"mmg": 8, "hmg": 6}
    assert "分隊相当 37 個" in LINES[948] and "MMG × 4 と HMG × 4" in LINES[948]
    assert "MMG × 4 と HMG × 2" in LINES[948]
