"""The victory data the players entered in the export file (docs/export-format.md): the Stone
Location totals (``stone_location_totals``) and the CVP table (``cvp_values``). Public: in every
file whatever its scope. Registered with campaigns.transfer.sections when the app is ready."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from campaigns.compiled import Tables
from campaigns.models import CvpValue, StoneLocationTotal
from campaigns.transfer.sections import register_section

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

TOTALS, CVP = "stone_location_totals", "cvp_values"
TOTAL_FIELDS = ("area", "total", "version")
CVP_FIELDS = ("unit_type", "cvp", "version")


# Both tables from one query, once per export (campaigns.compiled.Tables).
_READ = Tables(
    CvpValue,
    lambda campaign: [
        (StoneLocationTotal.objects.filter(campaign=campaign).order_by("area"), TOTAL_FIELDS),
        (CvpValue.objects.filter(campaign=campaign).order_by("unit_type"), CVP_FIELDS),
    ],
)


def _export(table: int, fields: tuple[str, ...]) -> Any:
    def export(context: ExportContext) -> list[dict[str, Any]] | None:
        tables = context.once(TOTALS, lambda: _READ.by_table(context.campaign.pk))
        rows = [dict(zip(fields, row, strict=True)) for row in tables.get(table, ())]
        return rows or None

    return export


def _check(section: str, model: Any, fields: tuple[str, ...], key: str) -> Any:
    def check(checker: Checker, value: Any) -> list[dict[str, Any]] | None:
        if value is None:
            return None
        rows = []
        for n, row in checker.entries(section, value):
            values = checker.values(section, n, row, model, fields)
            if not str(values[key]).strip():
                raise checker.error(section, n, key, _("is missing."))
            rows.append(values)
        checker.unique(section, rows, (key,))
        return rows

    return check


def _load(model: Any) -> Any:
    def load(context: LoadContext, rows: list[dict[str, Any]]) -> None:
        context.create(model, [model(campaign=context.campaign, **values) for values in rows])

    return load


def register() -> None:
    register_section(
        TOTALS,
        models=(StoneLocationTotal,),
        export=_export(0, TOTAL_FIELDS),
        check=_check(TOTALS, StoneLocationTotal, TOTAL_FIELDS, "area"),
        load=_load(StoneLocationTotal),
    )
    register_section(
        CVP,
        models=(CvpValue,),
        export=_export(1, CVP_FIELDS),
        check=_check(CVP, CvpValue, CVP_FIELDS, "unit_type"),
        load=_load(CvpValue),
    )
