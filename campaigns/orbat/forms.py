"""Forms of the order-of-battle page: quick add, and the small per-line edits.

The per-line forms are written by hand in the template (hundreds of lines on a page: Django's
widget rendering would be the slowest part of it); these classes only read and check what was
posted. A "box" travels as one value: a box key ("retained", "casualties", …) or "rg:<opaque id>"
for the box of one Reinforcement Group.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup, RgStatus
from campaigns.oid import from_oid, oid
from campaigns.orbat import lifecycle
from campaigns.orbat.divider import FIXED_BOXES

STATUS_CHOICES = [
    ("isolated", _("isolated")),
    ("ammunition_shortage", _("ammunition shortage")),
    ("dug_in", _("dug in")),
    ("hidden", _("hidden")),
    ("malfunctioned", _("malfunctioned")),
    ("captured", _("captured")),
    ("wounded", _("wounded")),
    ("immobilized", _("immobilized")),
    ("abandoned", _("abandoned")),
    ("lost_ae_status", _("lost AE status")),
    ("disabled", _("weapon disabled")),
    ("abandoned", _("abandoned")),
    ("fanatic", _("fanatic (next scenario)")),
    # SaP CG7.22: Stavka armor leaves the CG at the end of the time frame it entered, unless
    # captured or a wreck in a terrain Blaze (issue 16).
    ("stavka", _("Stavka armor (leaves the CG at the end of its time frame)")),
    ("blaze_wreck", _("wreck in a terrain Blaze (stays)")),
    # SaP CG-3.1/3.2/4.1: designated before set-up to enter on turn 2 (issue 16).
    ("turn_two", _("enters on turn 2 (designated)")),
]
STATUS_LABELS = dict(STATUS_CHOICES)

# A dug-in AFV (D9.54) as SaP CG7.23 and RF 11.6194c have it: never made mobile, its BMG
# unusable (the LMG it gave is on the OB), set up HIP as an emplaced Gun may be (A12.34). The OB
# and the divider sheet say so on the line (issue 16); the edit form's box keeps the short word.
DUG_IN_AFV = _("dug in: never mobile, BMG unusable, may set up HIP as an emplaced Gun (D9.54)")


def line_status_label(key: str, kind: str) -> str:
    """A status of an OB line of ``kind`` in words (an unknown key as it is)."""
    if key == "dug_in" and kind == "vehicle_or_gun":
        return str(DUG_IN_AFV)
    return str(STATUS_LABELS.get(key, key))


KIND_LABELS = {
    "infantry": _("infantry"),
    "leader": _("leader"),
    "support_weapon": _("support weapon"),
    "fortification": _("fortification"),
    "vehicle_or_gun": _("vehicle / gun"),
    "other": _("other"),
}

# The boxes a line can be put in, besides the RG boxes, in the divider's order.

RG_PREFIX = "rg:"


def rg_value(group: ReinforcementGroup) -> str:
    return f"{RG_PREFIX}{oid(group.pk)}"


@dataclass
class Targets:
    """The boxes of one side that lines may be added or moved to.

    ``groups`` are the side's RGs still waiting to enter play (bought, rolled, awaiting entry),
    each with its label for a select.
    """

    groups: list[tuple[ReinforcementGroup, str]] = field(default_factory=list)

    def choices(self) -> list:
        fixed = [(box.value, box.label) for box in FIXED_BOXES]
        if not self.groups:
            return fixed
        rgs = [(rg_value(group), label) for group, label in self.groups]
        return [*fixed, (OrbatBox.RG.label, rgs)]

    def resolve(self, value: str) -> tuple[str, ReinforcementGroup | None]:
        """A posted (and validated) value → (box, RG or None)."""
        if value.startswith(RG_PREFIX):
            for group, _label in self.groups:
                if rg_value(group) == value:
                    return OrbatBox.RG, group
            raise KeyError(value)
        return value, None

    def options_html(self, selected: str = "") -> SafeString:
        """The <option>s of a move select, built once per page rather than once per line."""

        def options(pairs) -> SafeString:
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                (
                    (value, " selected" if value == selected else "", label)
                    for value, label in pairs
                ),
            )

        html = format_html('<option value="">{}</option>', _("— to box —"))
        html += options((box.value, box.label) for box in FIXED_BOXES)
        if self.groups:
            html += format_html(
                '<optgroup label="{}">{}</optgroup>',
                OrbatBox.RG.label,
                options((rg_value(group), label) for group, label in self.groups),
            )
        return html


def target_of(entry: OrbatEntry) -> str:
    return f"{RG_PREFIX}{oid(entry.group_id)}" if entry.box == OrbatBox.RG else entry.box


class BoxField(forms.ChoiceField):
    default_error_messages = {
        "required": _("Choose a box."),
        "invalid_choice": _("Choose one of this side's boxes (an RG that entered play has none)."),
    }


class AddUnitsForm(forms.Form):
    text = forms.CharField(
        label=_("Units"),
        max_length=500,
        help_text=_(
            "E.g. “14 × 4-6-7; 9-1 leader; 2 × LMG”. Separate lines with semicolons; add "
            "“from I3#2” to say which RG a unit came from."
        ),
        error_messages={"required": _("Enter the units to add, e.g. “14 × 4-6-7”.")},
    )
    box = BoxField(label=_("Box"))

    def __init__(self, *args, targets: Targets, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_add_%s")
        super().__init__(*args, **kwargs)
        self.targets = targets
        self.fields["box"].choices = targets.choices()
        self.fields["text"].widget.attrs.update(
            {"autocomplete": "off", "placeholder": "14 × 4-6-7; 9-1; 2 × LMG"}
        )

    def destination(self) -> tuple[str, ReinforcementGroup | None]:
        return self.targets.resolve(self.cleaned_data["box"])


class VersionedForm(forms.Form):
    version = forms.IntegerField(
        min_value=0,
        error_messages={
            "required": _("This form is out of date: reload the page."),
            "invalid": _("This form is out of date: reload the page."),
            "min_value": _("This form is out of date: reload the page."),
        },
    )


class QuantityForm(VersionedForm):
    """The +1 / −1 buttons: the new quantity."""

    quantity = forms.IntegerField(
        label=_("Quantity"),
        min_value=1,
        max_value=999,
        error_messages={
            "required": _("Enter how many."),
            "invalid": _("Enter the quantity as a whole number."),
            "min_value": _("A quantity must be 1 or more; remove the line instead."),
            "max_value": _("That is more counters than the game has."),
        },
    )


class EditForm(QuantityForm):
    """Quantity, statuses and where / details of one line."""

    statuses = forms.MultipleChoiceField(
        label=_("Statuses"),
        choices=STATUS_CHOICES,
        required=False,
        error_messages={"invalid_choice": _("“%(value)s” is not a status this page knows.")},
    )
    status_note = forms.CharField(label=_("Where / details"), max_length=100, required=False)


class MoveForm(VersionedForm):
    """Move some (or all) of a line to another box."""

    move_quantity = forms.IntegerField(
        label=_("How many"),
        min_value=1,
        error_messages={
            "required": _("Enter how many to move."),
            "invalid": _("Enter how many to move as a whole number."),
            "min_value": _("Move 1 or more."),
        },
    )
    box = BoxField(label=_("To box"))

    def __init__(self, *args, targets: Targets, entry: OrbatEntry, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.targets = targets
        self.entry = entry
        self.fields["box"].choices = targets.choices()

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("move_quantity")
        if count is not None and count > self.entry.quantity:
            self.add_error(
                "move_quantity",
                _("Move between 1 and %(n)s: the line has %(n)s.") % {"n": self.entry.quantity},
            )
        if data.get("box") == target_of(self.entry):
            self.add_error("box", _("The line is already in that box."))
        return data

    def destination(self) -> tuple[str, ReinforcementGroup | None]:
        return self.targets.resolve(self.cleaned_data["box"])


class LinesField(forms.Field):
    """Lines checked on the page, each posted as "<opaque id>:<version>" → {id: version}."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "required": _("Check the lines to move."),
        "invalid": _("This form is out of date: reload the page."),
    }

    def to_python(self, value) -> dict[int, int]:
        lines: dict[int, int] = {}
        for item in value or ():
            token, _sep, version = str(item).partition(":")
            try:
                pk = from_oid(token)
            except ValueError:
                pk = None
            if pk is None or not version.isdigit():
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
            lines[pk] = int(version)
        return lines


class MoveLinesForm(forms.Form):
    """Several whole lines, checked on the page, moved to one box with one submit."""

    lines = LinesField(label=_("Lines"))
    box = BoxField(label=_("To box"))

    def __init__(self, *args, targets: Targets, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.targets = targets
        self.fields["box"].choices = targets.choices()

    def destination(self) -> tuple[str, ReinforcementGroup | None]:
        return self.targets.resolve(self.cleaned_data["box"])


def error_texts(form: forms.Form) -> list[str]:
    """A form's errors as sentences that name the field."""
    texts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            texts.append(f"{label}: {error}" if label and name != "version" else str(error))
    return texts


class RgStatusForm(forms.Form):
    """An RG set to withdrawn, eliminated or expended by hand (campaigns.orbat.lifecycle)."""

    status = forms.ChoiceField(
        choices=[(key, RgStatus(key).label) for key in lifecycle.MANUAL],
        error_messages={
            "required": _("Choose what became of the RG."),
            "invalid_choice": _("An RG is set by hand only to withdrawn, eliminated or expended."),
        },
    )
    # The status the page showed: a change made meanwhile is refused, not overwritten.
    current = forms.ChoiceField(choices=RgStatus.choices)
