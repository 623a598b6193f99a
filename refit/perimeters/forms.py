"""Forms of the perimeter page. Each carries the version of the row it was shown with, so a page
left open changes nothing once someone else saved (and a double submit acts once).

Every field is checked here, before anything is saved: a post the page cannot answer (a hex
name too long to go back to, a version no row has) is refused whole, never after the change."""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from refit.rules.perimeter.board import MAIN, MMC, POCKET, SMC, TRUCK, VEHICLE

HEX_HELP = _("Hex names and ranges, e.g. “H41 G42-G45”; three names are an alternate hexrow.")


NOT_A_HEX_NAME = _("The selected hex is not a hex name.")


class VersionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2_147_483_647)
    # The hex the page had selected, to show it again after the change; never saved. A name is
    # letters then digits ("H41", "RBGG41").
    selected = forms.CharField(
        required=False,
        max_length=12,
        widget=forms.HiddenInput,
        validators=[RegexValidator(r"^[A-Za-z]{1,6}[0-9]{1,3}$", NOT_A_HEX_NAME)],
        error_messages={"max_length": NOT_A_HEX_NAME},
    )


class HexesForm(VersionForm):
    hexes = forms.CharField(label=_("Hexes"), max_length=2000, help_text=HEX_HELP)


class ControlForm(HexesForm):
    side = forms.CharField(label=_("Control"), max_length=20, required=False)


class WaterForm(HexesForm):
    water = forms.BooleanField(label=_("Water obstacle"), required=False)


class FireForm(HexesForm):
    burning = forms.BooleanField(label=_("Fire"), required=False)


class UnitsForm(HexesForm):
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            (MMC, _("Infantry MMC")),
            (VEHICLE, _("AFV / vehicle")),
            (SMC, _("SMC")),
            (TRUCK, _("Truck")),
        ],
        required=False,
    )
    label = forms.CharField(label=_("Name"), max_length=40, required=False)
    level = forms.IntegerField(label=_("Level"), min_value=-1, max_value=4, initial=0)
    remove = forms.BooleanField(required=False, widget=forms.HiddenInput)


class MarkerForm(VersionForm):
    origin = forms.CharField(label=_("Marker in"), max_length=10)
    via = forms.CharField(
        label=_("First hex (alternate hexrow)"),
        max_length=10,
        required=False,
        help_text=_("“G42 – H41 → J41”: H41. Empty for a straight hexrow."),
    )
    target = forms.CharField(label=_("Points to"), max_length=10)
    kind = forms.ChoiceField(
        label=_("Step"),
        choices=[(MAIN, _("Perimeter (11.6054)")), (POCKET, _("Pocket (11.6056)"))],
    )


class PocketForm(HexesForm):
    label = forms.CharField(label=_("Levels"), max_length=10, required=False, initial="1")


class EscapeForm(VersionForm):
    units = forms.CharField(label=_("Units (one Location)"), max_length=400, required=False)
    afv = forms.BooleanField(label=_("Mobile AFV"), required=False)
    leader_drm = forms.IntegerField(
        label=_("(Armor) leader / hero DRM"), min_value=-6, max_value=6, initial=0
    )
    hs_equivalents = forms.IntegerField(
        label=_("Half-squad equivalents making the DR"), min_value=0, max_value=12, initial=1
    )
    pp_over_ipc = forms.IntegerField(label=_("PP over IPC"), min_value=0, max_value=12, initial=0)
    encircled = forms.BooleanField(label=_("Encircled"), required=False)
    captured_afv = forms.BooleanField(label=_("Captured AFV"), required=False)
    wounded = forms.BooleanField(label=_("Wounded (lone SMC)"), required=False)


class ScenarioControlForm(VersionForm):
    """Hexes whose control the scenario changed: typed or clicked (``hexes``), or ticked from
    the hexes along the front (``front``); ``side`` the side controlling them now ("" none)."""

    hexes = forms.CharField(label=_("Hexes"), max_length=2000, required=False, help_text=HEX_HELP)
    front = forms.MultipleChoiceField(label=_("Hexes along the front"), required=False)
    side = forms.CharField(label=_("Control"), max_length=20, required=False)

    def __init__(self, *args, front: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["front"].choices = [(name, name) for name in front]


class TakeBackForm(VersionForm):
    hex = forms.CharField(
        max_length=12,
        validators=[RegexValidator(r"^[A-Za-z]{1,6}[0-9]{1,3}$", NOT_A_HEX_NAME)],
    )
