"""RF 11.618 weather as data: the calendar keeps a weather's key, and the next CG day's DRMs come
from that key's kind and flags (campaigns.games.weather over weather.json, refit.rules.drms over
tables.json), never from words found inside a text. Pure: no database.

Seed 003: the table L1428–L1431, December footnotes L1433 (Ground Snow always), L1435 (Mist is
Overcast with Falling Snow), L1437 (after Overcast, Falling Snow only possible); DRMs L1441–L1443
(−1 December, −1 previous day Overcast, −1 previous day had Falling Snow).
"""

from __future__ import annotations

import pytest

from campaigns.games import weather
from campaigns.games.registry import get_module
from refit.rules.drms import resolve

RF = get_module("red_factories")
TYPES = weather.types_of(RF.files)
TABLE = RF.dice_table("rf.weather")
MODIFIERS = next(t for t in RF.files["tables"]["dice_tables"] if t["id"] == "rf.weather")[
    "modifiers"
]


def drm_after(previous: str, month: int = 12) -> int:
    """The total weather DRM on a CG day of ``month`` after a day whose calendar holds
    ``previous``."""
    was = weather.conditions(TYPES, previous)
    assert was is not None, previous
    resolution = resolve(
        MODIFIERS, {"side": "soviet", "month": month, "previous_weather": sorted(was)}
    )
    assert resolution.ready
    return sum(drm.value for drm in resolution.drms)


def booked_for(dr: int, previous: str, month: int = 12) -> str:
    """What the calendar books for an Original DR after ``previous``."""
    rolled = TABLE.lookup(dr + drm_after(previous, month))["weather"]
    key = weather.booked(TYPES, rolled, month)
    assert key is not None
    return key


# --- what each December weather tells the next day ----------------------------------------


@pytest.mark.parametrize(
    ("previous", "total"),
    [
        ("clear_ground_snow", -1),  # Ground Snow is no Falling Snow: December only
        ("clear_gusty_ground_snow", -1),
        ("overcast_falling_snow_possible", -2),  # December, Overcast; snow only possible
        ("overcast_falling_snow", -3),  # December, Overcast, Falling Snow (a Mist roll)
    ],
)
def test_the_december_drm_after_each_december_weather(previous, total):
    assert drm_after(previous) == total


def test_only_a_day_with_falling_snow_gives_the_falling_snow_drm():
    with_snow = {k["key"] for k in TYPES if "falling_snow" in weather.conditions(TYPES, k["key"])}
    assert with_snow == {"overcast_falling_snow"}


@pytest.mark.parametrize(
    ("month", "rolled", "key"),
    [
        (11, "mist", "mist"),
        (11, "overcast", "overcast"),
        (11, "clear", "clear"),
        (11, "clear_gusty", "clear_gusty"),
        (12, "mist", "overcast_falling_snow"),
        (12, "overcast", "overcast_falling_snow_possible"),
        (12, "clear", "clear_ground_snow"),
        (12, "clear_gusty", "clear_gusty_ground_snow"),
    ],
)
def test_each_result_is_booked_as_the_months_weather(month, rolled, key):
    assert weather.booked(TYPES, rolled, month) == key
    flags = weather.conditions(TYPES, key)
    assert ("ground_snow" in flags) is (month == 12)  # L1433: every December day


# --- the limit and one over ------------------------------------------------------------------


def test_after_overcast_in_december_a_4_is_falling_snow_and_a_5_is_not():
    # −2: DR 4 → 2 (Mist → Overcast with Falling Snow); DR 5 → 3 (Overcast, snow possible).
    # The earlier −3 turned the 5 into Falling Snow as well.
    assert booked_for(4, "overcast_falling_snow_possible") == "overcast_falling_snow"
    assert booked_for(5, "overcast_falling_snow_possible") == "overcast_falling_snow_possible"


def test_after_a_clear_december_day_a_3_is_falling_snow_and_a_4_is_not():
    assert booked_for(3, "clear_ground_snow") == "overcast_falling_snow"
    assert booked_for(4, "clear_ground_snow") == "overcast_falling_snow_possible"
    assert booked_for(8, "clear_ground_snow") == "clear_ground_snow"  # 7–9 Clear
    assert booked_for(7, "clear_ground_snow") == "overcast_falling_snow_possible"  # 6: Overcast


