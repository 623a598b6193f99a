"""The weather, EC and wind a campaign game's SSRs fix for its calendar (pure).

Red Factories: each CG's first SSR sets the initial scenario's EC, wind and weather ("EC
Moderate, no wind at start. Weather Clear.", RB CG I SSR I.1 [L639]); the data holds it as an
SSR effect ``{"kind": "initial_conditions", "ec", "wind", "weather", "ground_snow"?}`` and it
applies to the first CG day. Slaughter at Ponyri: SSR SaP2 (EC Moderate, no wind at start)
applies to every time frame, CG-5.1 and CG-6.1 make 9 July Overcast, and CG-6.1 makes that
afternoon's EC depend on rain in the morning; the data holds it per time frame
(``time_frames.<key>.initial_conditions``).

A value the SSRs do not fix (``null``, or two map groups' SSRs that disagree) stays off the
calendar. A game whose calendar stores its weathers and ECs by key (Red Factories:
``weather.json``, read through ``campaigns.games.weather``) gets the keys the RePh's rolls book,
December's own (Ground Snow) in December; another gets the words its rolls write.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from campaigns.games.weather import WeatherType, booked, type_of

WEATHER_WORDS = {
    "mist": "Mist",
    "overcast": "Overcast",
    "clear": "Clear",
    "clear_gusty": "Clear & Gusty",
}
EC_WORDS = {"wet": "Wet", "moist": "Moist", "moderate": "Moderate", "dry": "Dry"}
WIND_WORDS = {"none": "No wind"}
# Ground Snow (E3.72) goes in the day's notes: it is no weather the next day's DRMs read.
GROUND_SNOW_NOTE = "Ground Snow (E3.72)"

FIELDS = (("weather", WEATHER_WORDS), ("ec", EC_WORDS), ("wind", WIND_WORDS))


def calendar_fields(
    conditions: Iterable[Mapping[str, Any]],
    *,
    weather_types: Sequence[WeatherType] = (),
    ec_types: Sequence[WeatherType] = (),
    month: int | None = None,
) -> dict[str, str]:
    """The calendar fields that all of ``conditions`` agree on: by key where the game stores
    its weathers (``weather_types``) and ECs (``ec_types``) by key, else in the calendar's words.
    A key the vocabulary does not know, a ``null`` and a disagreement each leave the field out."""
    conditions = list(conditions)
    fields: dict[str, str] = {}
    for name, words in FIELDS:
        values = {condition.get(name) for condition in conditions}
        if len(values) == 1:
            (value,) = values
            if value in words:
                fields[name] = words[value]
    ground_snow = bool(conditions) and all(c.get("ground_snow") for c in conditions)
    if weather_types and "weather" in fields:
        key = booked(weather_types, _agreed(conditions, "weather"), month)
        fixed = type_of(weather_types, _agreed(conditions, "weather"))
        if key is None and fixed is not None and "rolled" not in fixed:
            key = fixed["key"]  # an SSR's weather in a game without a weather table (SaP)
        if key is None:
            del fields["weather"]
        else:
            fields["weather"] = key
            if type_of(weather_types, key).get("ground_snow"):
                ground_snow = False  # December's types carry their Ground Snow
    if ec_types and "ec" in fields:
        fields["ec"] = _agreed(conditions, "ec")
        if fields["ec"] not in {kind["key"] for kind in ec_types}:
            del fields["ec"]
    if ground_snow:
        fields["notes"] = GROUND_SNOW_NOTE
    return fields


def _agreed(conditions: Sequence[Mapping[str, Any]], name: str) -> str:
    return str(conditions[0].get(name))


def _month(period_key: str) -> int | None:
    try:
        return dt.date.fromisoformat(period_key).month
    except ValueError:
        return None


def _rf_first_day(definition: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [
        effect
        for ssr in definition.get("ssrs") or ()
        for effect in ssr.get("effects") or ()
        if effect.get("kind") == "initial_conditions"
    ]


def initial_conditions(
    definition: Mapping[str, Any],
    period_keys: Sequence[str],
    *,
    weather_types: Sequence[WeatherType] = (),
    ec_types: Sequence[WeatherType] = (),
) -> dict[int, dict[str, str]]:
    """Calendar index → the fields the campaign game's SSRs fix for that day / time frame."""
    keyed = {"weather_types": weather_types, "ec_types": ec_types}
    days: dict[int, dict[str, str]] = {}
    first = _rf_first_day(definition)
    if first and period_keys:
        days[0] = calendar_fields(first, **keyed, month=_month(period_keys[0]))
    for key, frame in (definition.get("time_frames") or {}).items():
        conditions = frame.get("initial_conditions")
        if conditions and key in period_keys:
            days[period_keys.index(key)] = calendar_fields([conditions], **keyed, month=_month(key))
    return {index: fields for index, fields in days.items() if fields}


def ec_after_rain(condition: Mapping[str, Any], rain: bool | None) -> str | None:
    """SaP CG-6.1 [L778]: 「雨が直前の CG 時間帯で生じた場合、EC は Wet」 — the EC a time frame
    whose ``initial_conditions`` depend on rain in the previous one starts with: Wet after rain,
    else Moderate (the data's ``ec_depends_on``), as its key ("wet", "moderate"); None when it
    does not depend on rain or the rain was not recorded."""
    depends = condition.get("ec_depends_on") or {}
    if not depends or rain is None:
        return None
    key = depends.get("rain_in_previous_time_frame") if rain else depends.get("otherwise")
    return str(key) if key in EC_WORDS else None
