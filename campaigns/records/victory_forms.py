"""The forms of the CG victory page: the Stone Location totals the CG VC count and the CVP
table (campaigns.records.victory_data)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.records.cg_victory_page import TotalRow
from campaigns.records.forms import COUNT_MAX, CVP_RANGE

TYPE_MAX = 60


class TotalsForm(forms.Form):
    """One field per area (empty: unknown) and the row's version when the page was shown."""

    def __init__(self, *args: Any, rows: list[TotalRow], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.rows = rows
        for row in rows:
            self.fields[f"total_{row.area}"] = forms.IntegerField(
                label=_("Stone Locations: %(area)s") % {"area": row.name},
                required=False,
                min_value=0,
                max_value=COUNT_MAX,
                initial=row.total,
                error_messages={
                    "min_value": _("A count must be between 0 and 999 (or empty)."),
                    "max_value": _("A count must be between 0 and 999 (or empty)."),
                },
            )
            self.fields[f"version_{row.area}"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=row.version, min_value=0
            )

    def bound_rows(self) -> list[tuple[TotalRow, forms.BoundField, forms.BoundField]]:
        return [(row, self[f"total_{row.area}"], self[f"version_{row.area}"]) for row in self.rows]

    def values(self) -> dict[str, int | None]:
        return {row.area: self.cleaned_data.get(f"total_{row.area}") for row in self.rows}

    def versions(self) -> dict[str, int]:
        return {row.area: self.cleaned_data.get(f"version_{row.area}") or 0 for row in self.rows}


def _cvp_field(label: Any, initial: int | None = None) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=CVP_RANGE[1],
        initial=initial,
        error_messages={
            "min_value": _("CVP must be between 0 and 999."),
            "max_value": _("CVP must be between 0 and 999."),
        },
    )


class CvpTableForm(forms.Form):
    """The CVP of each unit type entered (empty: removed) and one new type with its CVP."""

    new_type = forms.CharField(label=_("Unit type"), required=False, max_length=TYPE_MAX)

    def __init__(self, *args: Any, rows: list[Any], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.rows = rows
        for n, row in enumerate(rows):
            self.fields[f"cvp_{n}"] = _cvp_field(
                _("CVP of one %(unit)s") % {"unit": row.unit_type}, row.cvp
            )
            self.fields[f"version_{n}"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=row.version, min_value=0
            )
        self.fields["new_cvp"] = _cvp_field(_("CVP of one unit of that type"))
        self.order_fields([name for name in self.fields if name not in ("new_type", "new_cvp")])

    def bound_rows(self) -> list[tuple[Any, forms.BoundField, forms.BoundField]]:
        return [(row, self[f"cvp_{n}"], self[f"version_{n}"]) for n, row in enumerate(self.rows)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if bool((cleaned.get("new_type") or "").strip()) != (cleaned.get("new_cvp") is not None):
            raise forms.ValidationError(_("Give both the unit type and its CVP."))
        return cleaned

    def values(self) -> dict[str, int | None]:
        values = {
            row.unit_type: self.cleaned_data.get(f"cvp_{n}") for n, row in enumerate(self.rows)
        }
        new = (self.cleaned_data.get("new_type") or "").strip()
        if new:
            values[new] = self.cleaned_data["new_cvp"]
        return values

    def versions(self) -> dict[str, int]:
        return {
            row.unit_type: self.cleaned_data.get(f"version_{n}") or 0
            for n, row in enumerate(self.rows)
        }
