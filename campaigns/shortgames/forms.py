"""Forms of the short games' pages: everything typed is read here (the units of a quick entry or
a data file, a referee's JSON table); the combat helpers' forms are in ``combat_forms``. Every
form that changes a row posts the turn (or the row's version) it was shown for, so a page left
open changes nothing once the game moved on."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from campaigns.shortgames.rules.cherkassy import grids
from campaigns.shortgames.units import (
    CP_EDGES,
    CP_SIZES,
    UNIT_TYPES,
    UnitData,
    UnitDataError,
    parse_quick_entry,
    read_file,
    type_label,
)

# The most a roster data file may weigh.
MAX_FILE_BYTES = 2_000_000


def error_texts(form: forms.Form) -> str:
    """A form's errors as one sentence per field, each naming the field (a version is the
    page's, not the user's: its error speaks for itself)."""
    texts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            texts.append(f"{label}: {error}" if label and name != "version" else str(error))
    return " ".join(texts)


class FlagField(forms.Field):
    """A hidden "1" the page sends for yes; anything else (or nothing) is no."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return value == "1"


class IdListField(forms.Field):
    """Row ids ticked on the page (checkboxes of one name); what is not an id is left out."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, most: int | None = None, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.most = most

    def to_python(self, value: Any) -> list[int]:
        ids = [int(item) for item in value or () if str(item).isdigit()]
        return ids if self.most is None else ids[: self.most]


class KnownValuesField(forms.Field):
    """Values ticked on the page, keeping only those the page offers (set by the form)."""

    widget = forms.MultipleHiddenInput

    def __init__(self, known: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.known = tuple(known)

    def to_python(self, value: Any) -> list[str]:
        return [item for item in value or () if item in self.known]


class TurnForm(forms.Form):
    turn = forms.IntegerField(min_value=0)


class ArriveForm(TurnForm):
    version = forms.IntegerField(min_value=0)
    hex = forms.CharField(label=_("Hex"), max_length=20, required=False)


class StartForm(forms.Form):
    options = forms.MultipleChoiceField(
        label=_("Optional rules"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["options"].choices = choices


class MarkForm(TurnForm):
    action = forms.ChoiceField(choices=[("done", _("Done")), ("skip", _("Skip"))])
    reason = forms.CharField(label=_("Why skipped"), max_length=200, required=False)
    note = forms.CharField(label=_("What happened"), max_length=2000, required=False)
    order = forms.ChoiceField(
        label=_("Order of movement and combat"),
        choices=[
            ("", "—"),
            ("move_first", _("Movement first, then combat")),
            ("combat_first", _("Combat first, then movement")),
        ],
        required=False,
    )


class RollForm(TurnForm):
    table = forms.CharField(max_length=60)
    note = forms.CharField(label=_("Rolled for"), max_length=150, required=False)
    unit = forms.IntegerField(required=False)
    # DR 11.52: the nearest Axis unit's distance to the fleet raided, in hexes (declared).
    distance = forms.IntegerField(required=False, min_value=1, max_value=99)


class WeatherForm(TurnForm):
    weather = forms.ChoiceField(label=_("Weather"))
    version = forms.IntegerField(min_value=0)

    def __init__(self, *args, weathers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weather"].choices = weathers


class UnitForm(forms.Form):
    """One unit's printed values and state; the choices depend on the game."""

    name = forms.CharField(label=_("Name"), max_length=60)
    unit_type = forms.ChoiceField(label=_("Type"))
    nationality = forms.CharField(label=_("Nationality"), max_length=20, required=False)
    formation = forms.CharField(label=_("Formation"), max_length=40, required=False)
    size = forms.ChoiceField(label=_("Size"), required=False)
    full = forms.CharField(label=_("Full strength"), max_length=20, required=False)
    reduced = forms.CharField(label=_("Reduced strength"), max_length=20, required=False)
    steps = forms.TypedChoiceField(
        label=_("Steps"), coerce=int, choices=[(2, "2"), (1, "1")], initial=2
    )
    setup = forms.CharField(label=_("Set-up code or hex"), max_length=20, required=False)
    arrival_turn = forms.IntegerField(label=_("Arrival turn"), min_value=0, required=False)
    arrival_edge = forms.ChoiceField(label=_("Entry edge"), required=False)
    marked_n = forms.BooleanField(label=_("Marked N"), required=False)
    with_5gtc = forms.BooleanField(
        label=_("Starts with 5 GTC (a 5 MC tank brigade: it attacks with 5 GTC, 11.18)"),
        required=False,
    )
    artillery_range = forms.IntegerField(
        label=_("Artillery range in hexes (printed left of the branch symbol, 11.22)"),
        min_value=1,
        max_value=20,
        required=False,
    )
    state = forms.ChoiceField(label=_("State"))
    hex = forms.CharField(label=_("Hex"), max_length=20, required=False)
    out_of_supply = forms.BooleanField(label=_("Out of supply"), required=False)
    msl = forms.BooleanField(label=_("MSL"), required=False)
    artillery_used = forms.BooleanField(label=_("Artillery used (ACT)"), required=False)
    in_pocket = forms.BooleanField(label=_("Stemmermann Group"), required=False)
    reconstituted = forms.BooleanField(label=_("Returned by reconstitution"), required=False)
    notes = forms.CharField(label=_("Notes"), max_length=200, required=False)

    CP_ONLY = (
        "formation",
        "size",
        "arrival_edge",
        "marked_n",
        "with_5gtc",
        "artillery_range",
        "msl",
        "artillery_used",
        "in_pocket",
        "reconstituted",
    )
    DR_ONLY = ("nationality",)

    def __init__(self, *args, module: str, states=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.module = module
        self.fields["unit_type"].choices = [(t, type_label(t)) for t in UNIT_TYPES[module]]
        self.fields["size"].choices = [("", "—"), *[(s, s) for s in CP_SIZES]]
        self.fields["arrival_edge"].choices = [("", "—"), *[(e, e) for e in CP_EDGES]]
        self.fields["state"].choices = states
        for name in self.CP_ONLY if module == "defiant_russia" else self.DR_ONLY:
            del self.fields[name]

    def unit_data(self, side: str) -> UnitData:
        """The unit as typed, for ``side`` (texts trimmed, the nationality in lower case)."""
        values = dict(self.cleaned_data)
        for key in TEXT_FIELDS:
            values[key] = (values.get(key) or "").strip()
        if values.get("nationality"):
            values["nationality"] = values["nationality"].lower()
        return UnitData(
            side=side, **{k: v for k, v in values.items() if k in UnitData.__dataclass_fields__}
        )

    def changes(self, side: str) -> dict[str, Any]:
        """The fields this form edits, as ``unit_data`` reads them (for changing a unit)."""
        return {k: v for k, v in vars(self.unit_data(side)).items() if k in self.cleaned_data}


# The unit form's texts, trimmed; a field the game does not have reads as "".
TEXT_FIELDS = (
    "nationality",
    "formation",
    "size",
    "full",
    "reduced",
    "setup",
    "arrival_edge",
    "hex",
    "notes",
)


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0)


