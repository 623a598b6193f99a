"""Checking an uploaded file's sections, row by row, before anything is written.

``FileChecker.check`` turns the file's sections into a ``ParsedExport``: every value checked
against its column (``Checker.values``), references to other rows of the file, the rules each
section adds (ledger signs, scenario locations, the dice arithmetic, history data shapes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.games.registry import GameModule
from campaigns.histdrm.chart import LIMIT as HIST_DRM_LIMIT
from campaigns.models import (
    CampaignDay,
    CvpEntry,
    DiceCommitment,
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
from campaigns.transfer.check_log import LogChecks, _is_words
from campaigns.transfer.format import (
    CVP_FIELDS,
    DAY_FIELDS,
    END_COUNTS,
    END_WINNER_BY,
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
)
from campaigns.transfer.sections import REGISTRY
from campaigns.transfer.values import (
    is_int,
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
    dice_commitments: list[dict[str, Any]] = field(default_factory=list)
    # The checked rows of each registered section present in the file (campaigns.transfer.
    # sections), by its key.
    sections: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION


class FileChecker(LogChecks):
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
                "revealed_at": self.timestamp("campaign", 1, meta, "revealed_at"),
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
        self.define(Scenario, (row["ref"] for row in parsed.scenarios))
        parsed.rgs = self._rgs(data)
        parsed.orbat = self._orbat(data, {row["ref"]: row["values"]["side"] for row in parsed.rgs})
        parsed.cvp = self._cvp(
            data,
            {row["ref"] for row in parsed.scenarios},
            {row["ref"]: row["values"]["side"] for row in parsed.orbat if row["ref"] is not None},
        )
        parsed.fortifications = self._fortifications(data, parsed.ledger)
        parsed.dice_commitments = self._dice_commitments(data)
        self.define(DiceCommitment, (row["ref"] for row in parsed.dice_commitments))
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
        rows = []
        groups = self._map_groups()
        for n, row in self.rows(data, "side_days"):
            values = self.values("side_days", n, row, SideDay, SIDE_DAY_FIELDS, secret=True)
            drms = values["hist_drms"]
            if not isinstance(drms, dict) or any(
                group not in groups or not is_int(value) or abs(value) > HIST_DRM_LIMIT
                for group, value in drms.items()
            ):
                raise self.error(
                    "side_days",
                    n,
                    "hist_drms",
                    _("is not a Historical DRM per map group of this campaign game."),
                )
            rows.append(values)
        self.unique("side_days", rows, ("index", "side"))
        return rows

    def _map_groups(self) -> tuple[str, ...]:
        """The map groups a value is kept per (RF CG I), else ()."""
        definitions = self.module.files.get("campaign_games", {}).get("campaign_games", {})
        groups = tuple((definitions.get(self.cg_key) or {}).get("map_groups") or ())
        return groups if len(groups) > 1 else ()

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
            group = values["map_group"]
            if group and (group not in self._map_groups() or values["kind"] != "replenishment"):
                raise self.error(
                    "ledger",
                    n,
                    "map_group",
                    _("only a CPP replenishment of a campaign game on two map groups has one."),
                )
            sign = kinds[values["kind"]]
            if values["amount"] == 0 or (sign and values["amount"] * sign < 0):
                raise self.error(
                    "ledger", n, "amount", _("a gain must be more than 0, a cost less than 0.")
                )
            if not _is_words(values["note_words"]):
                raise self.error("ledger", n, "note_words", _("must be texts by language code."))
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
        """{"heroes"|"exits"|"region": {side key: count}, "all_stone_locations": side key,
        "winner_by": "rules"|"players", "map_groups": …}: what the scenario's end page reads."""
        if not isinstance(end, dict) or not set(end) <= {
            *END_COUNTS,
            "all_stone_locations",
            "winner_by",
            "map_groups",
            "region",
        }:
            raise self.error("scenarios", number, "end", _("is not a scenario's end."))
        groups = end.get("map_groups", {})
        if not isinstance(groups, dict) or not all(
            group in self._map_groups()
            and isinstance(by_side, dict)
            and all(
                side in self.module.side_keys
                and isinstance(counts, dict)
                and set(counts) <= set(LOCATION_COUNTS)
                and all(is_int(c) and 0 <= c <= COUNT_MAX for c in counts.values())
                for side, counts in by_side.items()
            )
            for group, by_side in groups.items()
        ):
            raise self.error(
                "scenarios",
                number,
                "end.map_groups",
                _("must give Stone Location counts per map group of this campaign game."),
            )
        for key in (*END_COUNTS, "region"):
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
