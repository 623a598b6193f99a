"""The short games' turn: its steps on the same step engine as the Refit Phase walker, each
side's marks, and the turn's weather.

Which steps take place this turn and why the others are skipped comes from the pure rules
(``campaigns.shortgames.rules.defiant_russia.phases``, ``...cherkassy.turn_sequence``); the
step texts come from ``turn_sequence.json`` read by campaigns.games.step_engine. A step belongs to
one side (its player or the referee marks it) or, with no side, to both (each side marks it). Steps
are walked in order: a step can be marked once every earlier step that takes place is marked.
The turn advances when every step that takes place is marked.

Nothing in these games is hidden (the map is open): every mark, roll and point is public.

What is done on the turn lives beside this module: ``turn_marks`` (marking, advancing),
``turn_rolls`` (the step's tables and what is booked of a roll), ``turn_points`` (replacement
and air points, restoring and rebuilding units), ``arrivals`` (reinforcements),
``reconstitution`` (Cherkassy Pocket 12.1), ``combat_rolls`` (combat dice) and ``cp_victory``
(Cherkassy Pocket's VP).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games import step_engine
from campaigns.games.registry import LocalizedText, localized
from campaigns.models import (
    Campaign,
    CampaignDay,
    DiceRoll,
    GameUnit,
    ShortGame,
    TurnMark,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import data as cp_data
from campaigns.shortgames.rules.cherkassy import reinforcements as cp_reinforcements
from campaigns.shortgames.rules.cherkassy import turn_sequence as cp_turn_sequence
from campaigns.shortgames.rules.cherkassy import weather as cp_weather
from campaigns.shortgames.rules.common import weather_key
from campaigns.shortgames.rules.defiant_russia import phases as dr_phases
from campaigns.shortgames.rules.defiant_russia import weather as dr_weather


class TurnError(ValueError):
    """A step cannot be marked, a roll not made, a turn not advanced (message for the user)."""


@dataclass(frozen=True)
class TableOffer:
    table_id: str
    name: LocalizedText | None
    applies: bool
    reason: LocalizedText | None


@dataclass
class TurnStep:
    """One step of this turn as the walker shows it."""

    id: str
    rule: str
    name: Mapping[str, str]
    applies_text: Any
    side: str | None  # None: every side marks it
    applies: bool
    limited: bool
    reason: LocalizedText | None
    tables: list[TableOffer]
    referee_slots: tuple[str, ...]
    segment: int | None
    marks: dict[str, TurnMark] = field(default_factory=dict)
    status: str = "todo"  # skipped (does not take place), done, current, todo
    note: LocalizedText | None = None  # shown whatever the status (see unreadable_weather)

    @property
    def sides_to_mark(self) -> tuple[str, ...]:
        return (self.side,) if self.side else ()

    @property
    def html_id(self) -> str:
        return "step-" + self.id.replace(".", "-")


# --- the turn's facts -----------------------------------------------------------------------


def current_day(campaign: Campaign) -> CampaignDay:
    return CampaignDay.objects.get(campaign=campaign, index=campaign.period_index)


def options_of(game: ShortGame | None) -> tuple[str, ...]:
    return tuple(game.options) if game is not None else ()


def derived_weather(campaign: Campaign, game: ShortGame | None) -> tuple[str | None, Any]:
    """The turn's weather when no roll is needed (historical, fixed by the rules or the
    scenario), and the rules' answer (mode, table, reason)."""
    turn = short_games.turn_number(campaign)
    data = short_games.game_data(campaign)
    if campaign.module == "defiant_russia":
        answer = dr_weather.weather_table(turn, options_of(game), data)
    else:
        answer = cp_weather.weather_roll(
            turn, campaign.campaign_game, short_games.referee_tables(campaign), data
        )
    return getattr(answer, "weather", None), answer


def recorded_weather(campaign: Campaign, day: CampaignDay) -> str | None:
    """The weather written on the turn's calendar day as one of the game's weather keys; None
    when nothing is written, or when what is written is none of the game's weathers.

    People type it on the calendar ("Mud", "light mud", "泥濘"), so it is read tolerantly
    (``rules.common.weather_key``); text that is no weather counts as not recorded, and the
    rules, which expect a key, never see it."""
    return weather_key(short_games.game_data(campaign), day.weather)


def weather_now(campaign: Campaign, day: CampaignDay, game: ShortGame | None) -> str | None:
    """The weather recorded for the turn, else the one the rules fix; None until it is rolled."""
    recorded = recorded_weather(campaign, day)
    if recorded is not None:
        return recorded
    weather, _answer = derived_weather(campaign, game)
    return weather


def unreadable_weather(campaign: Campaign, day: CampaignDay) -> LocalizedText | None:
    """What the turn says when the calendar gives a weather that is none of the game's: it
    counts as not recorded until it is rolled or recorded again. None when there is nothing to
    say."""
    if not day.weather.strip() or recorded_weather(campaign, day) is not None:
        return None
    kinds = short_games.game_data(campaign)["weather"]["types"]
    en = ", ".join(localized(kind.get("name"), "en") for kind in kinds)
    ja = "、".join(localized(kind.get("name"), "ja") for kind in kinds)
    return LocalizedText(
        en=f"The calendar gives this turn's weather as “{day.weather}”, which is none of this "
        f"game's weathers ({en}): it counts as not recorded until it is rolled or recorded "
        "again.",
        ja=f"カレンダーにあるこのターンの天候「{day.weather}」は、このゲームの天候（{ja}）の"
        "どれでもありません。ダイスで決めるか記録し直すまで、天候は未記録として扱います。",
    )


