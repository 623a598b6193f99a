"""Forms of a side's CG Roster row (SideDay) and of its CPP/FPP ledgers."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, LedgerEntry, LedgerKind
from campaigns.models.state import CPP_KINDS, FPP_KINDS

# RF 11.623: each side secretly picks an "Attack" or an "Idle" chit.
RF_CHITS = [("", "—"), ("attack", _("Attack")), ("idle", _("Idle"))]


def period_choices(campaign: Campaign) -> list[tuple[int, str]]:
    language = get_language()
    return [(i, period.label.in_language(language)) for i, period in enumerate(campaign.cg.periods)]


def rg_chart_ids(campaign: Campaign, side: str) -> list[str]:
    """The RG ids of ``side``'s RG chart (empty for a game without RG charts)."""
    chart = campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return [group["id"] for group in chart.get("groups", []) if group.get("id")]


class SideDayForm(forms.Form):
    """One side's values for one CG day. ``version`` is the row's version when rendered."""

    hist_drm = forms.IntegerField(
        label=_("Historical DRM"),
        required=False,
        min_value=-9,
        max_value=9,
        help_text=_(
            "Leave empty while unknown. The rules we have do not print the Historical DRM chart: "
            "the referee fills it in (a side's player when the campaign has no referee)."
        ),
    )
    elr = forms.IntegerField(label=_("ELR"), required=False, min_value=0, max_value=5)
    san = forms.IntegerField(label=_("SAN"), required=False, min_value=0, max_value=7)
    elr_san_revealed = forms.BooleanField(label=_("ELR and SAN announced"), required=False)
    initiative_chit = forms.CharField(label=_("Initiative chit"), required=False, max_length=20)
    chit_revealed = forms.BooleanField(label=_("Chit revealed"), required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        may_set_hist_drm: bool,
        map_groups: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.map_groups = map_groups
        if map_groups:
            # RF CG I (11.58): the chart gives a value per map group (RB CG, RO CG columns).
            del self.fields["hist_drm"]
            for group in map_groups:
                self.fields[hist_drm_field(group)] = forms.IntegerField(
                    label=_("Historical DRM, %(group)s") % {"group": group},
                    required=False,
                    min_value=-9,
                    max_value=9,
                    help_text=_(
                        "The %(group)s map group's value; its rolls and RGs take it. Leave "
                        "empty while unknown."
                    )
                    % {"group": group},
                )
        if not map_groups and not campaign.game.files.get("historical_drm"):
            # No Historical DRM chart in this game (SaP): nothing to ask.
            del self.fields["hist_drm"]
        if campaign.module != "red_factories":
            # The initiative chit is Red Factories' (RF 11.623); SaP has none.
            del self.fields["initiative_chit"], self.fields["chit_revealed"]
        else:
            self.fields["initiative_chit"] = forms.ChoiceField(
                label=_("Initiative chit"),
                required=False,
                choices=RF_CHITS,
                help_text=_("RF 11.623: chosen secretly, revealed together."),
            )
        if not may_set_hist_drm:
            # Shown, not editable: a posted value is ignored in favour of the saved one.
            for name in [*(hist_drm_field(g) for g in map_groups), "hist_drm"]:
                if name in self.fields:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = _(
                        "Only the referee sets the Historical DRM in a campaign that has a referee."
                    )

    def changed_values(self) -> dict[str, Any]:
        """The model fields to save (everything but the version and disabled fields); the
        values per map group as one ``hist_drms`` (a map group left empty is unknown)."""
        values = {
            name: ("" if value is None and name == "initiative_chit" else value)
            for name, value in self.cleaned_data.items()
            if name != "version"
            and not self.fields[name].disabled
            and not name.startswith(HIST_DRM_PREFIX)
        }
        groups = [g for g in self.map_groups if not self.fields[hist_drm_field(g)].disabled]
        if groups:
            values["hist_drms"] = {
                group: self.cleaned_data[hist_drm_field(group)]
                for group in groups
                if self.cleaned_data.get(hist_drm_field(group)) is not None
            }
        return values


HIST_DRM_PREFIX = "hist_drm_"


def hist_drm_field(group: str) -> str:
    """The side-day form's field for one map group's Historical DRM (RF CG I)."""
    return HIST_DRM_PREFIX + group


# A ledger entry is picked as "<ledger>:<kind>" in one select, grouped by ledger.
def entry_value(ledger: str, kind: str) -> str:
    return f"{ledger}:{kind}"


PLAYER_ENTRIES = [
    (LedgerEntry.CPP, LedgerKind.REPLENISHMENT),
    (LedgerEntry.CPP, LedgerKind.RG_PURCHASE),
    (LedgerEntry.CPP, LedgerKind.RECON),
    (LedgerEntry.FPP, LedgerKind.FORTIFICATION_RG),
    (LedgerEntry.FPP, LedgerKind.FORTIFICATION_PURCHASE),
]
RG_KINDS = {LedgerKind.RG_PURCHASE, LedgerKind.FORTIFICATION_RG}
REFEREE_ENTRIES = [
    (LedgerEntry.CPP, LedgerKind.ADJUSTMENT),
    (LedgerEntry.FPP, LedgerKind.ADJUSTMENT),
]


def _entry_choices(entries: list[tuple[str, LedgerKind]]) -> list[tuple[str, Any]]:
    groups: dict[str, list[tuple[str, Any]]] = {}
    for ledger, kind in entries:
        groups.setdefault(ledger.upper(), []).append((entry_value(ledger, kind), kind.label))
    return list(groups.items())


class LedgerEntryForm(forms.Form):
    entry = forms.ChoiceField(label=_("Entry"))
    index = forms.TypedChoiceField(label=_("CG day"), coerce=int)
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_(
            "Type a positive number: a cost (RG purchase, recon, fortification purchase) is "
            "recorded as negative for you. Only a referee adjustment takes a sign: −3 takes "
            "3 away, 3 adds 3."
        ),
    )
    rg = forms.CharField(
        label=_("RG"),
        required=False,
        max_length=10,
        help_text=_("The RG chart id, e.g. I1 (required for an RG purchase)."),
    )
    note = forms.CharField(
        label=_("Note / reason"),
        required=False,
        max_length=200,
        help_text=_("Required for a referee adjustment."),
    )
    locations = forms.IntegerField(
        label=_("Locations reconnoitred"),
        required=False,
        min_value=0,
        max_value=99,
        help_text=_(
            "Recon only: the modified recon dr, the number of Locations written in the CG "
            "Roster's Recon column."
        ),
    )

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        side: str,
        can_overrule: bool,
        map_groups: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.can_overrule = can_overrule  # campaigns.access: the referee alone adjusts
        self.rg_ids = rg_chart_ids(campaign, side)
        self.fields["rg"].widget.attrs.update(list="rg-ids", autocomplete="off")
        # Every kind is accepted by the field so that clean() can say why one is refused;
        # the select offers adjustments to the referee only.
        self.fields["entry"].choices = _entry_choices(PLAYER_ENTRIES + REFEREE_ENTRIES)
        if not can_overrule:
            self.fields["entry"].widget.choices = _entry_choices(PLAYER_ENTRIES)
        self.fields["index"].choices = period_choices(campaign)
        if map_groups:
            # RF CG I (11.58): a replenishment is rolled per map group.
            self.fields["map_group"] = forms.ChoiceField(
                label=_("Map group"),
                required=False,
                choices=[("", "—"), *((g, g) for g in map_groups)],
                help_text=_("CPP replenishment only: the map group the DR was made for (11.58)."),
            )

    def clean_rg(self) -> str:
        return self.cleaned_data["rg"].strip().upper()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        entry = cleaned.get("entry")
        if not entry:
            return cleaned
        ledger, _sep, kind = entry.partition(":")
        cleaned["ledger"], cleaned["kind"] = ledger, kind
        if kind == LedgerKind.ADJUSTMENT:
            if not self.can_overrule:
                self.add_error("entry", _("Only the referee may make adjustments."))
            if not (cleaned.get("note") or "").strip():
                self.add_error("note", _("Give the reason for the adjustment."))
        amount = cleaned.get("amount")
        sign = (CPP_KINDS if ledger == LedgerEntry.CPP else FPP_KINDS).get(kind, 0)
        if amount is not None:
            if sign and amount <= 0:
                self.add_error(
                    "amount",
                    _("Type a number above 0; a cost is recorded as negative for you."),
                )
            elif not sign and amount == 0:
                self.add_error("amount", _("An adjustment cannot be 0."))
            else:
                cleaned["signed_amount"] = amount * sign if sign else amount
        if cleaned.get("locations") is not None and kind != LedgerKind.RECON:
            self.add_error("locations", _("Only a recon payment carries Locations; clear it."))
        if "map_group" in self.fields:
            group = cleaned.get("map_group") or ""
            if kind == LedgerKind.REPLENISHMENT and not group:
                self.add_error("map_group", _("Choose the map group the DR was made for."))
            elif group and kind != LedgerKind.REPLENISHMENT:
                self.add_error("map_group", _("Only a CPP replenishment names a map group."))
        rg = cleaned.get("rg", "")
        if kind == LedgerKind.RG_PURCHASE and not rg:
            self.add_error("rg", _("Name the RG bought (its RG chart id)."))
        elif rg and kind not in RG_KINDS:
            self.add_error(
                "rg",
                _("Only an RG purchase or FPP from a fortification RG names an RG; clear it."),
            )
        elif rg and not self.rg_ids:
            self.add_error("rg", _("This game has no RG chart; leave the RG empty."))
        elif rg and rg not in self.rg_ids:
            self.add_error(
                "rg",
                _("%(rg)s is not on this side's RG chart (%(ids)s).")
                % {"rg": rg, "ids": ", ".join(self.rg_ids)},
            )
        return cleaned
