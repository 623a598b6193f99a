"""A short game's unit roster as plain data: the unit types of each game, checking a unit the
players typed, the quick-entry lines and the roster data file (no Django).

The rules we have do not list the counters (Defiant Russia prints a few, Cherkassy Pocket none), so
the players enter them once and keep them as a data file for the next game.

Quick entry, one unit per line, fields separated by "|":

    name | type | nationality or formation | full | reduced | set-up code, hex or arrival turn

e.g. ``18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4`` (arrives on turn 4) or
``I/SS Wiking | panzer | SS Wiking | 6-8-12 | 3-4-12 | 4012``. "T4 E" is turn 4 by the east edge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.shortgames.rules.cherkassy import attack as cp_attack
from campaigns.shortgames.rules.defiant_russia import attack as dr_attack

FILE_FORMAT = "campaign-desk-short-game-units"
FILE_VERSION = 1

# Unit types, in the words of each game's data (DR game.json oob / victory casualty categories;
# CP spec 2.2 branches). The key is stored; the label is shown.
UNIT_TYPES: dict[str, tuple[str, ...]] = {
    "defiant_russia": (
        "armor",
        "infantry",
        "mountain",
        "cavalry",
        "mobile",
        "division",
        "infantry_army",
        "shock_army",
        "tank_corps",
        "cavalry_corps",
        "airborne",
        "fleet",
        "leader",
    ),
    "cherkassy_pocket": (
        "tank",
        "mech_infantry",
        "motorized_infantry",
        "armored_recon",
        "infantry",
        "ski_infantry",
        "cavalry",
        "paratroop",
        "fortress_infantry",
        "security",
        "depot",
        "artillery",
        "motorized_artillery",
        "rocket_artillery",
    ),
}
CP_SIZES = ("brigade", "regiment", "battalion", "kampfgruppe", "division")
CP_EDGES = ("E", "W", "N")
DR_NATIONALITIES = dr_attack.NATIONALITIES  # 2.0: who fights for each side
# Units without a strength line (DR leaders; CP artillery fire strength is rolled, 11.25).
NO_STRENGTH_TYPES = {"leader", "artillery", "motorized_artillery", "rocket_artillery"}
STRENGTH_LINES = {
    "defiant_russia": re.compile(r"^\d{1,2}-\d{1,2}$"),
    "cherkassy_pocket": re.compile(r"^\d{1,2}(-\d{1,2}){1,2}$"),
}
STATE_KEYS = (
    "state",
    "hex",
    "out_of_supply",
    "msl",
    "artillery_used",
    "in_pocket",
    "reconstituted",
    "notes",
)


class UnitDataError(ValueError):
    """A unit or a data file the roster cannot take; the message names the line or field."""


@dataclass
class UnitData:
    """One counter as entered: its printed values, and optionally its state now."""

    side: str
    name: str
    unit_type: str
    nationality: str = ""
    formation: str = ""
    size: str = ""
    full: str = ""
    reduced: str = ""
    steps: int = 2
    setup: str = ""
    arrival_turn: int | None = None
    arrival_edge: str = ""
    marked_n: bool = False
    with_5gtc: bool = False
    artillery_range: int | None = None
    state: str = "full"
    hex: str = ""
    out_of_supply: bool = False
    msl: bool = False
    artillery_used: bool = False
    in_pocket: bool = False
    reconstituted: bool = False
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def printed(self) -> dict[str, Any]:
        """What the counter prints (what the next game starts from)."""
        keep = {f.name for f in fields(self)} - set(STATE_KEYS) - {"extra"}
        return {k: v for k, v in asdict(self).items() if k in keep}


# What the keys above are called in the reader's language (a key without words shows as it is).
WORDS = {
    "armor": gettext_lazy("Armor"),
    "infantry": gettext_lazy("Infantry"),
    "mountain": gettext_lazy("Mountain"),
    "cavalry": gettext_lazy("Cavalry"),
    "mobile": gettext_lazy("Mobile"),
    "division": gettext_lazy("Division"),
    "infantry_army": gettext_lazy("Infantry army"),
    "shock_army": gettext_lazy("Shock army"),
    "tank_corps": gettext_lazy("Tank corps"),
    "cavalry_corps": gettext_lazy("Cavalry corps"),
    "airborne": gettext_lazy("Airborne"),
    "fleet": gettext_lazy("Fleet"),
    "leader": gettext_lazy("Leader"),
    "tank": gettext_lazy("Tank"),
    "mech_infantry": gettext_lazy("Mechanized infantry"),
    "motorized_infantry": gettext_lazy("Motorized infantry"),
    "armored_recon": gettext_lazy("Armored recon"),
    "ski_infantry": gettext_lazy("Ski infantry"),
    "paratroop": gettext_lazy("Paratroop"),
    "fortress_infantry": gettext_lazy("Fortress infantry"),
    "security": gettext_lazy("Security"),
    "depot": gettext_lazy("Depot"),
    "artillery": gettext_lazy("Artillery"),
    "motorized_artillery": gettext_lazy("Motorized artillery"),
    "rocket_artillery": gettext_lazy("Rocket artillery"),
    # DR nationalities
    "german": gettext_lazy("German"),
    "finnish": gettext_lazy("Finnish"),
    "romanian": gettext_lazy("Romanian"),
    "hungarian": gettext_lazy("Hungarian"),
    "italian": gettext_lazy("Italian"),
    "spanish": gettext_lazy("Spanish"),
    "soviet": gettext_lazy("Soviet"),
    # CP sizes
    "brigade": gettext_lazy("Brigade"),
    "regiment": gettext_lazy("Regiment"),
    "battalion": gettext_lazy("Battalion"),
    "kampfgruppe": gettext_lazy("Kampfgruppe"),
}


def type_label(unit_type: str) -> str:
    """A unit type, nationality or size key in the reader's language."""
    return str(WORDS.get(unit_type, unit_type))


