"""The Refit Phase's walk in an export file: every RePh (and scenario) the campaign went through
and each side's marks on their steps (docs/export-format.md, ``refit_phases``, ``step_marks``).

Registered with campaigns.transfer.sections when the app is ready, so that an imported campaign
stands where the original stands: the same open RePh, the same marks. The RePhs are public (the
calendar says as much); a mark of a secret step belongs to its side, like the step's history.

The history events made for a step name the RePh and the roll they were made for
(``data.refit_step``, campaigns.history.services.refit_step): registered as references, so the
file names them by file id and the import links them to the new rows (a roll's booking is then
found again: refit.walker.automatic.is_booked).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.compiled import Tables
from campaigns.games import step_engine
from campaigns.games.registry import GameModule, get_module
from campaigns.models import CampaignEvent, DiceRoll, RefitPhase, StepProgress
from campaigns.transfer.format import ImportRefused, iso, scope_sides
from campaigns.transfer.sections import register_reference, register_section

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

PHASES = "refit_phases"
MARKS = "step_marks"
PHASE_FIELDS = ("kind", "index", "sequence", "outcome")
MARK_FIELDS = ("side", "rule", "status", "reason", "note")
# What finishing a RePh decided (refit.walker.services.finish): true, false or null each.
OUTCOME_KEYS = ("scenario_generated", "cg_won")


def has_refit(module: GameModule) -> bool:
    return "refit_steps" in module.files


def kinds(module: GameModule) -> tuple[str, ...]:
    """The positions a campaign of the module can stand in: its kinds of RePh, and scenarios."""
    known = step_engine.SAP_KINDS if module.key == "slaughter_at_ponyri" else step_engine.RF_KINDS
    return (*known, "scenario")


@cache
def _steps(module_key: str, kind: str) -> dict[str, bool]:
    """The steps a RePh of ``kind`` runs: rule → secret?"""
    if kind == "scenario":
        return {}
    module = get_module(module_key)
    return {
        step.rule: step.secret
        for step in step_engine.steps_for(module_key, module.files["refit_steps"], kind)
    }


def is_secret(module: GameModule, kind: str, rule: str) -> bool:
    """A mark of a secret step is its side's (a rule the RePh does not run is kept secret)."""
    return _steps(module.key, kind).get(rule, True)


def not_this_game(section: str) -> ImportRefused:
    return ImportRefused(
        _("The file's “%(section)s” belongs to another game.") % {"section": section}
    )


# --- refit_phases ------------------------------------------------------------------------------


# The two sections' rows from one query, once per export (campaigns.compiled.Tables): every
# RePh in the order it was opened, and every mark in its RePh's order.
_READ = Tables(
    RefitPhase,
    lambda campaign: [
        (
            RefitPhase.objects.filter(campaign=campaign).order_by("id"),
            ("id", "started_at", "finished_at", *PHASE_FIELDS),
        ),
        (
            StepProgress.objects.filter(reph__campaign=campaign).order_by("reph_id", "at", "id"),
            ("reph_id", "at", *MARK_FIELDS),
        ),
    ],
)
_PHASES, _MARKS = range(2)


def _rows(context: ExportContext, table: int) -> list[tuple]:
    tables = context.once(PHASES, lambda: _READ.by_table(context.campaign.pk))
    return tables.get(table, [])


def export_phases(context: ExportContext) -> list[dict[str, Any]] | None:
    """Every RePh and scenario of the campaign in the order it was opened (None: no RePh here)."""
    if not has_refit(context.campaign.game):
        return None
    rows = _rows(context, _PHASES)
    refs = context.ids.number(RefitPhase, (row[0] for row in rows))
    return [
        {
            "id": refs[pk],
            **dict(zip(PHASE_FIELDS, values, strict=True)),
            "started_at": iso(started_at),
            "finished_at": iso(finished_at),
        }
        for pk, started_at, finished_at, *values in rows
    ]


