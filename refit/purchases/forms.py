"""Forms of the RG purchase pages: buying an RG, taking one back or rolling for one, and the
RG Purchase Record's notes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from refit.rules.purchase_costs import PLACEMENTS


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


class RgNotesForm(forms.Form):
    """The "Other" column of the RG Purchase Record: pre-registered hexes, observer, note."""

    seen = forms.CharField(max_length=40, widget=forms.HiddenInput)
    hexes = forms.CharField(label=_("Pre-registered hexes"), max_length=200, required=False)
    observer_location = forms.CharField(label=_("Offboard observer"), max_length=60, required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    e721 = forms.IntegerField(
        label=_("Stukas: the number E7.21 gives"), min_value=0, max_value=9, required=False
    )
