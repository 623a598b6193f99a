"""Slaughter at Ponyri Refit Phase (11.6) steps and their markers checked against the seed."""

import json
import re
from pathlib import Path

from tests.campaigns.games.seeds import seed_lines

MODULE = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "slaughter_at_ponyri"
STEPS = json.loads((MODULE / "refit_steps.json").read_text(encoding="utf-8"))
TABLES = json.loads((MODULE / "tables.json").read_text(encoding="utf-8"))
LINES = seed_lines("slaughter_at_ponyri")

FLOW = re.compile(r"^- ((?:[†*] )*)(11\.6\d\d) (.+)$")
HEADING = re.compile(r"^((?:[†*](?: |(?=1)))*)(?:\*\*)?(11\.6\d\d)")


def flow_list():
    """The seed's 'RePh の流れ' list (L792-813): rule -> (markers, name, line)."""
    out = {}
    for n in range(790, 815):
        if m := FLOW.match(LINES[n]):
            out[m.group(2)] = (m.group(1).split(), m.group(3), n)
    return out


def test_header():
    assert STEPS["version"] == "3"  # 2: `applies` in English and Japanese; 3: mandatory rolls
    assert "004_012ff7493835fc3d" in STEPS["source"]


def test_all_22_steps_in_order():
    rules = [s["rule"] for s in STEPS["steps"]]
    assert rules == [f"11.6{n:02d}" for n in range(1, 23)]
    assert list(flow_list()) == rules
    assert "(11.601-11.622)" in LINES[788]


def test_markers_and_names_match_the_flow_list():
    flow = flow_list()
    for step in STEPS["steps"]:
        markers, name_ja, line = flow[step["rule"]]
        assert step["markers"] == markers, step["rule"]
        assert step["marker_lines"] == [line, line]
        assert step["name"]["ja"] == name_ja, step["rule"]
        assert step["name"]["en"]
    sample = {s["rule"]: s["markers"] for s in STEPS["steps"]}
    assert sample["11.601"] == ["†"] and LINES[792] == "- † 11.601 混戦の終結"
    assert sample["11.604"] == [] and LINES[795].startswith("- 11.604")
    assert sample["11.617"] == ["†", "*"] and LINES[808] == "- † * 11.617 増援グループを購入する"
    assert sample["11.620"] == ["*"] and LINES[811] == "- * 11.620 偵察"
    assert sample["11.622"] == ["†", "*"] and LINES[813].startswith("- † * 11.622")


def test_body_headings_and_lines():
    for step in STEPS["steps"]:
        first, last = step["lines"]
        assert first <= last
        heading = LINES[first]
        m = HEADING.match(heading)
        assert m and m.group(2) == step["rule"], (step["rule"], heading)
        assert m.group(1).split() == step["body_markers"], step["rule"]
    starts = [s["lines"][0] for s in STEPS["steps"]]
    assert starts == sorted(starts)


def test_runs_in_follows_the_markers():
    for step in STEPS["steps"]:
        runs = step["runs_in"]
        assert "full" in runs  # the full RePh runs every step 11.601-11.622
        assert ("daytime" in runs) == ("†" in step["markers"])
        assert ("pre_cg" in runs) == ("*" in step["markers"])
        assert step["applies"]
    daytime = [s["rule"] for s in STEPS["steps"] if "daytime" in s["runs_in"]]
    assert daytime == [
        "11.601", "11.602", "11.603", "11.608", "11.611", "11.612", "11.613",
        "11.616", "11.617", "11.618", "11.619", "11.622",
    ]  # fmt: skip
    pre_cg = [s["rule"] for s in STEPS["steps"] if "pre_cg" in s["runs_in"]]
    assert pre_cg == ["11.617", "11.618", "11.619", "11.620", "11.621", "11.622"]