class QuickEntryForm(forms.Form):
    """The quick-entry box; bound with the game and side, its ``units`` are the lines read."""

    text = forms.CharField(
        label=_("Units, one per line"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=20000,
        help_text=_(
            "name | type | nationality or formation | full | reduced | set-up code, hex or "
            "T<turn> (e.g. “18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4”)."
        ),
    )

    def __init__(self, *args: Any, module: str = "", side: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.module, self.side = module, side

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "text" in data:
            try:
                data["units"] = parse_quick_entry(self.module, self.side, data["text"])
            except UnitDataError as error:
                self.add_error("text", str(error))
        return data


class UploadForm(forms.Form):
    """A roster data file; bound with the game, its ``units`` are the file's units."""

    file = forms.FileField(label=_("Roster data file (JSON)"))
    with_state = forms.BooleanField(
        label=_("Keep each unit's state (to set this game up again)"), required=False
    )

    def __init__(self, *args: Any, module: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.module = module

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "file" in data:
            try:
                data["units"] = self._units(data["file"], with_state=data.get("with_state", False))
            except UnitDataError as error:
                self.add_error("file", str(error))
        return data

    def _units(self, file: Any, *, with_state: bool) -> list[UnitData]:
        if file.size > MAX_FILE_BYTES:
            raise UnitDataError(gettext("The file is larger than a roster can be."))
        try:
            payload = json.loads(file.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise UnitDataError(gettext("The file is not JSON.")) from None
        return read_file(self.module, payload, with_state=with_state)


class PointsForm(TurnForm):
    side = forms.CharField(max_length=20)
    kind = forms.CharField(max_length=20)
    action = forms.CharField(max_length=20)
    amount = forms.IntegerField(required=False, min_value=-99, max_value=99)
    unit = forms.IntegerField(required=False)
    version = forms.IntegerField(required=False)
    note = forms.CharField(max_length=200, required=False)
    front = forms.CharField(max_length=10, required=False)  # CP 11.16: a Soviet Front's share


class ControlForm(forms.Form):
    key = forms.CharField(max_length=40)
    controller = forms.CharField(max_length=20, required=False)
    cut_off = forms.BooleanField(required=False)
    version = forms.IntegerField(min_value=0, required=False)


class PocketForm(VersionForm):
    """Cherkassy's ring (the Stemmermann Group): whether it closed, and the German units in it."""

    formed = FlagField()
    members = IdListField()


class ConditionForm(VersionForm):
    """A victory condition the players tick by hand."""

    condition = forms.CharField(required=False)
    met = FlagField()


class RefereeTableForm(forms.Form):
    """One of the tables the rules we have leave out, as JSON; ``data`` is the table read."""

    slot = forms.ChoiceField(label=_("Which table"))
    data = forms.CharField(label=_("Table (JSON)"), widget=forms.Textarea(attrs={"rows": 10}))
    version = forms.IntegerField(min_value=0, required=False)

    def __init__(self, *args: Any, slots: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = [(slot, slot) for slot in slots]

    def clean_data(self) -> Any:
        try:
            return json.loads(self.cleaned_data["data"])
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                gettext("Not JSON: %(error)s") % {"error": error.msg}
            ) from None


def read_grid(data: Any) -> grids.Grid:
    """The grid a referee table's form sent: ``column`` headers, ``label`` per row and
    ``cell-<row>-<column>`` (0-based), bounded so a crafted form cannot grow it without end."""
    columns = [c[:100] for c in data.getlist("column")[: grids.MAX_COLUMNS + 1]]
    labels = [label[:100] for label in data.getlist("label")[: grids.MAX_ROWS + 1]]
    return grids.make_grid(
        columns,
        [
            (label, [data.get(f"cell-{i}-{j}", "")[:100] for j in range(len(columns))])
            for i, label in enumerate(labels)
        ],
    )


class TablesFileForm(forms.Form):
    """A file of referee tables downloaded from an earlier game."""

    file = forms.FileField(label=_("Tables file (JSON)"))

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > MAX_FILE_BYTES:
            raise forms.ValidationError(gettext("The file is too large."))
        try:
            payload = json.loads(file.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise forms.ValidationError(gettext("The file is not JSON.")) from None
        found = grids.read_tables_file(payload)
        if not isinstance(found, list):
            raise forms.ValidationError(found.in_language(get_language()))
        return found
