"""A roll's result in the reader's language (campaigns.dice.results): every key and value the
modules' tables give has words, so no raw key reaches the dice log."""

import pytest
from django.utils import translation

from campaigns.dice.results import AS_PRINTED, KEY_WORDS, VALUE_WORDS, result_words
from campaigns.games.registry import all_modules


def _results():
    for module in all_modules():
        for table in (module.files.get("tables") or {}).get("dice_tables", []):
            for row in table.get("rows", []):
                yield table["id"], row.get("result")


def _keys_and_words(value):
    """The keys (and the string values) of a result that carry no words of their own."""
    if not isinstance(value, dict) or "en" in value:  # its own words
        return
    if any(isinstance(value.get(k), dict) and "en" in value[k] for k in ("text", "label")):
        return
    for key, item in value.items():
        yield "key", key
        if isinstance(item, str):
            yield "value", item
        elif isinstance(item, dict):
            yield from _keys_and_words(item)


def test_every_key_and_value_of_every_table_result_has_words():
    missing = set()
    for table_id, result in _results():
        for kind, word in _keys_and_words(result):
            known = KEY_WORDS if kind == "key" else VALUE_WORDS
            if word not in known and word not in AS_PRINTED and not _is_designation(word):
                missing.add((table_id, kind, word))
    assert missing == set()


def _is_designation(word: str) -> bool:
    """A leader, weapon or footnote as printed ("8-0", "10-2", "LMG", "†"): not a word."""
    return not word.isalpha() or word.isupper()


@pytest.mark.parametrize(
    ("result", "english", "japanese"),
    [
        ({"cpp": 16}, "CPP: 16", "CPP: 16"),
        ({"armor_leader": "9-1"}, "Armor leader: 9-1", "戦車指揮官: 9-1"),
        ({"elr_change": -1}, "ELR change: -1", "ELRの変化: -1"),
        ({"strength": "light_depleted"}, "Strength: Lightly depleted", "戦力: 軽度の減少戦力"),
        ({"repaired": False}, "Repaired: no", "修理済み: いいえ"),
        ({"RB": ["8-0", "9-1"]}, "RB: 8-0, 9-1", "RB: 8-0, 9-1"),
        (
            {"text": {"en": "No effect.", "ja": "効果なし。"}, "effect": "none"},
            "No effect.",
            "効果なし。",
        ),  # noqa: E501
        ({"en": "Clear", "ja": "晴天", "weather": "clear"}, "Clear", "晴天"),
        (None, "", ""),
    ],
)
def test_a_result_in_each_language(result, english, japanese):
    with translation.override("en"):
        assert result_words(result) == english
    with translation.override("ja"):
        assert result_words(result) == japanese