def test_glossary_marker_typo_is_resolved_as_the_spec_reads_it():
    # The glossary (L337) says the Daytime steps carry '*', but 11.6 (L788) defines '*' as the
    # pre-7 July AM steps and '†' as the Daytime steps; L1565 confirms 11.621 (only '*') is not
    # run in the Daytime RePh.
    assert "“*”" in LINES[337] and "昼間" in LINES[337]
    assert "“*” があるモノは初回 7 July AM" in LINES[788]
    assert "“†” があるモノは “昼間” RePh" in LINES[788]
    assert "RePh 手順 11.621 が “昼間” RePh において実行されない" in LINES[1565]
    assert STEPS["markers"]["†"]["reph"] == "daytime" and STEPS["markers"]["*"]["reph"] == "pre_cg"
    s621 = next(s for s in STEPS["steps"] if s["rule"] == "11.621")
    assert "daytime" not in s621["runs_in"]
    kinds = STEPS["reph_kinds"]
    assert kinds["daytime"]["before_periods"] == ["CG-2", "CG-4", "CG-6"]
    assert kinds["pre_cg"]["before_periods"] == ["CG-1"]


def test_tables_exist_and_sample_daytime_exceptions():
    dice = {t["id"] for t in TABLES["dice_tables"]}
    charts = {c["id"] for c in TABLES["charts"]}
    for step in STEPS["steps"] + STEPS["outside_steps"]:
        for table_id in step["tables"]:
            assert table_id in dice, (step["rule"], table_id)
        for chart_id in step.get("charts", []):
            assert chart_id in charts
    by_rule = {s["rule"]: s for s in STEPS["steps"]}
    assert by_rule["11.616"]["tables"] == ["sap.cpp-replenishment"]
    assert "sap.escape" in by_rule["11.606"]["tables"]
    # 11.602 f is not removed in the Daytime RePh (L826)
    item_f = next(i for i in by_rule["11.602"]["items"] if i["item"] == "f")
    assert item_f["daytime"] is False and "“昼間” RePh において" in LINES[item_f["line"]]
    # 11.6131 e and f are not performed in the Daytime RePh (L1133)
    items = by_rule["11.613"]["substeps"][0]["items"]
    assert [i["item"] for i in items if i.get("daytime") is False] == ["e", "f"]
    assert LINES[1133] == "手順 e) と f) は “昼間” RePh において実行されない。"


def test_secret_and_order_flags():
    by_rule = {s["rule"]: s for s in STEPS["steps"]}
    secret = [r for r, s in by_rule.items() if s["secret"]]
    assert secret == ["11.611", "11.616", "11.617", "11.618", "11.619", "11.622"]
    assert "秘密裏 DR" in LINES[1012] and "秘密裏 DR" in LINES[1229]
    assert "秘密裏に振り分ける" in LINES[1248] and "秘密裏に記録" in LINES[1599]
    together = [r for r, s in by_rule.items() if not s["both_sides_together"]]
    assert together == ["11.621"]
    assert "最初に初期配置する陣営" in LINES[1587] and "ソ連軍が最初に公表" in LINES[1597]
    assert "同時に行われる" in LINES[788]


def test_substeps_are_ordered_and_named_from_the_seed():
    for step in STEPS["steps"]:
        rules = [sub["rule"] for sub in step["substeps"]]
        assert rules == sorted(rules), step["rule"]
        for sub in step["substeps"]:
            assert sub["rule"].startswith(step["rule"])
            assert step["lines"][0] <= sub["lines"][0] <= step["lines"][1], sub["rule"]
            name_line = LINES[sub.get("name_line", sub["lines"][0])]
            if "name_ja_printed" in sub:  # a katakana typo in the seed, corrected in "ja"
                assert sub["name_ja_printed"] in name_line
                assert sub["name"]["ja"].replace("ブ", "プ", 1) == sub["name_ja_printed"]
            elif not sub.get("untitled"):
                assert sub["name"]["ja"] in name_line, sub["rule"]
    counts = {s["rule"]: len(s["substeps"]) for s in STEPS["steps"]}
    assert counts["11.605"] == 9 and counts["11.613"] == 8 and counts["11.618"] == 5
