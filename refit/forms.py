"""Forms of the Refit Phase walker: marking a step, rolling one of its dice tables, finishing.

Every form carries the id of the Refit Phase it was rendered for, so that a page left open
while the campaign moved on cannot mark, roll or finish in the next one by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.games.dice_tables import ROLL_RANGES, DiceTable
from refit.dice import Modifier

MODIFIER_LINES = 4
DRM_LIMIT = 9

YES_NO = [("yes", _("Yes")), ("no", _("No"))]


class _RephForm(forms.Form):
    reph = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class MarkForm(_RephForm):
    """Done (with an optional note of what happened) or skipped (with the reason)."""

    action = forms.ChoiceField(
        choices=[("done", _("Done")), ("skip", _("Skip"))], widget=forms.HiddenInput
    )
    note = forms.CharField(
        label=_("What happened (optional)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    reason = forms.CharField(label=_("Why it is skipped"), required=False, max_length=200)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "skip" and not (data.get("reason") or "").strip():
            self.add_error("reason", _("Say why the step is skipped."))
        return data


class UnmarkForm(_RephForm):
    pass


class FinishForm(_RephForm):
    """Closes a Refit Phase (or a scenario); asks what the rules decide about what comes next.

    RF 11.623 after a new CG day's steps: was a scenario generated? RF 11.6031 after a
    scenario's RePh (and SaP after a time frame's scenario): has a side met its CG victory
    conditions?
    """

    def __init__(self, *args: Any, question: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.question = question
        if question == "scenario_generated":
            self.fields["answer"] = forms.ChoiceField(
                label=_("Did 11.623 generate a scenario?"),
                choices=[("yes", _("Yes")), ("no", _("No — an Idle Day"))],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whether 11.623 generated a scenario.")},
            )
        elif question == "cg_won":
            self.fields["answer"] = forms.ChoiceField(
                label=_("Has a side met its CG victory conditions?"),
                choices=[("no", _("No")), ("yes", _("Yes — the campaign game ends"))],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whether a side has won the campaign game.")},
            )

    def outcome(self) -> dict[str, Any]:
        """The keyword arguments for walker.finish."""
        answer = self.cleaned_data.get("answer") == "yes"
        if self.question == "scenario_generated":
            return {"scenario_generated": answer}
        if self.question == "cg_won":
            return {"cg_won": answer}
        return {}


def dice_kind(table: DiceTable) -> str | None:
    """The dice service's roll for a table ("2dr" is two dice added: a DR); None if it has none."""
    if table.roll in ("DR", "2dr"):
        return "DR"
    if table.roll == "dr":
        return "dr"
    return None


class RollForm(_RephForm):
    """One roll on one of the step's dice tables, with the DRMs the player enters."""

    note = forms.CharField(
        label=_("Rolled for (optional)"),
        required=False,
        max_length=200,
        help_text=_("E.g. the RG or the unit the roll is for."),
    )

    def __init__(self, *args: Any, tables: Mapping[str, DiceTable], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.fields["table"] = forms.ChoiceField(
            choices=[(table_id, table_id) for table_id in tables],
            widget=forms.HiddenInput,
            error_messages={"invalid_choice": _("Choose one of this step's dice tables.")},
        )
        for line in range(1, MODIFIER_LINES + 1):
            self.fields[f"drm{line}"] = forms.IntegerField(
                label=_("DRM %(line)s") % {"line": line},
                required=False,
                min_value=-DRM_LIMIT,
                max_value=DRM_LIMIT,
                widget=forms.NumberInput(attrs={"min": -DRM_LIMIT, "max": DRM_LIMIT}),
                error_messages={
                    "min_value": _("A DRM is between −9 and +9."),
                    "max_value": _("A DRM is between −9 and +9."),
                    "invalid": _("Type a whole number between −9 and +9."),
                },
            )
            self.fields[f"reason{line}"] = forms.CharField(
                label=_("Reason for DRM %(line)s") % {"line": line},
                required=False,
                max_length=100,
            )

    def modifier_lines(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"drm{line}"], self[f"reason{line}"]) for line in range(1, MODIFIER_LINES + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        modifiers = []
        for line in range(1, MODIFIER_LINES + 1):
            value = data.get(f"drm{line}")
            reason = (data.get(f"reason{line}") or "").strip()
            if value is None:
                if reason and f"drm{line}" not in self.errors:
                    self.add_error(f"drm{line}", _("Give this DRM's value, or clear its reason."))
                continue
            if not reason:
                self.add_error(f"reason{line}", _("Say where this DRM comes from."))
                continue
            modifiers.append(Modifier(value, reason))
        data["modifiers"] = modifiers
        table = self.tables.get(data.get("table", ""))
        if table is not None and not self.errors:
            total = sum(modifier.value for modifier in modifiers)
            low, high = ROLL_RANGES[table.roll]
            covered_low, covered_high = table.rows[0].min, table.rows[-1].max
            if (covered_low is not None and low + total < covered_low) or (
                covered_high is not None and high + total > covered_high
            ):
                raise forms.ValidationError(
                    _(
                        "With a total DRM of %(total)+d the final roll could fall off the table "
                        "(it covers final rolls %(low)s to %(high)s). Check the DRMs."
                    )
                    % {
                        "total": total,
                        "low": "…" if covered_low is None else covered_low,
                        "high": "…" if covered_high is None else covered_high,
                    }
                )
        return data