def test_after_falling_snow_a_5_is_still_falling_snow_and_a_6_is_not():
    assert booked_for(5, "overcast_falling_snow") == "overcast_falling_snow"
    assert booked_for(6, "overcast_falling_snow") == "overcast_falling_snow_possible"


def test_november_has_no_december_drm_and_no_snow():
    assert drm_after("overcast", month=11) == -1
    assert drm_after("clear", month=11) == 0
    assert booked_for(2, "clear", month=11) == "mist"


# --- reading what the calendar holds ------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("overcast_falling_snow_possible", "overcast_falling_snow_possible"),
        ("Overcast (Falling Snow possible); Ground Snow", "overcast_falling_snow_possible"),
        ("Overcast, Falling Snow; Ground Snow", "overcast_falling_snow"),
        ("Clear; Ground Snow", "clear_ground_snow"),
        ("Clear & Gusty", "clear_gusty"),
        ("  overcast ", "overcast"),
        ("霞", "mist"),
        ("晴天、積雪", "clear_ground_snow"),
        ("snow", None),  # a word inside a text is no weather
        ("Overcast, light rain", None),
        ("", None),
    ],
)
def test_a_stored_weather_is_read_whole_key_name_or_older_words(written, key):
    assert weather.key_of(TYPES, written) == key


def test_the_names_are_in_both_languages():
    assert weather.label_of(TYPES, "overcast_falling_snow", "ja") == "降雪を伴う曇天、積雪"
    assert weather.label_of(TYPES, "overcast_falling_snow", "en") == (
        "Overcast, Falling Snow; Ground Snow"
    )
    assert weather.label_of(TYPES, "Clear; Ground Snow", "ja") == "晴天、積雪"
    assert weather.label_of(TYPES, "Overcast, light rain", "ja") == "Overcast, light rain"


def test_december_weathers_are_offered_in_december_only():
    october = [k["key"] for k in weather.offered(TYPES, 10)]
    december = [k["key"] for k in weather.offered(TYPES, 12)]
    assert october == ["mist", "overcast", "clear", "clear_gusty"]
    assert december == [
        "overcast_falling_snow",
        "overcast_falling_snow_possible",
        "clear_ground_snow",
        "clear_gusty_ground_snow",
    ]
    assert len(weather.offered(TYPES, None)) == 8


# --- the EC the same way ------------------------------------------------------------------

EC_TYPES = weather.ec_types_of(RF.files)
EC_MODIFIERS = next(t for t in RF.files["tables"]["dice_tables"] if t["id"] == "rf.ec")["modifiers"]


def ec_drm_after(previous_weather: str, previous_ec: str, month: int = 10) -> int | None:
    was = weather.conditions(EC_TYPES, previous_ec)
    facts = {
        "side": "soviet",
        "month": month,
        "previous_weather": sorted(weather.conditions(TYPES, previous_weather)),
    }
    if was is not None:
        facts["previous_ec"] = sorted(was)
    resolution = resolve(EC_MODIFIERS, facts)
    return sum(d.value for d in resolution.drms) if resolution.ready else None


@pytest.mark.parametrize(
    ("previous_ec", "drm"),
    [
        ("dry", 1),
        ("Dry", 1),  # the word an earlier version booked
        ("乾燥", 1),
        ("moist", 0),
        ("Not dry", None),  # words naming no EC: unknown, the roll asks for it
    ],
)
def test_the_ec_dry_drm_reads_the_previous_days_ec_key(previous_ec, drm):
    assert ec_drm_after("clear", previous_ec) == drm


def test_the_ec_after_overcast_in_november():
    # −3 previous day Overcast, −1 November (L1448–L1450)
    assert ec_drm_after("overcast", "moderate", month=11) == -4


def test_every_ec_result_is_a_named_ec_in_both_languages():
    results = {row.result["ec"] for row in RF.dice_table("rf.ec").rows}
    assert {kind["key"] for kind in EC_TYPES} == results
    assert weather.label_of(EC_TYPES, "moist", "ja") == "湿潤"
    assert weather.label_of(EC_TYPES, "Moist", "en") == "Moist"
