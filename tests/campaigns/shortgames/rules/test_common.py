"""What the short games' rules share: counting hits, and reading a weather as people type it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.games.registry import get_module
from campaigns.shortgames.rules.common import count_hits, weather_key

DR = get_module("defiant_russia").files["game"]
CP = get_module("cherkassy_pocket").files["game"]


def test_count_hits():
    assert count_hits([1, 5, 6, 6], (6,)) == 2
    assert count_hits([1, 5, 6, 6], (5, 6)) == 3
    assert count_hits([], (6,)) == 0


@pytest.mark.parametrize(
    ("stored", "key"),
    [
        ("mud", "mud"),
        ("Mud", "mud"),
        ("MUD", "mud"),
        ("light_mud", "light_mud"),
        ("light mud", "light_mud"),
        ("Light Mud", "light_mud"),
        ("  light   mud ", "light_mud"),
        ("lightmud", "light_mud"),
        ("泥濘", "mud"),
        ("軽い泥濘", "light_mud"),
        ("晴天", "clear"),
        ("雪", "snow"),
        ("Ｍｕｄ", "mud"),  # full-width, as a Japanese keyboard may type it
        ("light\u3000mud", "light_mud"),  # an ideographic space
    ],
)
def test_defiant_russia_weather_as_typed(stored, key):
    assert weather_key(DR, stored) == key


@pytest.mark.parametrize(
    ("stored", "key"), [("snow", "snow"), ("Snow", "snow"), ("降雪", "snow"), ("泥濘", "mud")]
)
def test_cherkassy_weather_as_typed(stored, key):
    assert weather_key(CP, stored) == key


@pytest.mark.parametrize(
    "stored",
    ["", "   ", None, "fog", "mud٣", "mud3", "٣", "light", "mudd", "clear snow", "Light mud!"],
)
def test_anything_else_is_no_weather(stored):
    assert weather_key(DR, stored) is None


def test_a_weather_of_the_other_game_is_none_of_this_one():
    assert weather_key(CP, "light mud") is None
    assert weather_key(CP, "Clear") is None


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(max_size=40))
def test_any_text_is_a_weather_key_of_the_game_or_none(stored):
    for game in (DR, CP):
        key = weather_key(game, stored)
        assert key is None or key in {kind["key"] for kind in game["weather"]["types"]}


@settings(max_examples=100, deadline=None, database=None)
@given(
    st.sampled_from([kind["key"] for kind in DR["weather"]["types"]]),
    st.lists(st.booleans(), min_size=12, max_size=12),
    st.sampled_from(["", " ", "  ", "\t", "\u3000"]),
)
def test_a_key_in_any_case_and_spacing_is_read(key, upper, padding):
    typed = "".join(c.upper() if up else c for c, up in zip(key, upper, strict=False))
    typed = padding + typed.replace("_", padding or "_") + padding
    assert weather_key(DR, typed) == key
