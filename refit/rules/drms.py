"""Which DRMs a roll gets: each modifier of a dice table (tables.json ``modifiers``) is either
worked out from the campaign state, asked of the player, or known to be missing.

Pure: the campaign state comes in as ``facts``, a plain dict (a missing key is an unknown fact),
and the player's answers as a dict keyed by modifier id. The vocabulary of facts and of the
modifier ids computed from them is in docs/gamedata.md ("Modifiers the app works out").

DRMs come back as ``campaigns.games.rules.Drm``: ``id`` the table's modifier id, ``reason`` the
rules' words (the data's ``when``), ``detail`` the number behind a worked-out value. Those of
``Resolution.drms`` are worked out from the campaign, those of ``answered`` the player's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Drm, signed

SIDE_IDS = {"german", "soviet", "russian"}


def _drm(mod_id: str, value: int, when: Mapping[str, str], detail: str = "") -> Drm:
    """A DRM of the table's modifier ``mod_id``, its reason the rules' words."""
    return Drm(value, LocalizedText(en=when["en"], ja=when.get("ja", "")), id=mod_id, detail=detail)


@dataclass(frozen=True)
class Question:
    """A modifier only the player can know (which weapon, which hex…)."""

    id: str
    when: Mapping[str, str]
    kind: str  # "flag": applies or not; "count": how many (× per); "choice": one of values;
    #           "number": a signed value the player reads off a counter
    value: int = 0  # for a flag
    per: int = 0  # for a count
    choices: tuple[int, ...] = ()
    default: int | None = None
    bounds: tuple[int, int] = (-9, 9)
    sign: int = 1  # −1 when the rules subtract the number asked (SaP "−X: the repair number")


@dataclass(frozen=True)
class Missing:
    """A fact the roll needs and the campaign does not have yet (the roll waits for it)."""

    id: str
    fact: str


@dataclass(frozen=True)
class Resolution:
    drms: tuple[Drm, ...]
    questions: tuple[Question, ...]
    missing: tuple[Missing, ...] = ()
    hidden: tuple[str, ...] = field(default=())  # modifiers that do not concern this roll

    @property
    def ready(self) -> bool:
        return not self.missing


class Unknown(Exception):
    """Raised by a resolver when the fact it needs is not known."""

    def __init__(self, fact: str, *, ask: bool = False) -> None:
        super().__init__(fact)
        self.fact = fact
        self.ask = ask  # the player may answer it instead (a count they can see on the map)


def _fact(facts: Mapping[str, Any], name: str, *, ask: bool = False) -> Any:
    if facts.get(name) is None:
        raise Unknown(name, ask=ask)
    return facts[name]


def _per(raw: Mapping[str, Any]) -> tuple[int, int, str]:
    """(value per unit, units, rounding) of a "per" modifier in either module's shape."""
    formula = raw.get("formula") or {}
    if formula.get("kind") == "per":
        return int(formula["value"]), int(formula.get("each", 1)), formula.get("rounding", "FRD")
    return int(raw.get("per", 0)), int(raw.get("per_units", 1)), raw.get("rounding", "FRD")


def _per_value(raw: Mapping[str, Any], amount: int) -> int:
    value, units, rounding = _per(raw)
    steps = math.floor(amount / units) if rounding == "FRD" else math.ceil(amount / units)
    return value * steps


# --- resolvers: modifier id → value from the facts (0 = does not apply) -------------------

Resolver = Callable[[Mapping[str, Any], Mapping[str, Any], str], tuple[int, str]]


