"""Forms of the short games' pages. Every form that changes a row posts the turn (or the row's
version) it was shown for, so a page left open changes nothing once the game moved on."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.shortgames.units import CP_EDGES, CP_SIZES, UNIT_TYPES, type_label


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


class RollForm(TurnForm):
    table = forms.CharField(max_length=60)
    note = forms.CharField(label=_("Rolled for"), max_length=150, required=False)
    unit = forms.IntegerField(required=False)


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


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0)


class QuickEntryForm(forms.Form):
    text = forms.CharField(
        label=_("Units, one per line"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=20000,
        help_text=_(
            "name | type | nationality or formation | full | reduced | set-up code, hex or "
            "T<turn> (e.g. “18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4”)."
        ),
    )


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Roster data file (JSON)"))
    with_state = forms.BooleanField(
        label=_("Keep each unit's state (to set this game up again)"), required=False
    )


class PointsForm(TurnForm):
    side = forms.CharField(max_length=20)
    kind = forms.CharField(max_length=20)
    action = forms.CharField(max_length=20)
    amount = forms.IntegerField(required=False, min_value=-99, max_value=99)
    unit = forms.IntegerField(required=False)
    note = forms.CharField(max_length=200, required=False)


class ControlForm(forms.Form):
    key = forms.CharField(max_length=40)
    controller = forms.CharField(max_length=20, required=False)
    cut_off = forms.BooleanField(required=False)
    version = forms.IntegerField(min_value=0, required=False)


class RefereeTableForm(forms.Form):
    slot = forms.CharField(max_length=40)
    data = forms.CharField(label=_("Table (JSON)"), widget=forms.Textarea(attrs={"rows": 10}))
    version = forms.IntegerField(min_value=0, required=False)


class CombatForm(forms.Form):
    strengths = forms.CharField(
        label=_("Strength of each unit"),
        max_length=100,
        help_text=_("Comma-separated, e.g. “6, 3”."),
    )
    role = forms.ChoiceField(
        label=_("Rolling for"),
        choices=[("attacker", _("the attacker")), ("defender", _("the defender"))],
    )
    attacker_side = forms.ChoiceField(label=_("Attacking side"))
    modifiers = forms.MultipleChoiceField(
        label=_("Modifiers"), required=False, widget=forms.CheckboxSelectMultiple
    )
    air_points = forms.IntegerField(label=_("Air points"), min_value=0, max_value=3, initial=0)
    note = forms.CharField(label=_("Which combat"), max_length=100, required=False)
    roll = forms.BooleanField(required=False)

    def __init__(self, *args, sides=(), modifiers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attacker_side"].choices = sides
        self.fields["modifiers"].choices = modifiers

    def clean_strengths(self) -> list[int]:
        values = []
        for part in self.cleaned_data["strengths"].replace("、", ",").split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit() or not 0 <= int(part) <= 30:
                raise forms.ValidationError(
                    _("Write whole numbers from 0 to 30, separated by commas.")
                )
            values.append(int(part))
        if not values or len(values) > 10:
            raise forms.ValidationError(_("Give the strength of 1 to 10 units."))
        return values