def check(module: str, unit: UnitData, sides: Sequence[str], turns: Sequence[int]) -> list[str]:
    """What is wrong with a unit, in sentences naming the field; [] when it can be kept."""
    errors = []
    if unit.side not in sides:
        errors.append(_("Side: “%(side)s” is not a side of this game.") % {"side": unit.side})
    if not unit.name.strip():
        errors.append(_("Name: every unit needs a name."))
    elif len(unit.name) > 60:
        errors.append(_("Name: at most 60 characters."))
    if unit.unit_type not in UNIT_TYPES.get(module, ()):
        errors.append(
            _("Type: “%(type)s” is not a unit type of this game (one of: %(types)s).")
            % {"type": unit.unit_type, "types": ", ".join(UNIT_TYPES.get(module, ()))}
        )
    checked = module == "defiant_russia" and unit.side in DR_NATIONALITIES
    if checked and unit.nationality not in DR_NATIONALITIES[unit.side]:
        errors.append(
            _("Nationality: “%(nationality)s” does not fight for this side (one of: %(list)s).")
            % {"nationality": unit.nationality, "list": ", ".join(DR_NATIONALITIES[unit.side])}
        )
    if module == "cherkassy_pocket":
        if unit.size and unit.size not in CP_SIZES:
            errors.append(
                _("Size: “%(size)s” is not one of %(list)s.")
                % {"size": unit.size, "list": ", ".join(CP_SIZES)}
            )
        if unit.arrival_edge and unit.arrival_edge not in CP_EDGES:
            errors.append(_("Entry edge: E, W or N."))
        fighter = cp_attack.Fighter(
            name=unit.name,
            side=unit.side,
            unit_type=unit.unit_type,
            formation=unit.formation,
            size=unit.size,
            with_5gtc=unit.with_5gtc,
        )
        errors += [
            reason.in_language(get_language()) for reason in cp_attack.with_5gtc_refusals(fighter)
        ]
        if unit.artillery_range is not None and not fighter.artillery:
            errors.append(_("Artillery range: only an artillery unit has a range (11.22)."))
    if unit.steps not in (1, 2):
        errors.append(_("Steps: a unit has 1 or 2 steps."))
    pattern = STRENGTH_LINES.get(module)
    if pattern is not None and unit.unit_type not in NO_STRENGTH_TYPES:
        for label, value in (
            (_("Full strength"), unit.full),
            (_("Reduced strength"), unit.reduced),
        ):
            if value and not pattern.match(value):
                errors.append(
                    _(
                        "%(field)s: “%(value)s” is not a strength line as printed "
                        "(e.g. %(example)s)."
                    )
                    % {
                        "field": label,
                        "value": value,
                        "example": "6-6" if module == "defiant_russia" else "6-8-12",
                    }
                )
    if unit.steps == 1 and unit.reduced:
        errors.append(_("Reduced strength: a one-step unit has no reduced side."))
    if unit.arrival_turn is not None and unit.arrival_turn not in turns:
        errors.append(
            _("Arrival turn: %(turn)s is not a turn of this game (%(first)s–%(last)s).")
            % {"turn": unit.arrival_turn, "first": min(turns), "last": max(turns)}
        )
    if unit.state == "reduced" and unit.steps == 1:
        errors.append(_("State: a one-step unit cannot be reduced."))
    return errors


_ARRIVAL = re.compile(r"^[Tt](\d{1,2})(?:\s*([EeWwNn]))?$")
# A map hex as both games number them (four digits, "3809"); set-up codes are letters.
_HEX = re.compile(r"^\d{4}$")


def _parse_place(text: str) -> tuple[str, int | None, str]:
    """A set-up code or hex, or "T4" / "T4 E" for an arrival turn (and edge)."""
    text = text.strip()
    match = _ARRIVAL.match(text)
    if match:
        return "", int(match.group(1)), (match.group(2) or "").upper()
    return text, None, ""


def is_hex(text: str) -> bool:
    """A place typed as a map hex (it goes in the unit's Hex, not its set-up code)."""
    return bool(_HEX.match(text.strip()))


