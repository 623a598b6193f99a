"""Forms of the fortification page: buying a line of the Fortification Purchase Table, taking a
purchase back, writing where it was set up."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


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