def check_phases(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not has_refit(checker.module):
        raise not_this_game(PHASES)
    rows = []
    refs: set = set()
    is_open = False
    for n, row in checker.entries(PHASES, value):
        ref = checker.ref(PHASES, n, row, refs)
        values = checker.values(PHASES, n, row, RefitPhase, PHASE_FIELDS)
        if values["kind"] not in kinds(checker.module):
            raise checker.error(PHASES, n, "kind", _("is not a Refit Phase of this game."))
        if values["sequence"] < 1:
            raise checker.error(PHASES, n, "sequence", _("must be 1 or more."))
        for key in OUTCOME_KEYS:
            if not isinstance(values["outcome"].get(key), bool | None):
                raise checker.error(PHASES, n, f"outcome.{key}", _("must be true, false or null."))
        winner = values["outcome"].get("cg_winner")
        if winner is not None and (
            winner not in checker.module.side_keys or values["outcome"].get("cg_won") is not True
        ):
            raise checker.error(
                PHASES, n, "outcome.cg_winner", _("must be a side of this game, with cg_won true.")
            )
        finished_at = checker.timestamp(PHASES, n, row, "finished_at")
        if finished_at is None:
            if is_open:
                raise checker.error(
                    PHASES,
                    n,
                    "finished_at",
                    _("another Refit Phase is open too: a campaign stands in one at a time."),
                )
            is_open = True
        rows.append(
            {
                "ref": ref,
                "values": {**values, "finished_at": finished_at},
                "started_at": checker.timestamp(PHASES, n, row, "started_at"),
            }
        )
    checker.define(RefitPhase, {row["ref"]: row["values"]["kind"] for row in rows})
    return rows


def load_phases(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    """In the file's order, which is the order they were opened (the walker counts on it)."""
    phases = context.create(
        RefitPhase, [RefitPhase(campaign=context.campaign, **row["values"]) for row in rows]
    )
    context.keep(RefitPhase, (row["ref"] for row in rows), phases)
    # The rolls of a RePh are those made since it opened (refit.walker.automatic).
    context.restore_times(RefitPhase, phases, rows, "started_at")


# --- step_marks --------------------------------------------------------------------------------


def export_marks(context: ExportContext) -> list[dict[str, Any]] | None:
    """Each side's marks; a secret step's marks only in a file holding that side's secrets."""
    module = context.campaign.game
    if not has_refit(module):
        return None
    sides = context.sides
    kind_of = {row[0]: row[PHASE_FIELDS.index("kind") + 3] for row in _rows(context, _PHASES)}
    marks = []
    for reph, at, *values in _rows(context, _MARKS):
        mark = dict(zip(MARK_FIELDS, values, strict=True))
        if mark["side"] in sides or not is_secret(module, kind_of[reph], mark["rule"]):
            marks.append({"reph": context.ids.of(RefitPhase, reph), **mark, "at": iso(at)})
    return marks


def check_marks(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not has_refit(checker.module):
        raise not_this_game(MARKS)
    phases = checker.known(RefitPhase)
    secrets_of = scope_sides(checker.scope, checker.module)
    rows = []
    for n, row in checker.entries(MARKS, value):
        reph = checker.reference(
            MARKS, n, row, "reph", phases, _("names no Refit Phase of the file.")
        )
        if reph is None:
            raise checker.error(MARKS, n, "reph", _("is missing."))
        values = checker.values(MARKS, n, row, StepProgress, MARK_FIELDS)
        kind = phases[reph]
        if values["rule"] not in _steps(checker.module.key, kind):
            raise checker.error(MARKS, n, "rule", _("is not a step of this Refit Phase."))
        if is_secret(checker.module, kind, values["rule"]) and values["side"] not in secrets_of:
            raise checker.error(
                MARKS,
                n,
                "side",
                _("is secret in a file of scope “%(scope)s”.") % {"scope": checker.scope},
            )
        rows.append({"reph": reph, "values": values, "at": checker.timestamp(MARKS, n, row, "at")})
    checker.unique(MARKS, [{**row["values"], "reph": row["reph"]} for row in rows], _MARK_KEY)
    return rows


_MARK_KEY = ("reph", "side", "rule")


def load_marks(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    """Who marked is not a user here (history tells it: ``refit.step_marked``)."""
    marks = context.create(
        StepProgress,
        [
            StepProgress(reph=context.row(RefitPhase, row["reph"]), by=None, **row["values"])
            for row in rows
        ],
    )
    context.restore_times(StepProgress, marks, rows, "at")


def register() -> None:
    register_section(
        PHASES, models=(RefitPhase,), export=export_phases, check=check_phases, load=load_phases
    )
    register_section(
        MARKS, models=(StepProgress,), export=export_marks, check=check_marks, load=load_marks
    )
    # What a step's changes were made for (campaigns.history.services.refit_step).
    register_reference(CampaignEvent, "data", ("refit_step", "reph"), RefitPhase)
    register_reference(CampaignEvent, "data", ("refit_step", "roll"), DiceRoll)
