"""Checking an uploaded file's sections, row by row, before anything is written.

``FileChecker.check`` turns the file's sections into a ``ParsedExport``: every value checked
against its column (``Checker.values``), references to other rows of the file, the rules each
section adds (ledger signs, scenario locations, the dice arithmetic, history data shapes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.dice.actors import ROLL_TARGET
from campaigns.dice.legacy_notes import split_legacy_note, turn_step_ids
from campaigns.dice.services import DICE
from campaigns.games.registry import GameModule
from campaigns.games.rules import Drm
from campaigns.history.labels import ORIGINAL_KEY
from campaigns.history.sentences import SENTENCES
from campaigns.models import (
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    LedgerKind,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Scenario,
    SideDay,
)
from campaigns.models.state import CPP_KINDS, FPP_KINDS
from campaigns.records.forms import COUNT_MAX
from campaigns.transfer.checker import Checker
from campaigns.transfer.format import (
    CVP_FIELDS,
    DAY_FIELDS,
    DICE_FIELDS,
    END_COUNTS,
    END_WINNER_BY,
    EVENT_REFERENCES,
    FORMAT_VERSION,
    FORTIFICATION_FIELDS,
    LEDGER_FIELDS,
    LOCATION_COUNTS,
    ORBAT_FIELDS,
    RG_FIELDS,
    SCENARIO_FIELDS,
    SCENARIO_SIDE_FIELDS,
    SIDE_DAY_FIELDS,
    ImportRefused,
    is_database_reference,
    scope_visibilities,
)
from campaigns.transfer.sections import REGISTRY
from campaigns.transfer.values import (
    event_data_fits,
    event_data_rule,
    is_int,
    is_ref,
    short,
)


@dataclass
class ParsedExport:
    """A checked export file: everything needed to write the new campaign, nothing written yet."""

    module: GameModule
    scope: str
    campaign: dict[str, Any]
    members: list[dict[str, Any]]
    exported_at: str | None
    days: list[dict[str, Any]] = field(default_factory=list)
    side_days: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    cvp: list[dict[str, Any]] = field(default_factory=list)
    rgs: list[dict[str, Any]] = field(default_factory=list)
    orbat: list[dict[str, Any]] = field(default_factory=list)
    fortifications: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    dice_rolls: list[dict[str, Any]] = field(default_factory=list)
    # The checked rows of each registered section present in the file (campaigns.transfer.
    # sections), by its key.
    sections: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION


class FileChecker(Checker):
    """The checker of a whole file: the header's facts (``Checker``) and every section."""

    def check(self, data: dict[str, Any], meta: dict[str, Any]) -> ParsedExport:
        name = meta.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ImportRefused(_("The file's campaign has no name."))
        period_index = meta.get("period_index", 0)
        if not is_int(period_index) or not 0 <= period_index < self.periods:
            raise ImportRefused(_("The file's “period_index” is not a day of the calendar."))
        members = data.get("members", [])
        if not isinstance(members, list) or not all(isinstance(m, dict) for m in members):
            raise ImportRefused(_("The file's “members” must be a list of objects."))
        exported_at = data.get("exported_at")
        parsed = ParsedExport(
            module=self.module,
            scope=self.scope,
            campaign={
                "name": name.strip(),
                "data_version": meta["data_version"],
                "period_index": period_index,
                "created_at": meta.get("created_at"),
                "module": self.module.key,
                "campaign_game": self.cg_key,
            },
            members=[
                {
                    key: m[key] if isinstance(m.get(key), str) else None
                    for key in ("username", "role", "side")
                }
                for m in members
            ],
            exported_at=exported_at if isinstance(exported_at, str) else None,
            format_version=data["format_version"],
        )
        parsed.days = self._days(data)
        parsed.side_days = self._side_days(data)
        parsed.ledger = self._ledger(data)
        parsed.scenarios = self._scenarios(data)
        parsed.rgs = self._rgs(data)
        parsed.orbat = self._orbat(data, {row["ref"]: row["values"]["side"] for row in parsed.rgs})
        parsed.cvp = self._cvp(
            data,
            {row["ref"] for row in parsed.scenarios},
            {row["ref"]: row["values"]["side"] for row in parsed.orbat if row["ref"] is not None},
        )
        parsed.fortifications = self._fortifications(data, parsed.ledger)
        parsed.dice_rolls = self._dice_rolls(data)
        self.define(DiceRoll, (row["ref"] for row in parsed.dice_rolls))
        # The sections features registered, in order (one may name an earlier one's rows).
        for section in REGISTRY:
            checked = section.check(self, data.get(section.name))
            self.place = None
            if checked is not None:
                parsed.sections[section.name] = checked
        parsed.history = self._history(data, self.known(DiceRoll))
        return parsed

    # Sections -----------------------------------------------------------------------------

    def _days(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = [
            self.values("days", n, row, CampaignDay, DAY_FIELDS)
            for n, row in self.rows(data, "days")
        ]
        self.unique("days", rows, ("index",))
        return rows

    def _side_days(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = [
            self.values("side_days", n, row, SideDay, SIDE_DAY_FIELDS, secret=True)
            for n, row in self.rows(data, "side_days")
        ]
        self.unique("side_days", rows, ("index", "side"))
        return rows

    def _ledger(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = []
        refs: set = set()
        for n, row in self.rows(data, "ledger"):
            # Version-1 files have no ledger ids: nothing named their rows.
            ref = self.ref("ledger", n, row, refs, required=False)
            values = self.values("ledger", n, row, LedgerEntry, LEDGER_FIELDS, secret=True)
            kinds = CPP_KINDS if values["ledger"] == LedgerEntry.CPP else FPP_KINDS
            if values["kind"] not in kinds:
                raise self.error(
                    "ledger",
                    n,
                    "kind",
                    _("does not belong in the %(ledger)s ledger.")
                    % {"ledger": values["ledger"].upper()},
                )
            sign = kinds[values["kind"]]
            if values["amount"] == 0 or (sign and values["amount"] * sign < 0):
                raise self.error(
                    "ledger", n, "amount", _("a gain must be more than 0, a cost less than 0.")
                )
            if values["locations"] is not None and (
                values["kind"] != LedgerKind.RECON or values["locations"] > 99
            ):
                raise self.error(
                    "ledger",
                    n,
                    "locations",
                    _("only a recon payment carries a number of Locations (0 to 99)."),
                )
            rows.append(
                {
                    "ref": ref,
                    "values": values,
                    "created_at": self.timestamp("ledger", n, row, "created_at"),
                }
            )
        self.define(LedgerEntry, refs)
        return rows

    def _scenarios(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        for n, row in self.rows(data, "scenarios"):
            ref = self.ref("scenarios", n, row, refs)
            values = self.values("scenarios", n, row, Scenario, SCENARIO_FIELDS)
            for name in SCENARIO_SIDE_FIELDS:
                if values[name] and values[name] not in self.module.side_keys:
                    raise self.error("scenarios", n, name, _("is not a side of this game."))
            self._locations(n, values["locations"])
            self._end(n, values["end"])
            rows.append({"ref": ref, "values": values})
        self.unique("scenarios", rows, ("index", "sequence"))
        return rows

    def _locations(self, number: int, locations: dict[str, Any]) -> None:
        """{side key: {"gained": n | null, "lost": n | null}}: what the scenario pages read."""
        for side, counts in locations.items():
            name = f"locations.{short(side)}"
            if side not in self.module.side_keys:
                raise self.error("scenarios", number, name, _("is not a side of this game."))
            if not isinstance(counts, dict) or not set(counts) <= set(LOCATION_COUNTS):
                raise self.error(
                    "scenarios",
                    number,
                    name,
                    _(
                        "must be an object with “gained”, “lost” and “controlled” (each a "
                        "count or null)."
                    ),
                )
            for key, count in counts.items():
                if count is not None and not (is_int(count) and 0 <= count <= COUNT_MAX):
                    raise self.error(
                        "scenarios",
                        number,
                        f"{name}.{key}",
                        _("must be a count from 0 to %(max)s, or null.") % {"max": COUNT_MAX},
                    )

    def _end(self, number: int, end: Any) -> None:
        """{"heroes"|"exits": {side key: count}, "all_stone_locations": side key, "winner_by":
        "rules"|"players"}: what the scenario's end page reads."""
        if not isinstance(end, dict) or not set(end) <= {
            *END_COUNTS,
            "all_stone_locations",
            "winner_by",
        }:
            raise self.error("scenarios", number, "end", _("is not a scenario's end."))
        for key in END_COUNTS:
            counts = end.get(key, {})
            if not isinstance(counts, dict) or not all(
                side in self.module.side_keys and is_int(count) and 0 <= count <= COUNT_MAX
                for side, count in counts.items()
            ):
                raise self.error(
                    "scenarios",
                    number,
                    f"end.{key}",
                    _("must give each side of this game a count from 0 to %(max)s.")
                    % {"max": COUNT_MAX},
                )
        side = end.get("all_stone_locations", "")
        if side and side not in self.module.side_keys:
            raise self.error(
                "scenarios", number, "end.all_stone_locations", _("is not a side of this game.")
            )
        if end.get("winner_by", "rules") not in END_WINNER_BY:
            raise self.error(
                "scenarios", number, "end.winner_by", _("must be “rules” or “players”.")
            )

    def _cvp(
        self, data: dict[str, Any], scenario_refs: set, orbat_sides: dict[Any, str]
    ) -> list[dict[str, Any]]:
        rows = []
        for n, row in self.rows(data, "cvp"):
            values = self.values("cvp", n, row, CvpEntry, CVP_FIELDS)
            scenario = self.reference(
                "cvp", n, row, "scenario", scenario_refs, _("names no scenario of the file.")
            )
            line = self.reference(
                "cvp", n, row, "orbat", orbat_sides, _("names no OB line of the file.")
            )
            if line is not None and orbat_sides[line] != values["side"]:
                raise self.error("cvp", n, "orbat", _("names an OB line of another side."))
            rows.append(
                {
                    "values": values,
                    "scenario": scenario,
                    "orbat": line,
                    "created_at": self.timestamp("cvp", n, row, "created_at"),
                }
            )
        return rows

    def _rgs(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        for n, row in self.rows(data, "rgs"):
            ref = self.ref("rgs", n, row, refs)
            rows.append(
                {
                    "ref": ref,
                    "values": self.values(
                        "rgs", n, row, ReinforcementGroup, RG_FIELDS, secret=True
                    ),
                    # A file made before the life cycle: the status the rules replay.
                    "legacy_status": "status" not in row,
                }
            )
        self.unique("rgs", rows, ("side", "rg_id", "number"))
        return rows

    def _orbat(self, data: dict[str, Any], rg_sides: dict[Any, str]) -> list[dict[str, Any]]:
        rows = []
        rgs_of: dict[str, set] = {}
        for ref, side in rg_sides.items():
            rgs_of.setdefault(side, set()).add(ref)
        refs: set = set()
        for n, row in self.rows(data, "orbat"):
            values = self.values("orbat", n, row, OrbatEntry, ORBAT_FIELDS, secret=True)
            # Files before the scenario's end gave OB lines no ids: nothing named them.
            ref = self.ref("orbat", n, row, refs, required=False)
            if values["quantity"] < 1:
                raise self.error("orbat", n, "quantity", _("must be 1 or more."))
            if not all(isinstance(status, str) for status in values["statuses"]):
                raise self.error("orbat", n, "statuses", _("must be a list of texts."))
            group = self.reference(
                "orbat",
                n,
                row,
                "group",
                rgs_of.get(values["side"], set()),
                _("names no RG of this side in the file."),
            )
            if (values["box"] == OrbatBox.RG) != (group is not None):
                raise self.error("orbat", n, "group", _("is needed in the RG box, and only there."))
            rows.append({"ref": ref, "values": values, "group": group})
        return rows

    def _fortifications(
        self, data: dict[str, Any], ledger: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each purchase with FPP needs its debit in the ledger (same side, day and amount),
        one debit per purchase: the import links them again."""
        debits: dict[tuple, int] = {}
        for row in ledger:
            values = row["values"]
            if values["kind"] == LedgerKind.FORTIFICATION_PURCHASE:
                key = (values["side"], values["index"], -values["amount"])
                debits[key] = debits.get(key, 0) + 1
        rows = []
        for n, row in self.rows(data, "fortifications"):
            values = self.values(
                "fortifications", n, row, FortificationPurchase, FORTIFICATION_FIELDS, secret=True
            )
            if values["quantity"] < 1:
                raise self.error("fortifications", n, "quantity", _("must be at least 1."))
            if not isinstance(values["details"], dict):
                raise self.error("fortifications", n, "details", _("must be an object."))
            if values["fpp"]:
                key = (values["side"], values["index"], values["fpp"])
                if not debits.get(key):
                    raise self.error(
                        "fortifications",
                        n,
                        "fpp",
                        _("has no matching fortification purchase in the FPP ledger."),
                    )
                debits[key] -= 1
            rows.append(
                {
                    "values": values,
                    "created_at": self.timestamp("fortifications", n, row, "created_at"),
                }
            )
        return rows

    def _history(self, data: dict[str, Any], roll_refs: set) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        for n, row in self.rows(data, "history"):
            # Files made before history rows had ids have none: nothing can name their events.
            ref = self.ref("history", n, row, refs, required=False)
            values = self.values(
                "history", n, row, CampaignEvent, ("action", "visibility", "target_type", "data")
            )
            if not values["action"]:
                raise self.error("history", n, "action", _("is missing."))
            if values["visibility"] not in allowed:
                raise self.error(
                    "history",
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            for name in ("actor", "undone_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self.error("history", n, name, _("must be a user name or null."))
            target = self.reference(
                "history", n, row, "target", roll_refs, _("names no dice roll of the file.")
            )
            if target is not None and values["target_type"] != ROLL_TARGET:
                raise self.error(
                    "history", n, "target", _("only an event about a dice roll names one.")
                )
            created_at = self.timestamp("history", n, row, "created_at")
            undone_at = self.timestamp("history", n, row, "undone_at")
            event_data = self._event_data(n, values["action"], values["data"])
            event_data[ORIGINAL_KEY] = {
                "created_at": row.get("created_at") if created_at else None,
                "actor": row.get("actor"),
                "undone_by": row.get("undone_by"),
            }
            rows.append(
                {
                    "ref": ref,
                    "values": {**values, "data": event_data, "undone_at": undone_at},
                    "target": target,
                    "created_at": created_at,
                    "names": None,
                }
            )
        # An event named by another (change.undone → the undone one) by its file id: linked to
        # the new event on import. Anything else there (a database id of the installation the
        # file came from, in files made before history rows had ids) names nothing here.
        for row in rows:
            event_data = row["values"]["data"]
            key = EVENT_REFERENCES.get(row["values"]["action"])
            if key in event_data:
                named = event_data.pop(key)
                if is_ref(named) and named in refs:
                    row["names"] = named
        return rows

    def _event_data(self, number: int, action: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as it may be stored: no database ids, known keys of known types."""
        data = {k: v for k, v in data.items() if not is_database_reference(action, k)}
        # The shapes each feature registered with its sentence: a value of another type would
        # break the history page. Keys not named are kept as they are.
        for key, kind in SENTENCES.data_shape(action).items():
            if key in data and not event_data_fits(kind, data[key]):
                raise self.error("history", number, f"data.{key}", event_data_rule(kind))
        return data

    def _dice_rolls(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        section = "dice_rolls"
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        turn_steps = turn_step_ids(self.module.files.get("turn_sequence"))
        for n, row in self.rows(data, section):
            ref = self.ref(section, n, row, refs)
            values = self.values(section, n, row, DiceRoll, DICE_FIELDS)
            if "sequence_step" not in row and "form_token" not in row:
                # A file from before the two keys: its notes carry them, as the data migration
                # found them in the database.
                split = split_legacy_note(
                    values["note"],
                    step=values["step"],
                    table_id=values["table_id"],
                    turn_steps=turn_steps,
                )
                values.update(
                    note=split.note, sequence_step=split.sequence_step, form_token=split.form_token
                )
            if values["sequence_step"] and values["sequence_step"] not in turn_steps:
                raise self.error(section, n, "sequence_step", _("is not a step of this game."))
            side = row.get("side", "")
            if side != "" and side not in self.module.side_keys:
                raise self.error(section, n, "side", _("is not a side of this game."))
            if values["visibility"] not in allowed:
                raise self.error(
                    section,
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            kind = values["kind"]
            if kind not in DICE:
                raise self.error(section, n, "kind", _("must be “dr” or “DR”."))
            faces = row.get("faces")
            if (
                not isinstance(faces, list)
                or len(faces) != DICE[kind]
                or not all(is_int(face) and 1 <= face <= 6 for face in faces)
            ):
                raise self.error(
                    section,
                    n,
                    "faces",
                    _("must list %(count)s die faces from 1 to 6.") % {"count": DICE[kind]},
                )
            if values["original"] != sum(faces):
                raise self.error(section, n, "original", _("must be the sum of the dice."))
            modifiers = row.get("modifiers", [])
            if not isinstance(modifiers, list) or not all(_is_modifier(m) for m in modifiers):
                raise self.error(
                    section,
                    n,
                    "modifiers",
                    _(
                        "must be a list of objects with a whole-number “value”, a text “reason” "
                        "and, for a DRM of the table, its “id” (text)."
                    ),
                )
            if values["final"] != values["original"] + sum(m["value"] for m in modifiers):
                raise self.error(
                    section, n, "final", _("must be the original roll plus the modifiers.")
                )
            for name in ("rolled_by", "voided_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self.error(section, n, name, _("must be a user name or null."))
            voided_at = self.timestamp(section, n, row, "voided_at")
            if (voided_at is None) != (not values["void_reason"].strip()):
                raise self.error(
                    section,
                    n,
                    "void_reason",
                    _("is needed for a void roll, and only for one."),
                )
            rows.append(
                {
                    "ref": ref,
                    "values": {
                        **values,
                        "side": side,
                        "faces": faces,
                        "modifiers": modifiers,
                        "result": row.get("result"),
                        "voided_at": voided_at,
                    },
                    "rolled_at": self.timestamp(section, n, row, "rolled_at"),
                }
            )
        return rows


def _is_modifier(record: Any) -> bool:
    """A roll's modifier as the dice service stores it (``Drm.record``)."""
    try:
        Drm.from_record(record)
    except ValueError:
        return False
    return True
