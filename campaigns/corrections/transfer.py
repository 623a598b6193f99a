"""The corrections asked between the players in the export file (docs/export-format.md,
``corrections``). Registered with campaigns.transfer.sections when the app is ready.

A request is in a file whose scope may see its details (``visibility``: the roll's scope, or the
asking side's for a ledger adjustment); a void names its roll by the roll's file id. Users are
kept by name, as the history keeps them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.compiled import Reader
from campaigns.models import CampaignEvent, Correction, DiceRoll
from campaigns.transfer.format import scope_visibilities
from campaigns.transfer.sections import register_reference, register_section
from campaigns.transfer.values import is_int

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

SECTION = "corrections"
FIELDS = (
    "kind",
    "side",
    "visibility",
    "reason",
    "ledger",
    "index",
    "amount",
    "state",
    "asked_by_name",
    "answered_by_name",
)
TIMES = ("asked_at", "answered_at")


# Compiled once (campaigns.compiled.Reader), with the scopes the viewer may see.
_READ = Reader(
    Correction,
    lambda campaign, scopes: (
        Correction.objects.filter(campaign=campaign, visibility__in=scopes)
        .order_by("asked_at", "id")
        .values_list("id", *FIELDS, *TIMES, "roll_id")
    ),
)
_COLUMNS = ("id", *FIELDS, *TIMES)


def export_corrections(context: ExportContext) -> list[dict[str, Any]] | None:
    viewer = context.viewer
    found = []
    for *values, roll in _READ(context.campaign.pk, viewer.visible_scopes()):
        row = dict(zip(_COLUMNS, values, strict=True))
        if row["kind"] == Correction.VOID:
            row["roll"] = context.ids.of(DiceRoll, roll)
            if row["roll"] is None:  # the roll is not in this file
                continue
        for name in TIMES:
            row[name] = row[name].isoformat() if row[name] is not None else None
        found.append(row)
    numbered = context.ids.number(Correction, (row["id"] for row in found))
    for row in found:
        row["id"] = numbered[row["id"]]
    return found or None


def check_corrections(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    allowed = scope_visibilities(checker.scope, checker.module)
    rolls = checker.known(DiceRoll)
    parsed = []
    seen: set = set()
    for n, row in checker.entries(SECTION, value):
        ref = checker.ref(SECTION, n, row, seen, required=False)
        # The day is checked here: a void has none (the checker's calendar check wants one).
        values = checker.values(SECTION, n, row, Correction, [f for f in FIELDS if f != "index"])
        index = row.get("index")
        if index is not None and not (is_int(index) and 0 <= index < checker.periods):
            raise checker.error(SECTION, n, "index", _("is not a day of the calendar."))
        values["index"] = index
        if values["kind"] not in {key for key, _label in Correction.KINDS}:
            raise checker.error(SECTION, n, "kind", _("is not a kind of correction."))
        if values["state"] not in {key for key, _label in Correction.STATES}:
            raise checker.error(SECTION, n, "state", _("is not a state of a request."))
        if values["visibility"] not in allowed:
            raise checker.error(
                SECTION,
                n,
                "visibility",
                _("is secret in a file of scope “%(scope)s”.") % {"scope": checker.scope},
            )
        roll = checker.reference(
            SECTION, n, row, "roll", rolls, _("names no dice roll of the file.")
        )
        if (values["kind"] == Correction.VOID) != (roll is not None):
            raise checker.error(SECTION, n, "roll", _("is given for a void, and only then."))
        if values["kind"] == Correction.ADJUST and (
            values["ledger"] not in {"cpp", "fpp"}
            or values["index"] is None
            or not values["amount"]
            or values["visibility"] != values["side"]
        ):
            raise checker.error(
                SECTION, n, "amount", _("an adjustment needs its side's ledger, day and amount.")
            )
        parsed.append(
            {
                "ref": ref,
                "values": values,
                "roll": roll,
                **{name: checker.timestamp(SECTION, n, row, name) for name in TIMES},
            }
        )
    checker.define(Correction, (row["ref"] for row in parsed))
    return parsed


def load_corrections(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    made = context.create(
        Correction,
        [
            Correction(
                campaign=context.campaign,
                roll=context.row(DiceRoll, row["roll"]),
                answered_at=row["answered_at"],
                **row["values"],
            )
            for row in rows
        ],
    )
    context.keep(Correction, (row["ref"] for row in rows), made)
    context.restore_times(Correction, made, rows, "asked_at")


def register() -> None:
    # The request's correction.asked event names it (and, for an undo, the change: the history's
    # EVENT_REFERENCES).
    register_reference(CampaignEvent, "data", ("correction",), Correction)
    register_section(
        SECTION,
        models=(Correction,),
        export=export_corrections,
        check=check_corrections,
        load=load_corrections,
    )
