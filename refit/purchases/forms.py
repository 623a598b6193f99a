"""Forms of the purchase pages: buying an RG, taking one back, rolling for one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from refit.rules.purchase import PLACEMENTS


class BuyForm(forms.Form):
    """One RG of the chart; ``token`` makes a second POST of the same form buy nothing more."""

    reph = forms.IntegerField(widget=forms.HiddenInput)
    token = forms.CharField(max_length=40, widget=forms.HiddenInput)
    rg = forms.CharField(max_length=10, widget=forms.HiddenInput)
    map_group = forms.CharField(label=_("Map group"), max_length=10, required=False)
    placement = forms.ChoiceField(
        label=_("Option"), choices=[(p, p) for p in PLACEMENTS], required=False
    )
    pre_registered_hexes = forms.IntegerField(
        label=_("Pre-registered hexes"), min_value=0, max_value=9, required=False
    )
    stuka_two_cpp = forms.BooleanField(label=_("For 2 CPP (−2 arrival drm)"), required=False)
    override_reason = forms.CharField(
        label=_("Referee: buy past a limit because"), max_length=200, required=False
    )


class RgActionForm(forms.Form):
    """Take back a purchase / roll for an RG: the RePh the page was for."""

    reph = forms.IntegerField(widget=forms.HiddenInput)


class FortificationForm(forms.Form):
    """One line of the Fortification Purchase Table; only the fields its item needs are shown."""

    reph = forms.IntegerField(widget=forms.HiddenInput)
    token = forms.CharField(max_length=40, widget=forms.HiddenInput)
    item = forms.CharField(max_length=30, widget=forms.HiddenInput)
    quantity = forms.IntegerField(label=_("How many"), min_value=1, max_value=99, initial=1)
    size = forms.TypedChoiceField(
        label=_("Size"),
        choices=[("", "—"), (3, "3S"), (2, "2S"), (1, "1S")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    factors = forms.IntegerField(label=_("Factors"), min_value=1, max_value=99, required=False)
    capacity = forms.IntegerField(label=_("Capacity"), min_value=1, max_value=9, required=False)
    ca_drm = forms.IntegerField(label=_("CA DRM"), min_value=0, max_value=9, required=False)
    nca_drm = forms.IntegerField(label=_("NCA DRM"), min_value=0, max_value=9, required=False)
    unit = forms.ChoiceField(
        label=_("Unit"),
        choices=[
            ("", "—"),
            ("afv", "AFV"),
            ("vehicle", _("vehicle")),
            ("squad", _("squad")),
            ("hs", "HS"),
            ("crew", _("crew")),
            ("smc", "SMC"),
        ],
        required=False,
    )
    belt = forms.ChoiceField(
        label=_("Mine Belt"),
        choices=[
            ("", "—"),
            ("ap_6", "6-FP A-P"),
            ("at_2", "2-FP A-T"),
            ("ap_12", "12-FP A-P"),
            ("at_4", "4-FP A-T"),
        ],
        required=False,
    )
    trench = forms.ChoiceField(
        label=_("Trench"),
        choices=[
            ("", _("on its own")),
            ("connected", _("connected to an on-map trench")),
            ("replaces_3s_foxhole", _("replacing an on-map 3S foxhole")),
        ],
        required=False,
    )
    detonating_unit = forms.CharField(label=_("Detonating unit"), max_length=60, required=False)
    under_construction = forms.BooleanField(label=_("Under Construction"), required=False)
    hexes = forms.CharField(label=_("Placement hexes"), max_length=200, required=False)
    hexes_confirmed = forms.BooleanField(
        label=_(
            "Every hex is Russian-controlled and at least 8 hexes from every German-controlled hex"
        ),
        required=False,
    )
    override_reason = forms.CharField(
        label=_("Referee: buy past a limit because"), max_length=200, required=False
    )


class FortificationActionForm(forms.Form):
    """Take back a fortification purchase: the RePh the page was for."""

    reph = forms.IntegerField(widget=forms.HiddenInput)


class FortificationLocationForm(forms.Form):
    """Where a fortification was set up, written at set-up (secret to the side)."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    location = forms.CharField(label=_("Set-up Location"), max_length=200, required=False)
    lost = forms.BooleanField(
        label=_("Lost: a hex no longer qualified at placement"), required=False
    )


class RgNotesForm(forms.Form):
    """The "Other" column of the RG Purchase Record: pre-registered hexes, observer, note."""

    seen = forms.CharField(max_length=40, widget=forms.HiddenInput)
    hexes = forms.CharField(label=_("Pre-registered hexes"), max_length=200, required=False)
    observer_location = forms.CharField(label=_("Offboard observer"), max_length=60, required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    e721 = forms.IntegerField(
        label=_("Stukas: the number E7.21 gives"), min_value=0, max_value=9, required=False
    )