def _historical(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
    if facts.get("hist_drm") is None and facts.get("hist_drm_by_group"):
        values = set(facts["hist_drm_by_group"].values())
        if len(values) == 1:  # every map group has the same value: it applies
            return int(values.pop()), ""
        raise Unknown("hist_drm", ask=True)  # the side says which map group's (RF CG I)
    detail = facts.get("map_group") or ""
    return int(_fact(facts, "hist_drm")), detail


def _group_question(raw: Mapping[str, Any], by_group: Mapping[str, int]) -> Question:
    """RF CG I: a roll made once for the side (11.617) whose Historical DRM differs between the
    map groups — the side chooses which group's value applies (docs/rules-decisions.md)."""
    shown = ", ".join(f"{group} {signed(int(value))}" for group, value in by_group.items())
    when = {
        "en": f"Historical DRM (11.6161) of the map group chosen ({shown}; 11.58 does not say "
        "which)",
        "ja": f"選んだマップグループの史的DRM (11.6161) ({shown}; 11.58 はどちらか定めていない)",
    }
    choices = tuple(dict.fromkeys(int(v) for v in by_group.values()))
    return Question(raw["id"], when, "choice", choices=choices, default=None)


def _balance(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
    drm = int(_fact(facts, "balance_drm"))
    if raw.get("value") is not None:  # ELR change prints a flat DRM whenever 11.32 applies
        return (int(raw["value"]) if drm else 0), ""
    return drm, ""


def _flag(fact: str) -> Resolver:
    def resolve(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
        return (int(raw["value"]) if _fact(facts, fact) else 0), ""

    return resolve


# Tables whose CVP DRM counts the losses up to victory determination only (11.6031: "units
# eliminated after this step count neither for the scenario's VC nor for the MMC Battle
# Hardening DRM, but do for the CPP DRM (11.616)").
CVP_UP_TO_VICTORY = ("rf.mmc-battle-hardening", "sap.mmc-battle-hardening")


def _cvp(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
    fact = "cvp_scenario" if table in CVP_UP_TO_VICTORY else "cvp_completed"
    cvp = int(_fact(facts, fact))
    return _per_value(raw, cvp), f"{cvp} CVP"


def _count(fact: str, *, ask: bool = False) -> Resolver:
    def resolve(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
        amount = int(_fact(facts, fact, ask=ask))
        return _per_value(raw, amount), f"× {amount}"

    return resolve


def _san(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
    return int(_fact(facts, "san")) - 4, ""


def _weather_was(*names: str, fact: str = "previous_weather") -> Resolver:
    def resolve(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
        was = set(_fact(facts, fact))
        return (int(raw["value"]) if was & set(names) else 0), ""

    return resolve


def _in_campaign_game(
    raw: Mapping[str, Any], facts: Mapping[str, Any], table: str
) -> tuple[int, str]:
    # Only for modifiers whose whole condition is the campaign game ("RB CG IV scenario");
    # others limited to a CG (RO CG III's 2nd Line RGs) still need the player's word.
    return (int(raw["value"]) if _fact(facts, "campaign_game") in raw["campaign_games"] else 0), ""


def _month(month: int) -> Resolver:
    def resolve(raw: Mapping[str, Any], facts: Mapping[str, Any], table: str) -> tuple[int, str]:
        return (int(raw["value"]) if _fact(facts, "month") == month else 0), ""

    return resolve


RESOLVERS: dict[str, Resolver] = {
    "historical": _historical,
    "balance": _balance,
    "attack-chit": _flag("attack_chit_previous_day"),
    "won": _flag("won_completed"),
    "losing-record": _flag("losing_record"),
    "cvp": _cvp,
    "cvp-suffered": _cvp,
    "san-over-4": _san,
    "idle-days": _count("idle_days"),
    "scenarios": _count("scenarios_since"),
    "elite-coy": _count("elite_companies_previous_day", ask=True),
    "first-line": _count("first_line_previous_day", ask=True),
    "december": _month(12),
    "november": _month(11),
    "prev-overcast": _weather_was("overcast"),
    "prev-snow": _weather_was("falling_snow"),
    "prev-mist": _weather_was("mist"),
    "prev-dry": _weather_was("dry", fact="previous_ec"),
    "rb-cg-2-4": _in_campaign_game,
    "rb-cg-4": _in_campaign_game,
}


def _applies_here(raw: Mapping[str, Any], facts: Mapping[str, Any]) -> bool:
    """Whether the modifier can concern this side / campaign game / RG at all."""
    if raw.get("side") and raw["side"] != facts.get("side"):
        return False
    if raw.get("campaign_games") and facts.get("campaign_game") not in raw["campaign_games"]:
        return False
    rgs = raw.get("rgs")
    if rgs is not None:
        if facts.get("side") not in rgs:
            return False
        if facts.get("rg_id") and facts["rg_id"] not in rgs[facts["side"]]:
            return False
    return True


def _question(raw: Mapping[str, Any]) -> Question:
    choices = raw.get("optional_values") or raw.get("values")
    if choices:
        default = raw.get("value") if raw.get("value") is not None else None
        return Question(raw["id"], raw["when"], "choice", choices=tuple(choices), default=default)
    if raw.get("value") is not None:
        return Question(raw["id"], raw["when"], "flag", value=int(raw["value"]))
    value, _units, _rounding = _per(raw)
    if value:
        return Question(raw["id"], raw["when"], "count", per=value)
    expression = (raw.get("formula") or {}).get("expression", "")
    if expression.startswith("-"):
        return Question(raw["id"], raw["when"], "number", bounds=(0, 9), sign=-1)
    return Question(raw["id"], raw["when"], "number")


def resolve(
    modifiers: Sequence[Mapping[str, Any]], facts: Mapping[str, Any], *, table: str = ""
) -> Resolution:
    """Sort the table's modifiers into computed DRMs, questions and missing facts."""
    drms: list[Drm] = []
    questions: list[Question] = []
    missing: list[Missing] = []
    hidden: list[str] = []
    for raw in modifiers:
        if not _applies_here(raw, facts):
            hidden.append(raw["id"])
            continue
        mod_id = raw["id"]
        if mod_id in SIDE_IDS and not (raw.get("infantry_only") or raw.get("afv") is False):
            if mod_id == facts.get("side") or (
                {mod_id, facts.get("side")} == {"soviet", "russian"}
            ):
                drms.append(_drm(mod_id, int(raw["value"]), raw["when"]))
            else:
                hidden.append(mod_id)
            continue
        if mod_id in SIDE_IDS:  # a side's DRM for some units only (e.g. Soviet infantry)
            if mod_id != facts.get("side") and {mod_id, facts.get("side")} != {"soviet", "russian"}:
                hidden.append(mod_id)
                continue
            questions.append(_question(raw))
            continue
        resolver = RESOLVERS.get(mod_id)
        if resolver is None:
            questions.append(_question(raw))
            continue
        try:
            value, detail = resolver(raw, facts, table)
        except Unknown as unknown:
            if unknown.fact == "hist_drm" and unknown.ask:
                questions.append(_group_question(raw, facts["hist_drm_by_group"]))
            elif unknown.ask:
                questions.append(_question(raw))
            elif raw.get("optional_values"):
                # RF 11.6113: no winner recorded for the scenario just completed — the side
                # says which of the printed values applies (0 when it did not win).
                choices = tuple(raw["optional_values"])
                questions.append(Question(mod_id, raw["when"], "choice", choices=choices))
            else:
                missing.append(Missing(mod_id, unknown.fact))
            continue
        if value:
            drms.append(_drm(mod_id, value, raw["when"], detail))
    return Resolution(tuple(drms), tuple(questions), tuple(missing), tuple(hidden))


class AnswerError(ValueError):
    def __init__(self, question: str, message: str) -> None:
        super().__init__(message)
        self.question = question


def _whole(question: Question, answer: Any) -> int:
    try:
        return int(answer or 0)
    except (TypeError, ValueError):
        raise AnswerError(question.id, "not a whole number") from None


def answered(questions: Sequence[Question], answers: Mapping[str, Any]) -> list[Drm]:
    """The DRMs the player's answers give. Unanswered flags and counts give nothing; a choice
    without an answer takes its default. A bad answer raises AnswerError (never ValueError),
    which is what callers catch."""
    drms = []
    for question in questions:
        answer = answers.get(question.id)
        if question.kind == "flag":
            value = question.value if answer else 0
        elif question.kind == "count":
            count = _whole(question, answer)
            if count < 0 or count > 99:
                raise AnswerError(question.id, "count out of range")
            value = question.per * count
        elif question.kind == "choice":
            value = (
                _whole(question, answer) if answer not in (None, "") else (question.default or 0)
            )
            if value not in question.choices:
                raise AnswerError(question.id, "not one of the choices")
        else:
            value = _whole(question, answer)
            low, high = question.bounds
            if not low <= value <= high:
                raise AnswerError(question.id, "out of range")
            value *= question.sign
        if value:
            drms.append(_drm(question.id, value, question.when))
    return drms