def parse_quick_entry(module: str, side: str, text: str) -> list[UnitData]:
    """The units of the quick-entry box, one per line; UnitDataError names the first bad line."""
    units = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) < 2 or len(parts) > 6:
            raise UnitDataError(
                _(
                    "Line %(line)s: write name | type | nationality or formation | full | "
                    "reduced | set-up or T<turn>."
                )
                % {"line": number}
            )
        parts += [""] * (6 - len(parts))
        name, unit_type, belongs, full, reduced, place = parts
        setup, arrival, edge = _parse_place(place)
        hex_ = setup if is_hex(setup) else ""
        unit = UnitData(
            side=side,
            name=name,
            unit_type=unit_type.lower().replace(" ", "_"),
            full=full,
            reduced=reduced,
            steps=2 if reduced else 1 if full else 2,
            setup="" if hex_ else setup,
            hex=hex_,
            arrival_turn=arrival,
            arrival_edge=edge,
            state="awaiting" if arrival is not None else "full",
        )
        if module == "defiant_russia":
            unit.nationality = belongs.lower()
        else:
            unit.formation = belongs
        if unit.unit_type in NO_STRENGTH_TYPES and not reduced:
            unit.steps = 1
        units.append(unit)
    if not units:
        raise UnitDataError(_("Write at least one unit, one per line."))
    return units


def write_file(module: str, data_version: str, units: Sequence[UnitData]) -> dict[str, Any]:
    """The roster as a data file: the printed values of every unit (for the next game), and
    the state now (to set this game up again)."""
    return {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "module": module,
        "data_version": data_version,
        "units": [
            {
                **unit.printed,
                "now": {key: getattr(unit, key) for key in STATE_KEYS},
            }
            for unit in units
        ],
    }


_TEXT_FIELDS = {
    "side": 20,
    "name": 60,
    "unit_type": 30,
    "nationality": 20,
    "formation": 40,
    "size": 20,
    "full": 20,
    "reduced": 20,
    "setup": 20,
    "arrival_edge": 10,
    "hex": 20,
    "notes": 200,
    "state": 20,
}
_BOOL_FIELDS = (
    "marked_n",
    "with_5gtc",
    "out_of_supply",
    "msl",
    "artillery_used",
    "in_pocket",
    "reconstituted",
)


def read_file(module: str, payload: Any, *, with_state: bool) -> list[UnitData]:
    """Units from a data file written by ``write_file``. Refuses anything else with the field
    named; ``with_state`` keeps each unit's state now, otherwise every unit starts at full
    strength (or awaiting its arrival turn)."""
    if not isinstance(payload, Mapping) or payload.get("format") != FILE_FORMAT:
        raise UnitDataError(_("This is not a unit roster file of this app."))
    if payload.get("version") != FILE_VERSION:
        raise UnitDataError(_("This roster file has a version this app cannot read."))
    if payload.get("module") != module:
        raise UnitDataError(
            _("This roster file is for another game (%(module)s).")
            % {"module": str(payload.get("module"))[:40]}
        )
    raw_units = payload.get("units")
    if not isinstance(raw_units, list) or not raw_units:
        raise UnitDataError(_("The roster file lists no units."))
    units = []
    for number, raw in enumerate(raw_units, start=1):
        if not isinstance(raw, Mapping):
            raise UnitDataError(_("Unit %(n)s: not an object.") % {"n": number})
        values: dict[str, Any] = dict(raw)
        now = values.pop("now", None) or {}
        if not isinstance(now, Mapping):
            raise UnitDataError(_("Unit %(n)s: “now” must be an object.") % {"n": number})
        if with_state:
            values.update({k: v for k, v in now.items() if k in STATE_KEYS})
        elif values.get("arrival_turn") is not None:
            values["state"] = "awaiting"
        unit = UnitData(side="", name="", unit_type="")
        for key, value in values.items():
            if key in _TEXT_FIELDS:
                if not isinstance(value, str) or len(value) > _TEXT_FIELDS[key]:
                    raise UnitDataError(
                        _("Unit %(n)s: %(field)s must be text of at most %(max)s characters.")
                        % {"n": number, "field": key, "max": _TEXT_FIELDS[key]}
                    )
                setattr(unit, key, value.strip())
            elif key in _BOOL_FIELDS:
                if not isinstance(value, bool):
                    raise UnitDataError(
                        _("Unit %(n)s: %(field)s must be true or false.")
                        % {"n": number, "field": key}
                    )
                setattr(unit, key, value)
            elif key == "steps":
                if not isinstance(value, int) or isinstance(value, bool):
                    raise UnitDataError(_("Unit %(n)s: steps must be 1 or 2.") % {"n": number})
                unit.steps = value
            elif key == "artillery_range":
                if value is not None and (
                    not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 20
                ):
                    raise UnitDataError(
                        _("Unit %(n)s: artillery_range must be 1 to 20 hexes or null.")
                        % {"n": number}
                    )
                unit.artillery_range = value
            elif key == "arrival_turn":
                if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                    raise UnitDataError(
                        _("Unit %(n)s: arrival_turn must be a turn number or null.") % {"n": number}
                    )
                unit.arrival_turn = value
            else:
                raise UnitDataError(
                    _("Unit %(n)s: unknown field “%(field)s”.")
                    % {"n": number, "field": str(key)[:40]}
                )
        units.append(unit)
    return units