def cp_state(campaign: Campaign, game: ShortGame | None) -> Any:
    pz24 = (
        DiceRoll.objects.filter(
            campaign=campaign, table_id="cp.pz24-arrival", voided_at__isnull=True
        )
        .values_list("final", flat=True)
        .first()
    )
    north = GameUnit.objects.filter(
        campaign=campaign, side="german", arrival_edge="N", state__in=("full", "reduced")
    ).exists()
    return cp_data.CpState(
        encirclement_formed=game is not None and game.pocket_formed_index is not None,
        german_north_entered=north,
        pz24_rolled=pz24 is not None,
        pz24_arrives=None if pz24 is None else cp_reinforcements.pz24_result(pz24),
    )


def _rules_steps(campaign: Campaign, game: ShortGame | None, weather: str | None) -> list[Any]:
    data = short_games.game_data(campaign)
    sequence = campaign.game.files["turn_sequence"]
    turn = short_games.turn_number(campaign)
    if campaign.module == "defiant_russia":
        if weather is None:
            return _before_weather(
                dr_phases.steps(turn, "clear", options_of(game), sequence, data), sequence
            )
        return dr_phases.steps(turn, weather, options_of(game), sequence, data)
    return cp_turn_sequence.steps(
        turn, campaign.campaign_game, cp_state(campaign, game), sequence, data
    )


WEATHER_STEP = "weather"  # the step of turn_sequence.json that finds the turn's weather

WEATHER_UNKNOWN = LocalizedText(
    en="Depends on the turn's weather: roll it first (8.2).",
    ja="このターンの天候しだいです。先に天候を決めてください（8.2）。",
)


def _before_weather(answers: list[Any], sequence: Mapping[str, Any]) -> list[Any]:
    """Until the weather is rolled, a step that depends on it is neither on nor off."""
    depends = {
        raw["id"] for raw in sequence["steps"] if (raw.get("conditions") or {}).get("weather")
    }
    return [
        replace(answer, applies=True, limited=True, reason=WEATHER_UNKNOWN)
        if answer.id in depends
        else answer
        for answer in answers
    ]


def _table_name(campaign: Campaign, table_id: str) -> LocalizedText | None:
    for table in campaign.game.files.get("tables", {}).get("dice_tables", []):
        if table["id"] == table_id:
            name = table.get("name") or {}
            return LocalizedText(en=name.get("en", table_id), ja=name.get("ja", table_id))
    return None


def turn_steps(
    campaign: Campaign, game: ShortGame | None, weather: str | None, marks: Sequence[TurnMark]
) -> list[TurnStep]:
    """Every step of the turn with its status, from the rules and the marks of this turn."""
    raw_by_id = {raw["id"]: raw for raw in campaign.game.files["turn_sequence"]["steps"]}
    defs = {
        raw["id"]: step
        for step, raw in step_engine.main_steps(campaign.game.files["turn_sequence"])
    }
    by_step: dict[str, dict[str, TurnMark]] = {}
    for mark in marks:
        by_step.setdefault(mark.step, {})[mark.side] = mark
    day = CampaignDay.objects.filter(campaign=campaign, index=campaign.period_index).first()
    weather_note = unreadable_weather(campaign, day) if day is not None else None
    steps = []
    blocked = False
    for answer in _rules_steps(campaign, game, weather):
        raw = raw_by_id.get(answer.id, {})
        definition = defs.get(answer.id)
        step = TurnStep(
            id=answer.id,
            rule=answer.rule,
            name=raw.get("name") or {"en": answer.id, "ja": answer.id},
            applies_text=definition.applies if definition else "",
            side=answer.side,
            applies=answer.applies,
            limited=getattr(answer, "limited", False),
            reason=answer.reason,
            tables=[
                TableOffer(
                    use.table_id, _table_name(campaign, use.table_id), use.applies, use.reason
                )
                for use in getattr(answer, "tables", ())
                if use.table_id
            ],
            referee_slots=tuple(
                getattr(answer, "referee_slots", ()) or raw.get("referee_slots") or ()
            ),
            segment=raw.get("segment"),
            marks=by_step.get(answer.id, {}),
            note=weather_note if answer.id == WEATHER_STEP else None,
        )
        needed = step.sides_to_mark or campaign.game.side_keys
        if not step.applies:
            step.status = "skipped"
        elif all(side in step.marks for side in needed):
            step.status = "done"
        elif not blocked:
            step.status = "current"
            blocked = True
        steps.append(step)
    return steps


def marks_of(campaign: Campaign, index: int | None = None) -> list[TurnMark]:
    index = campaign.period_index if index is None else index
    return list(TurnMark.objects.filter(campaign=campaign, index=index))


def turn_complete(steps: Sequence[TurnStep]) -> bool:
    return all(step.status in ("done", "skipped") for step in steps)


def is_last_turn(campaign: Campaign) -> bool:
    return campaign.period_index >= len(campaign.cg.periods) - 1


def locked_campaign(campaign: Campaign, index: int) -> Campaign:
    """The campaign locked for a change of the turn ``index``; refused when the turn has moved
    on since the page was shown."""
    locked = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    if locked.period_index != index:
        raise TurnError(_("That page was for an earlier turn; nothing was changed."))
    return locked


def is_weather_step(step: TurnStep) -> bool:
    return step.id == WEATHER_STEP


def reader_language() -> str:
    """The language the user is answered in (the rules' texts are put into it)."""
    return get_language() or "en"
