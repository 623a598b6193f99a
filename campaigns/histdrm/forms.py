"""The Historical DRM chart's one form: a cell per CG day and side the user may set, and a box
to paste the whole chart into.

Each cell is typed as the chart prints it ("−2", "+1", "0", "?" or empty for unknown) and read
by the same pure function as the pasted chart (``campaigns.histdrm.chart``). Each cell carries,
hidden, the version of its row and the value shown, so a save writes only what the user changed
and refuses it when someone else changed that row meanwhile.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.games.rules import signed
from campaigns.histdrm import chart
from campaigns.histdrm.services import Edit, cell_value, column_key
from campaigns.models import Campaign, SideDay

# What each code of ``chart.ChartError`` says, naming the line and, for a value, the cell.
PASTE_ERRORS = {
    "no_day": gettext_lazy("Line %(line)s: “%(day)s” is not a CG day of this campaign game."),
    "repeated_day": gettext_lazy("Line %(line)s: %(day)s was already given on line %(first)s."),
    "cell_count": gettext_lazy(
        "Line %(line)s (%(day)s): %(found)s values where %(expected)s were expected (%(sides)s)."
    ),
    "not_a_value": gettext_lazy(
        "Line %(line)s, %(side)s cell (%(day)s): “%(value)s” is not a DRM; write −2, +1, 0 or ? "
        "for unknown."
    ),
    "out_of_range": gettext_lazy(
        "Line %(line)s, %(side)s cell (%(day)s): %(value)s is beyond the chart's limit of "
        "±%(limit)s."
    ),
    "side_not_editable": gettext_lazy(
        "Line %(line)s: you may not set the %(side)s column; leave it out."
    ),
}

CELL_ERRORS = {
    "not_a_value": gettext_lazy("Not a DRM: write −2, +1, 0 or ? for unknown."),
    "out_of_range": gettext_lazy("Beyond the chart's limit of ±%(limit)s."),
}


def _shown(value: int | None) -> str:
    return "" if value is None else signed(value)


class ChartForm(forms.Form):
    paste = forms.CharField(
        label=gettext_lazy("Paste the chart"),
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        help_text=gettext_lazy(
            "One line per CG day: the day (10/17, 17 Oct, 1942-10-17 or 10月17日), then one "
            "value per side in the order of the columns, e.g. “10/18 -2 +1”; ? for unknown. "
            "Columns separated by tabs, as copied from a spreadsheet, work too, and a first "
            "line naming the sides sets their order. Pasted days replace what is typed in "
            "the grid; the other days keep it."
        ),
    )

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        saved: dict[tuple[int, str], SideDay],
        editable: list[str],
        groups: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.editable = [side for side in campaign.game.side_keys if side in editable]
        # The value columns: a side, or in RF CG I a side on each map group (11.6161).
        self.columns = {
            column_key(side, group): (side, group)
            for side in self.editable
            for group in (groups or ("",))
        }
        language = get_language()
        self.cells: list[tuple[int, str]] = []
        for index, period in enumerate(campaign.cg.periods):
            label = period.label.in_language(language)
            for column, (side, group) in self.columns.items():
                row = saved.get((index, side))
                if row is None:
                    continue
                self.cells.append((index, column))
                value = cell_value(row, group)
                self.fields[self.cell_name(index, column)] = forms.CharField(
                    label=f"{label}, {self.column_label(column)}",
                    required=False,
                    max_length=6,
                    initial=_shown(value),
                    widget=forms.TextInput(
                        attrs={"size": 3, "autocomplete": "off", "class": "drm-cell"}
                    ),
                )
                self.fields[self.version_name(index, column)] = forms.CharField(
                    required=False,
                    initial=f"{row.version}:{_shown(value)}",
                    widget=forms.HiddenInput,
                )

    def column_label(self, column: str) -> str:
        """A column's name: the side's, with its map group in RF CG I ("German RB")."""
        side, group = self.columns.get(column, (column, ""))
        name = self.campaign.side(side).name.in_language(get_language())
        return f"{name} {group}" if group else name

    @staticmethod
    def cell_name(index: int, side: str) -> str:
        return f"c-{index}-{side}"

    @staticmethod
    def version_name(index: int, side: str) -> str:
        return f"v-{index}-{side}"

    def _paste_errors(self, parsed: chart.ParsedChart) -> list[str]:
        messages = []
        for error in parsed.errors:
            params: dict[str, Any] = {"line": error.line, **error.params}
            if error.cell:
                params["side"] = self.column_label(error.cell)
            if error.code == "cell_count":
                params["sides"] = ", ".join(self.column_label(key) for key in self.columns)
            messages.append(str(PASTE_ERRORS[error.code]) % params)
        return messages

    def _parse_paste(self) -> chart.ParsedChart:
        language = get_language()
        days = [
            chart.day_aliases(period.key, (period.label.en, period.label.ja))
            for period in self.campaign.cg.periods
        ]
        names = {
            side.key: {side.key, side.name.en, side.name.ja, side.name.in_language(language)}
            for side in self.campaign.sides
        }
        groups = sorted({group for _side, group in self.columns.values()})
        # A header names a column "German" or, per map group, "German RB" / "German-RB" /
        # "RB German" (one tab-separated cell, or joined by "-" or "/").
        sides = {
            column_key(side, group): {
                chart.normalize(written)
                for name in side_names
                for written in (
                    [f"{name} {group}", f"{name}-{group}", f"{name}/{group}", f"{group} {name}"]
                    if group
                    else [name]
                )
            }
            for side, side_names in names.items()
            for group in (groups or [""])
        }
        return chart.parse_chart(
            self.cleaned_data.get("paste", ""), days, sides, list(self.columns)
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        values: dict[tuple[int, str], int | None] = {}
        shown: dict[tuple[int, str], tuple[int, int | None]] = {}
        for index, side in self.cells:
            name = self.cell_name(index, side)
            value, problem = chart.read_value(cleaned.get(name) or "")
            if problem:
                self.add_error(name, str(CELL_ERRORS[problem]) % {"limit": chart.LIMIT})
            values[index, side] = value
            version, _sep, before = (cleaned.get(self.version_name(index, side)) or "").partition(
                ":"
            )
            before_value, before_problem = chart.read_value(before)
            if not version.isdigit() or before_problem:
                raise forms.ValidationError(
                    _("The page was incomplete; reload it and type the chart again.")
                )
            shown[index, side] = (int(version), before_value)
        if cleaned.get("paste", "").strip():
            parsed = self._parse_paste()
            if parsed.errors:
                for message in self._paste_errors(parsed):
                    self.add_error("paste", message)
            values.update(parsed.values)
        cleaned["edits"] = [
            Edit(
                index,
                self.columns[column][0],
                shown[index, column][0],
                value,
                map_group=self.columns[column][1],
            )
            for (index, column), value in values.items()
            if (index, column) in shown and value != shown[index, column][1]
        ]
        return cleaned


def rebase(
    data: QueryDict, saved: dict[tuple[int, str], SideDay], groups: tuple[str, ...] = ()
) -> QueryDict:
    """The posted form made current after a stale save: every cell's hidden version and value
    become what is saved now, and a cell the user had not changed shows the saved value, so
    that saving again writes the user's changes and nothing else."""
    data = data.copy()
    for (index, side), row in saved.items():
        for group in groups or ("",):
            column = column_key(side, group)
            cell, version = (
                ChartForm.cell_name(index, column),
                ChartForm.version_name(index, column),
            )
            if version not in data:
                continue
            posted, _sep, before = data[version].partition(":")
            if posted == str(row.version):
                continue
            now = cell_value(row, group)
            typed, typed_problem = chart.read_value(data.get(cell, ""))
            shown, shown_problem = chart.read_value(before)
            if not typed_problem and not shown_problem and typed == shown:
                data[cell] = _shown(now)
            data[version] = f"{row.version}:{_shown(now)}"
    return data
