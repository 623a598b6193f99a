"""Forms of the Refit Phase walker: marking a step, rolling one of its dice tables, finishing.

Every form carries the id of the Refit Phase it was rendered for, so that a page left open
while the campaign moved on cannot mark, roll or finish in the next one by accident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.games.dice_tables import DiceTable
from campaigns.games.registry import localized
from campaigns.games.rules import Drm, signed
from refit.rules.drms import Question

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
    instead = forms.BooleanField(
        label=_("Chosen instead of the roll the rules allow it to replace"), required=False
    )
    overrule = forms.CharField(
        label=_("Referee: why it is marked without what the rules require"),
        required=False,
        max_length=200,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "skip" and not (data.get("reason") or "").strip():
            self.add_error("reason", _("Say why the step is skipped."))
        return data


class UnmarkForm(_RephForm):
    pass


class ChitForm(_RephForm):
    """RF 11.6232: the side's initiative chit, chosen in secret."""

    def __init__(self, *args: Any, chits: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        labels = {"attack": _("Attack"), "idle": _("Idle")}
        self.fields["chit"] = forms.ChoiceField(
            label=_("Your chit"),
            choices=[(chit, labels.get(chit, chit)) for chit, why in chits.items() if not why],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose a chit.")},
        )


class FinishForm(_RephForm):
    """Closes a Refit Phase (or a scenario); asks what the rules decide about what comes next.

    RF 11.623 after a new CG day's steps: was a scenario generated? RF 11.6031 after a
    scenario's RePh (and SaP after a time frame's scenario): has a side met its CG victory
    conditions?
    """

    def __init__(
        self,
        *args: Any,
        question: str = "",
        sides: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.question = question
        self.sides = {key for key, _name in sides}
        if question == "scenario_generated":
            self.fields["answer"] = forms.ChoiceField(
                label=_("Did 11.623 generate a scenario?"),
                choices=[("yes", _("Yes")), ("no", _("No — an Idle Day"))],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whether 11.623 generated a scenario.")},
            )
        elif question == "cg_won":
            # Which side: the report, the CG victory page and the reveal name the winner.
            self.fields["answer"] = forms.ChoiceField(
                label=_("Has a side met its CG victory conditions?"),
                choices=[("no", _("No"))]
                + [
                    (key, _("Yes, the %(side)s side — the campaign game ends") % {"side": name})
                    for key, name in sides
                ],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whether a side has won the campaign game.")},
            )

    def outcome(self) -> dict[str, Any]:
        """The keyword arguments for walker.finish."""
        answer = self.cleaned_data.get("answer") == "yes"
        if self.question == "scenario_generated":
            return {"scenario_generated": answer}
        if self.question == "cg_won":
            winner = self.cleaned_data.get("answer") or "no"
            won = winner in self.sides
            return {"cg_won": won, "cg_winner": winner if won else ""}
        return {}


class RollForm(_RephForm):
    """One roll on one of the step's dice tables: the DRMs the campaign gives are worked out by
    the server; the form asks the ones only the player knows (``questions``) and takes one more
    DRM with its reason for what the table does not list."""

    note = forms.CharField(
        label=_("Rolled for (optional)"),
        required=False,
        max_length=120,
        help_text=_("E.g. the RG or the unit the roll is for."),
    )

    def __init__(
        self,
        *args: Any,
        tables: Mapping[str, DiceTable],
        questions: Sequence[Question] = (),
        lines: Sequence[tuple[int, str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.questions = list(questions)
        if lines is not None:
            # The table's result lands on one of the side's own OB lines: which one.
            self.fields["line"] = forms.TypedChoiceField(
                label=_("Order-of-battle line"),
                choices=[("", _("— choose the line —")), *lines],
                coerce=int,
                error_messages={
                    "required": _("Choose the order-of-battle line this roll is for."),
                    "invalid_choice": _(
                        "Choose one of the lines listed: the side's own lines this table concerns."
                    ),
                },
            )
        self.fields["table"] = forms.ChoiceField(
            choices=[(table_id, table_id) for table_id in tables],
            widget=forms.HiddenInput,
            error_messages={"invalid_choice": _("Choose one of this step's dice tables.")},
        )
        # RF CG I: the map group a table rolled once per map group is rolled for (11.58); the
        # service refuses one that is not the campaign game's.
        self.fields["map_group"] = forms.CharField(
            required=False, max_length=10, widget=forms.HiddenInput
        )
        for question in self.questions:
            self.fields[f"q_{question.id}"] = _question_field(question)
        self.fields["drm"] = forms.IntegerField(
            label=_("Another DRM"),
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
        self.fields["reason"] = forms.CharField(
            label=_("Its reason"), required=False, max_length=100
        )

    def question_fields(self) -> list[forms.BoundField]:
        return [self[f"q_{question.id}"] for question in self.questions]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["answers"] = {question.id: data.get(f"q_{question.id}") for question in self.questions}
        value, reason = data.get("drm"), (data.get("reason") or "").strip()
        data["modifiers"] = []
        if value is None and reason and "drm" not in self.errors:
            self.add_error("drm", _("Give this DRM's value, or clear its reason."))
        elif value is not None and not reason:
            self.add_error("reason", _("Say where this DRM comes from."))
        elif value is not None:
            data["modifiers"] = [Drm(value, reason)]
        return data


def _question_field(question: Question) -> forms.Field:
    label = localized(question.when, get_language())
    if question.kind == "flag":
        return forms.BooleanField(
            label=format_lazy("{label} ({value})", label=label, value=signed(question.value)),
            required=False,
        )
    if question.kind == "count":
        return forms.IntegerField(
            label=format_lazy(_("{label} ({per} each)"), label=label, per=signed(question.per)),
            required=False,
            min_value=0,
            max_value=99,
            widget=forms.NumberInput(attrs={"min": 0, "max": 99}),
        )
    if question.kind == "choice":
        return forms.TypedChoiceField(
            label=label,
            choices=[(value, signed(value)) for value in question.choices],
            coerce=int,
            initial=question.default if question.default is not None else question.choices[0],
        )
    low, high = question.bounds
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=low,
        max_value=high,
        widget=forms.NumberInput(attrs={"min": low, "max": high}),
    )


class HardenForm(forms.Form):
    """The MMC the owner battle hardens (11.6112): per retained line ``count_<id>`` how many
    and ``becomes_<id>`` the type they become (blank: an Elite MMC). The lines are those the
    page offered; which may harden, and how many in all, the service decides."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.lines = sorted(
            int(pk)
            for key in data
            for name, _sep, pk in [key.partition("_")]
            if name == "count" and pk.isdigit()
        )
        how_many = _("Enter how many as a whole number.")
        for pk in self.lines:
            self.fields[f"count_{pk}"] = forms.IntegerField(
                required=False,
                min_value=0,
                max_value=999,
                error_messages={"invalid": how_many, "min_value": how_many, "max_value": how_many},
            )
            self.fields[f"becomes_{pk}"] = forms.CharField(required=False, max_length=40)

    def picks(self) -> dict[int, tuple[int, str]]:
        """Line id → (how many, the type they become), for the lines given a number."""
        data = self.cleaned_data
        return {
            pk: (data[f"count_{pk}"], " ".join(data.get(f"becomes_{pk}", "").split()))
            for pk in self.lines
            if data.get(f"count_{pk}") is not None
        }

    def first_error(self) -> str:
        return next(str(error) for errors in self.errors.values() for error in errors)
