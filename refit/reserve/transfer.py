"""SaP's German Armor Reserve in the export file (docs/export-format.md, ``armor_reserve``).

Registered with campaigns.transfer.sections when the app is ready. The reserve is part of the
German order of battle: only a file holding the German side's secrets has it (a full export, the
German player's own); an import refuses rows in any other file, and in another game's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.transfer.format import ImportRefused, scope_sides
from campaigns.transfer.sections import register_section
from refit.models import ArmorReserveVehicle

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

SECTION = "armor_reserve"
SIDE = "german"
FIELDS = (
    "serial",
    "vehicle_type",
    "origin",
    "armor_leader",
    "state",
    "repair",
    "entered_index",
    "version",
)


def _has_reserve(module: Any) -> bool:
    return module.key == "slaughter_at_ponyri"


def export_reserve(context: ExportContext) -> list[dict[str, Any]] | None:
    if not _has_reserve(context.campaign.game) or SIDE not in context.sides:
        return None
    return list(
        ArmorReserveVehicle.objects.filter(campaign=context.campaign)
        .order_by("serial")
        .values(*FIELDS)
    )


def check_reserve(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not _has_reserve(checker.module):
        raise ImportRefused(
            _("The file's “%(section)s” belongs to another game.") % {"section": SECTION}
        )
    secret_ok = SIDE in scope_sides(checker.scope, checker.module)
    rows = []
    for n, row in checker.entries(SECTION, value):
        if not secret_ok:
            raise checker.error(
                SECTION,
                n,
                "serial",
                _("is secret in a file of scope “%(scope)s”.") % {"scope": checker.scope},
            )
        values = checker.values(SECTION, n, row, ArmorReserveVehicle, FIELDS)
        index = values["entered_index"]
        if index is not None and not 0 <= index < checker.periods:
            raise checker.error(SECTION, n, "entered_index", _("is not a day of the calendar."))
        if (values["state"] == "in_play") != (index is not None):
            raise checker.error(
                SECTION, n, "entered_index", _("is given for an AFV in play, and only then.")
            )
        rows.append(values)
    checker.unique(SECTION, rows, ("serial",))
    return rows


def load_reserve(context: LoadContext, rows: list[dict[str, Any]]) -> None:
    context.create(
        ArmorReserveVehicle,
        [ArmorReserveVehicle(campaign=context.campaign, **values) for values in rows],
    )


def register() -> None:
    register_section(
        SECTION,
        models=(ArmorReserveVehicle,),
        export=export_reserve,
        check=check_reserve,
        load=load_reserve,
    )
