"""Every step's "what to do at the table" text (`applies`) in English and Japanese.

The data files must carry both languages (docs/gamedata.md), and the schema refuses a step file
whose `applies` is a plain string or lacks one language, naming the field.
"""

import copy
import re

import pytest

from campaigns.games.registry import GAMES_DIR, GameDataError, load_module_file
from tests.campaigns.games.seeds import load_data

STEP_FILES = {
    "red_factories": "refit_steps.json",
    "slaughter_at_ponyri": "refit_steps.json",
    "defiant_russia": "turn_sequence.json",
    "cherkassy_pocket": "turn_sequence.json",
}
# The rules' abbreviations stay as printed in the Japanese text.
ABBREVIATION = re.compile(
    r"(?<![A-Za-z])(CPP|FPP|ELR|SAN|RG|CVP|MMC|SMC|AFV|DRM|DR|dr)(?![a-rt-zA-Z])"
)
RULE_NUMBER = re.compile(r"\d+\.\d+")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def texts(module: str) -> list[tuple[str, object]]:
    """(where, applies) for every step and sub-step of a module's step file."""
    found = []
    for step in load_data(module, STEP_FILES[module])["steps"]:
        label = f"{module} {step.get('id', step['rule'])}"
        found.append((label, step.get("applies")))
        for sub in step.get("substeps", []):
            found.append((f"{label} > {sub['rule']}", sub.get("applies")))
    return found


ALL = [(where, applies) for module in STEP_FILES for where, applies in texts(module)]


def test_the_walker_games_have_a_text_for_every_step_and_sub_step():
    rf = texts("red_factories")
    sap = texts("slaughter_at_ponyri")
    # RF lists sub-steps flat (level: sub_step), SaP nests them under their step.
    assert len(rf) == 93
    assert len(sap) == 22 + 65
    for where, applies in rf + sap:
        assert isinstance(applies, dict), where
        assert applies["en"].strip() and applies["ja"].strip(), where


@pytest.mark.parametrize(("where", "applies"), ALL, ids=[where for where, _ in ALL])
def test_each_text_is_japanese_and_keeps_rule_numbers_and_abbreviations(where, applies):
    en, ja = applies["en"], applies["ja"]
    assert JAPANESE.search(ja) and ja != en
    for number in RULE_NUMBER.findall(en):
        assert number in ja, number
    for abbreviation in set(ABBREVIATION.findall(en)):
        assert abbreviation in ABBREVIATION.findall(ja), abbreviation


def test_the_english_texts_are_unchanged_where_they_were_right():
    rf = dict(texts("red_factories"))
    assert rf["red_factories 11.609"]["en"].startswith("Only if a Blaze or Flame counter")
    assert rf["red_factories 11.6122"]["ja"] == (
        "SANが4以上の陣営だけdrを行う。SAN 0の陣営は自動的に2になる。"
    )
    sap = dict(texts("slaughter_at_ponyri"))
    assert sap["slaughter_at_ponyri 11.604"]["en"] == (
        "Only in the full RePh between CG days (after 7 July PM and 8 July PM)."
    )


def test_sap_fire_spread_only_flips_flames_as_its_seed_says():
    # RF 11.6096 also sets the adjacent hexes alight; SaP's (L990) only flips Flame to Blaze.
    sap = dict(texts("slaughter_at_ponyri"))
    spread = sap["slaughter_at_ponyri 11.609 > 11.6096"]
    assert "adjacent" not in spread["en"] and "隣接" not in spread["ja"]
    rf = dict(texts("red_factories"))
    assert "adjacent" in rf["red_factories 11.6096"]["en"]


# --- the schema --------------------------------------------------------------------------------


def refusal(module: str, change) -> GameDataError:
    """The error for a step file changed by ``change``, checked as `gamedata validate` does."""
    stem = STEP_FILES[module].removesuffix(".json")
    data = copy.deepcopy(load_data(module, STEP_FILES[module]))
    change(data)
    with pytest.raises(GameDataError) as error:
        load_module_file(GAMES_DIR / module / "module.json", overrides={stem: data})
    return error.value


def test_the_shipped_step_files_pass_the_schema():
    for module, name in STEP_FILES.items():
        data = load_data(module, name)
        stem = name.removesuffix(".json")
        assert load_module_file(GAMES_DIR / module / "module.json", overrides={stem: data})


def test_a_plain_string_is_refused_with_the_field_named():
    def plain(data):
        data["steps"][3]["applies"] = data["steps"][3]["applies"]["en"]

    error = refusal("red_factories", plain)
    assert error.path == "red_factories/refit_steps.json: steps[3].applies"
    assert 'needs English and Japanese text: {"en": "...", "ja": "..."}' in str(error)


@pytest.mark.parametrize(
    "change",
    [
        lambda applies: applies.pop("ja"),
        lambda applies: applies.update(ja="  "),
        lambda applies: applies.update(ja=None),
        lambda applies: applies.pop("en"),
    ],
    ids=["missing ja", "blank ja", "ja not text", "missing en"],
)
def test_a_text_without_both_languages_is_refused(change):
    error = refusal("red_factories", lambda data: change(data["steps"][0]["applies"]))
    assert error.path == "red_factories/refit_steps.json: steps[0].applies"


def test_a_nested_sub_step_text_is_checked_too():
    def english_only(data):
        sub = data["steps"][0]["substeps"][0]
        sub["applies"] = sub["applies"]["en"]

    error = refusal("slaughter_at_ponyri", english_only)
    assert error.path == "slaughter_at_ponyri/refit_steps.json: steps[0].substeps[0].applies"


def test_the_short_games_turn_sequences_are_checked_the_same_way():
    error = refusal("defiant_russia", lambda data: data["steps"][5]["applies"].pop("ja"))
    assert error.path == "defiant_russia/turn_sequence.json: steps[5].applies"


def test_a_step_without_the_text_is_still_valid():
    # `applies` is optional; when a step has one it must be in both languages.
    data = copy.deepcopy(load_data("cherkassy_pocket", "turn_sequence.json"))
    del data["steps"][0]["applies"]
    module = load_module_file(
        GAMES_DIR / "cherkassy_pocket" / "module.json", overrides={"turn_sequence": data}
    )
    assert "applies" not in module.files["turn_sequence"]["steps"][0]


# --- where players read it ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("module", "where"),
    [("red_factories", "red_factories 11.6122"), ("defiant_russia", "defiant_russia partisans")],
)
def test_the_steps_page_shows_the_text_in_the_readers_language(client, module, where):
    from django.urls import reverse

    applies = dict(texts(module))[where]
    url = reverse("campaigns:game_section", args=[module, "steps"])
    english = client.get(url).content.decode()
    japanese = client.get(url, headers={"Accept-Language": "ja"}).content.decode()
    assert applies["en"] in english
    assert applies["ja"] in japanese and applies["en"] not in japanese
