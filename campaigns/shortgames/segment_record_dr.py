"""Defiant Russia's turn record: the combats in the order the dice helper rolled them, each in
its phase with what was chosen for it, and each phase's choices as the players wrote them when
marking its step ("What happened"). Shown on the turn page and the status sheet; kept in the
export file as its own section (``dr_turn_record``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Max
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.models import Campaign, DrCombatRecord, TurnMark
from campaigns.shortgames.units import type_label
from campaigns.transfer.format import ImportRefused
from campaigns.transfer.sections import register_section

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

SECTION = "dr_turn_record"
FIELDS = ("index", "order", "side", "step", "role", "detail", "note", "form_token")
ROLES = ("attacker", "defender")
DETAIL_KEYS = {
    "units": str,
    "nationality": str,
    "terrain": list,
    "leaders": list,
    "air_points": int,
    "dice": int,
    "fleet_dice": int,
    "hit_on": list,
    "hits": int,
}


def combat_step(side: str, role: str, breakthrough: bool, sides: Sequence[str]) -> str:
    """The phase a combat belongs to: the attacker's combat or breakthrough combat phase (4.0
    phases 3, 6, 9 and 11)."""
    attacker = side if role == "attacker" else next((s for s in sides if s != side), side)
    return f"{attacker}_breakthrough_combat" if breakthrough else f"{attacker}_combat"


def record_combat(
    campaign: Campaign,
    *,
    side: str,
    entry: Mapping[str, Any],
    dice: int,
    fleet_dice: int,
    hit_on: Sequence[int],
    hits: int,
    by: AbstractBaseUser,
    token: str,
) -> DrCombatRecord:
    """One side's roll of a combat, next in the turn's order (called in the roll's transaction,
    the campaign row locked by the caller's points or dice)."""
    index = campaign.period_index
    last = DrCombatRecord.objects.filter(campaign=campaign, index=index).aggregate(n=Max("order"))
    return DrCombatRecord.objects.create(
        campaign=campaign,
        index=index,
        order=(last["n"] or 0) + 1,
        side=side,
        step=combat_step(side, entry["role"], entry["breakthrough"], campaign.game.side_keys),
        role=entry["role"],
        detail={
            "units": ", ".join(_unit_text(u) for u in entry["units"]),
            "nationality": entry.get("nationality", ""),
            "terrain": list(entry.get("terrain") or ()),
            "leaders": list(entry.get("leaders") or ()),
            "air_points": int(entry.get("air_points") or 0),
            "dice": dice,
            "fleet_dice": fleet_dice,
            "hit_on": list(hit_on),
            "hits": hits,
        },
        note=str(entry.get("note") or "")[:100],
        form_token=token[:20],
        created_by=by,
    )


def _unit_text(unit: Any) -> str:
    letters = "".join(
        letter
        for letter, on in (
            ("a", unit.armor),
            ("m", unit.mountain),
            ("c", getattr(unit, "cavalry", False)),
            ("s", getattr(unit, "shock", False)),
            ("o", unit.out_of_supply),
            ("r", unit.across == "river"),
            ("k", unit.across == "kerch_strait"),
        )
        if on
    )
    return f"{unit.strength}{letters}"


# --- what the turn page and the status sheet show ---------------------------------------------


@dataclass(frozen=True)
class RecordLine:
    """One line of the turn record, in the reader's language."""

    order: str  # "1", "2", … for combats; "" for a phase's choices
    phase: str
    side: str
    text: str


def step_names(campaign: Campaign) -> dict[str, str]:
    steps = campaign.game.files["turn_sequence"]["steps"]
    return {step["id"]: localized(step.get("name"), get_language()) for step in steps}


def _combat_text(record: DrCombatRecord, names: Mapping[str, str]) -> str:
    detail = record.detail or {}
    role = _("attacker") if record.role == "attacker" else _("defender")
    parts = [
        record.note or _("combat"),
        f"{role}: {detail.get('units', '')}",
    ]
    if detail.get("nationality"):
        parts.append(type_label(str(detail["nationality"])))
    chosen = [names.get(str(key), str(key)) for key in detail.get("leaders") or ()]
    chosen += [names.get(str(key), str(key)) for key in detail.get("terrain") or ()]
    if chosen:
        parts.append(", ".join(chosen))
    if detail.get("air_points"):
        parts.append(_("%(n)s air points") % {"n": detail["air_points"]})
    faces = "–".join(str(face) for face in detail.get("hit_on") or ())
    parts.append(
        _("%(dice)s dice, hit on %(faces)s: %(hits)s hits")
        % {"dice": detail.get("dice", 0), "faces": faces, "hits": detail.get("hits", 0)}
    )
    return " · ".join(parts)


def turn_record(campaign: Campaign, index: int, side_names: Mapping[str, str]) -> list[RecordLine]:
    """The turn's record in order: each phase's choices (the notes of its marked steps) and
    the combats rolled in it, numbered in the order they were rolled. Two queries."""
    from campaigns.shortgames.pages.combat import DR_WORDS  # the page imports the rolls

    words = {key: str(word) for key, word in DR_WORDS.items()}
    names = step_names(campaign)
    lines = []
    marks = TurnMark.objects.filter(campaign=campaign, index=index).exclude(note="")
    order = {step["id"]: n for n, step in enumerate(campaign.game.files["turn_sequence"]["steps"])}
    combats: dict[str, list[DrCombatRecord]] = {}
    for record in DrCombatRecord.objects.filter(campaign=campaign, index=index).order_by("order"):
        combats.setdefault(record.step, []).append(record)
    noted = {mark.step: [] for mark in marks}
    for mark in marks:
        noted[mark.step].append(mark)
    for step in sorted(set(noted) | set(combats), key=lambda s: order.get(s, 99)):
        for mark in noted.get(step, []):
            lines.append(
                RecordLine("", names.get(step, step), side_names.get(mark.side, ""), mark.note)
            )
        for record in combats.get(step, []):
            lines.append(
                RecordLine(
                    str(record.order),
                    names.get(step, step),
                    side_names.get(record.side, record.side),
                    _combat_text(record, words),
                )
            )
    return lines


# --- the export file --------------------------------------------------------------------------


def export_section(context: ExportContext) -> list[dict[str, Any]] | None:
    campaign = context.campaign
    if campaign.module != "defiant_russia":
        return None
    return [
        {**row, "created_at": row["created_at"].isoformat()}
        for row in DrCombatRecord.objects.filter(campaign=campaign)
        .order_by("index", "order")
        .values("created_at", *FIELDS)
    ]


def check_section(checker: Checker, section: Any) -> list[dict[str, Any]] | None:
    if section is None:
        return None
    if checker.module.key != "defiant_russia":
        raise ImportRefused(_("The file's “dr_turn_record” belongs to another game."))
    steps = {raw["id"] for raw in checker.module.files["turn_sequence"]["steps"]}
    rows, seen = [], set()
    for n, row in checker.entries(SECTION, section):
        values = checker.values(SECTION, n, row, DrCombatRecord, FIELDS)
        if values["side"] not in checker.module.side_keys:
            raise checker.error(SECTION, n, "side", _("is not a side of this game."))
        if values["step"] not in steps:
            raise checker.error(SECTION, n, "step", _("is not a step of this game."))
        if values["role"] not in ROLES:
            raise checker.error(SECTION, n, "role", _("must be attacker or defender."))
        detail = values["detail"]
        if not isinstance(detail, dict) or any(
            key not in DETAIL_KEYS
            or not isinstance(value, DETAIL_KEYS[key])
            or isinstance(value, bool)
            for key, value in detail.items()
        ):
            raise checker.error(SECTION, n, "detail", _("is not a combat's record."))
        key = (values["index"], values["order"])
        if key in seen:
            raise checker.error(SECTION, n, "order", _("is given twice in one turn."))
        seen.add(key)
        rows.append(
            {"values": values, "created_at": checker.timestamp(SECTION, n, row, "created_at")}
        )
    return rows


def load_section(context: LoadContext, parsed: list[dict[str, Any]]) -> None:
    made = context.create(
        DrCombatRecord,
        [DrCombatRecord(campaign=context.campaign, **row["values"]) for row in parsed],
    )
    context.restore_times(DrCombatRecord, made, parsed)


def register() -> None:
    register_section(
        SECTION,
        models=(DrCombatRecord,),
        export=export_section,
        check=check_section,
        load=load_section,
    )
