"""campaigns.games.rules: signed DRMs, the one DRM type and the one refusal type, without a
database (the sentences are translated with Django's catalogue, nothing else)."""

import pytest
from django.utils import translation
from django.utils.translation import gettext_lazy

from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Drm, Reason, signed

MINUS = "\N{MINUS SIGN}"


# --- signed ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (1, "+1"),
        (0, "0"),
        (-2, f"{MINUS}2"),
        (12, "+12"),
        (-120, f"{MINUS}120"),
        (1_000_000, "+1000000"),
    ],
)
def test_signed_prints_a_drm_as_the_charts_do(value, printed):
    assert signed(value) == printed


def test_signed_never_uses_the_ascii_hyphen_nor_signs_a_zero():
    printed = [signed(value) for value in range(-9, 10)]
    assert not any("-" in text for text in printed)
    assert signed(0) == "0" and "+0" not in printed and f"{MINUS}0" not in printed


# --- Drm -------------------------------------------------------------------------------------

WHEN = LocalizedText(en="Attack chit on the previous CG day", ja="前CG日に攻撃チット")


@pytest.mark.parametrize(
    ("drm", "language", "text"),
    [
        (Drm(1, WHEN), "en", "Attack chit on the previous CG day"),
        (Drm(1, WHEN), "ja", "前CG日に攻撃チット"),
        (Drm(1, WHEN, "11.6161"), "ja", "前CG日に攻撃チット (11.6161)"),
        (Drm(-1, "lone SMC", "11.6063"), "en", "lone SMC (11.6063)"),
        (Drm(-1, id="lone-smc"), "en", "lone-smc"),
        (Drm(-1, LocalizedText(en="Soviet", ja="")), "ja", "Soviet"),
    ],
)
def test_a_drm_names_its_reason_and_rule_in_the_language(drm, language, text):
    assert drm.text(language) == text


def test_a_drm_is_logged_in_the_dice_log_shape():
    assert Drm(-2, "Historical DRM (11.6161)").record("en") == {
        "value": -2,
        "reason": "Historical DRM (11.6161)",
    }
    assert Drm(1, WHEN, id="attack-chit").record("ja") == {
        "value": 1,
        "reason": "前CG日に攻撃チット",
        "id": "attack-chit",
    }


@pytest.mark.parametrize(
    "record",
    [
        {"value": -2, "reason": "Historical DRM (11.6161)"},
        {"value": 1, "reason": "Attack chit", "id": "attack-chit"},
    ],
)
def test_a_logged_drm_reads_back_as_it_was_written(record):
    assert Drm.from_record(record).record("en") == record


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        {"value": "-2", "reason": "x"},
        {"value": True, "reason": "x"},
        {"value": 1.5, "reason": "x"},
        {"value": 1},
        {"value": 1, "reason": {"en": "x"}},
        {"value": 1, "reason": "x", "id": 7},
        {"value": 1, "reason": "x", "extra": "y"},
    ],
)
def test_anything_else_is_not_a_drm(record):
    with pytest.raises(ValueError, match="not a modifier"):
        Drm.from_record(record)


# --- Reason ----------------------------------------------------------------------------------

# Sentences the catalogue translates: one adds its rule after it, one places it itself.
TEXTS = {
    "cg_max": gettext_lazy("CG Max reached: %(bought)s of %(max)s bought."),
    "not_closed": gettext_lazy("Not yet part of a closed loop (%(rule)s)."),
}
CG_MAX = Reason("cg_max", "11.6196", {"max": 2, "bought": 2})


def test_a_reason_is_a_sentence_with_its_rule_after_it():
    with translation.override("en"):
        assert CG_MAX.sentence(TEXTS) == "CG Max reached: 2 of 2 bought. (11.6196)"


def test_a_reason_is_a_sentence_in_japanese():
    with translation.override("ja"):
        assert CG_MAX.sentence(TEXTS) == "CG最大数に達しています:2中2購入済み。 (11.6196)"


def test_a_sentence_may_place_the_rule_itself():
    reason = Reason("not_closed", "11.6054")
    with translation.override("en"):
        assert reason.sentence(TEXTS) == "Not yet part of a closed loop (11.6054)."
    with translation.override("ja"):
        assert reason.sentence(TEXTS) == "まだ閉じたループの一部ではありません (11.6054)。"


def test_the_callers_words_replace_the_reasons_numbers():
    with translation.override("en"):
        assert CG_MAX.sentence(TEXTS, {"max": "two", "bought": "both"}) == (
            "CG Max reached: both of two bought. (11.6196)"
        )


def test_an_unknown_code_is_shown_not_dropped():
    assert Reason("lunch", "11.6").sentence(TEXTS) == "lunch (11.6)"
    assert Reason("lunch", "").sentence(TEXTS) == "lunch"


def test_a_sentence_missing_its_numbers_is_shown_as_written():
    with translation.override("en"):
        assert Reason("cg_max", "11.6196").sentence(TEXTS) == (
            "CG Max reached: %(bought)s of %(max)s bought. (11.6196)"
        )


# Words ready-made by the rules in both languages (the short games), numbers already in them.
OVER_STACKED = Reason(
    "over_stacked",
    "8.1",
    text=LocalizedText(en="4 units in one hex; at most 3.", ja="1ヘクスに4ユニット。3つまでです。"),
)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "4 units in one hex; at most 3. (8.1)"),
        ("ja", "1ヘクスに4ユニット。3つまでです。 (8.1)"),
        ("ja-jp", "1ヘクスに4ユニット。3つまでです。 (8.1)"),
        (None, "4 units in one hex; at most 3. (8.1)"),
    ],
)
def test_a_reason_with_ready_made_words_is_shown_in_the_readers_language(language, sentence):
    assert OVER_STACKED.in_language(language) == sentence


def test_ready_made_words_without_japanese_are_shown_in_english():
    reason = Reason("data", "6.2", text=LocalizedText(en="From the game data.", ja=""))
    assert reason.in_language("ja") == "From the game data. (6.2)"


def test_a_reason_without_words_or_rule_is_shown_by_its_code():
    assert Reason("lunch", "11.6").in_language("ja") == "lunch (11.6)"
    assert Reason("lunch", "", text=LocalizedText(en="Lunch.", ja="昼食。")).in_language("ja") == (
        "昼食。"
    )
