"""The forms of a scenario's end (campaigns.records.end): what happened to a side's OB lines
(``LossesForm``) and the public facts of the end, with the winner (``EndForm``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, CvpPhase, OrbatEntry, Scenario
from campaigns.oid import oid
from campaigns.orbat.names import ob_name
from campaigns.records.forms import (
    COUNT_MAX,
    CVP_RANGE,
    STONE_LOCATION_MODULES,
    side_field,
)
from campaigns.records.losses import OUTCOMES, SquadTypes, known_cvp, outcomes_for
from campaigns.records.victory_data import cvp_values, normal_type
from campaigns.state import split_map_groups


def _count_field(label: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=COUNT_MAX,
        error_messages={
            "min_value": _("A count must be between 0 and 999 (or empty)."),
            "max_value": _("A count must be between 0 and 999 (or empty)."),
        },
    )


def from_table(known: int | None, entry: OrbatEntry, table: dict[str, int]) -> int | None:
    if known is not None:
        return known
    return table.get(normal_type(entry.unit_type).casefold())


def region_condition(campaign: Campaign) -> tuple[str, str] | None:
    """The side and the area's words of a CG VC counted over part of a map, or None."""
    definition = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    vc = (
        ((definition.get(campaign.campaign_game) or {}).get("victory") or {}).get("structured")
        or {}
    ).get("campaign") or {}
    for group_vc in (vc.get("per_map_group") or {"": vc}).values():
        for condition in group_vc.get("any_of") or ():
            region = condition.get("region") or {}
            if region:
                where = region.get(get_language() or "en") or region.get("en") or ""
                return str(group_vc.get("side", "")), str(where)
    return None


@dataclass(frozen=True)
class LossRow:
    """One OB line offered on the scenario's end page, with its fields."""

    entry: OrbatEntry
    known_cvp: int | None
    outcome: forms.BoundField
    quantity: forms.BoundField
    cvp_each: forms.BoundField
    phase: forms.BoundField
    no_cvp: forms.BoundField | None
    version: forms.BoundField


class LossesForm(forms.Form):
    """What happened to the side's OB lines at the scenario's end: per line an outcome
    (campaigns.records.losses), how many, the CVP each (pre-filled where the app knows it), when
    (11.6031) and, in Red Factories, CG18's "no CVP". A line left blank is left alone."""

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        entries: list[OrbatEntry],
        types: SquadTypes,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.campaign = campaign
        self.entries = entries
        # What A26.2 gives from the unit's type, else the CVP table the players entered (SWs,
        # AFVs, Guns: campaigns.records.victory_data); neither: typed at the end as before.
        table = cvp_values(campaign) if entries else {}
        self.known = {
            entry.pk: from_table(known_cvp(entry.unit_type, entry.kind, types), entry, table)
            for entry in entries
        }
        rf = campaign.module in STONE_LOCATION_MODULES
        labels = outcome_labels(campaign)
        language = get_language()
        for entry in entries:
            pk = entry.pk
            key = oid(pk)
            unit = ob_name(entry.unit_type, campaign.module, campaign.campaign_game, language)
            self.fields[f"outcome_{key}"] = forms.ChoiceField(
                label=_("What happened to %(unit)s") % {"unit": unit},
                required=False,
                choices=[("", _("nothing")), *((k, labels[k]) for k in outcomes_for(entry.kind))],
                error_messages={"invalid_choice": _("Choose one of the outcomes offered.")},
            )
            self.fields[f"quantity_{key}"] = forms.IntegerField(
                label=_("How many"),
                required=False,
                min_value=1,
                max_value=entry.quantity,
                initial=entry.quantity,
                error_messages={
                    "min_value": _("Between 1 and %(n)s.") % {"n": entry.quantity},
                    "max_value": _("Between 1 and %(n)s.") % {"n": entry.quantity},
                },
            )
            self.fields[f"cvp_{key}"] = forms.IntegerField(
                label=_("CVP each"),
                required=False,
                min_value=0,
                max_value=CVP_RANGE[1],
                initial=self.known[pk],
                error_messages={
                    "min_value": _("CVP must be between 0 and 999."),
                    "max_value": _("CVP must be between 0 and 999."),
                },
            )
            self.fields[f"phase_{key}"] = forms.ChoiceField(
                label=_("When"),
                choices=CvpPhase.choices,
                initial=CvpPhase.SCENARIO,
                required=False,
                error_messages={"invalid_choice": _("Choose when it was lost.")},
            )
            if rf:
                self.fields[f"nocvp_{key}"] = forms.BooleanField(
                    label=_("No CVP (CG18)"), required=False
                )
            self.fields[f"version_{key}"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=entry.version, min_value=0, required=False
            )

    def rows(self) -> list[LossRow]:
        return [
            LossRow(
                entry=entry,
                known_cvp=self.known[entry.pk],
                outcome=self[f"outcome_{oid(entry.pk)}"],
                quantity=self[f"quantity_{oid(entry.pk)}"],
                cvp_each=self[f"cvp_{oid(entry.pk)}"],
                phase=self[f"phase_{oid(entry.pk)}"],
                no_cvp=self[f"nocvp_{oid(entry.pk)}"]
                if f"nocvp_{oid(entry.pk)}" in self.fields
                else None,
                version=self[f"version_{oid(entry.pk)}"],
            )
            for entry in self.entries
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = 0
        for entry in self.entries:
            pk = entry.pk
            key = oid(pk)
            outcome = cleaned.get(f"outcome_{key}")
            if not outcome:
                continue
            chosen += 1
            if cleaned.get(f"version_{key}") is None:
                # The page always posts it: without it, another device's change could be lost.
                raise forms.ValidationError(
                    _("The page was out of date: reload it and record again.")
                )
            cleaned[f"phase_{key}"] = cleaned.get(f"phase_{key}") or CvpPhase.SCENARIO
            if cleaned.get(f"quantity_{key}") is None and f"quantity_{key}" not in self.errors:
                cleaned[f"quantity_{key}"] = entry.quantity
            if cleaned.get(f"cvp_{key}") is None and self.known[pk] is not None:
                cleaned[f"cvp_{key}"] = self.known[pk]  # left blank: what the app knows
            worth = OUTCOMES[outcome].loss
            no_cvp = cleaned.get(f"nocvp_{key}", False)
            missing = cleaned.get(f"cvp_{key}") is None and f"cvp_{key}" not in self.errors
            if worth and not no_cvp and missing:
                self.add_error(
                    f"cvp_{key}",
                    _(
                        "Give the CVP of one %(unit)s (A26.2; 0 if it is worth none): the app "
                        "cannot tell it from the unit's type."
                    )
                    % {"unit": entry.unit_type},
                )
        if not chosen and not self.errors:
            raise forms.ValidationError(_("Choose what happened to at least one unit."))
        return cleaned

    def losses(self) -> list[dict[str, Any]]:
        """Per chosen line: the keyword arguments of a ``services.Loss``."""
        data = self.cleaned_data
        chosen = []
        for entry in self.entries:
            pk = entry.pk
            key = oid(pk)
            if not data.get(f"outcome_{key}"):
                continue
            chosen.append(
                {
                    "entry": entry,
                    "version": data[f"version_{key}"],
                    "outcome": data[f"outcome_{key}"],
                    "quantity": data[f"quantity_{key}"],
                    "cvp_each": data.get(f"cvp_{key}") or 0,
                    "phase": data[f"phase_{key}"],
                    "no_cvp": data.get(f"nocvp_{key}", False),
                }
            )
        return chosen


def outcome_labels(campaign: Campaign) -> dict[str, Any]:
    """The outcomes in the reader's words; an uncontrolled exit by the game's own rule."""
    exited = (
        _("exited from an uncontrolled hex (no CVP, CG11)")
        if campaign.module not in STONE_LOCATION_MODULES
        else _("exited from an uncontrolled hex (CVP for victory only, CG13)")
    )
    return {
        "eliminated": _("eliminated"),
        "captured": _("captured (prisoner)"),
        "wreck": _("wrecked (stays on the map)"),
        "exited_uncontrolled": exited,
        "wounded": _("wounded (to the Wounded leaders box)"),
        "immobilized": _("immobilized"),
        "abandoned": _("abandoned"),
    }


# The per-side counts a scenario's end records besides the OB lines (rules that read them).
END_COUNTS = (
    ("heroes", _("%(side)s: heroes created"), "11.6112"),
    ("exits", _("%(side)s: units exited from controlled hexes"), ""),
)
LOCATION_FIELDS = (
    ("gained", _("%(side)s: Stone Locations gained")),
    ("lost", _("%(side)s: Stone Locations lost")),
    ("controlled", _("%(side)s: Stone Locations controlled at the end")),
)


class EndForm(forms.Form):
    """The public facts of a scenario's end: per side the Stone Locations gained, lost and
    controlled at the end (Red Factories), heroes created and units exited; who controls every
    Stone Location; and the winner, which counts only where the VC cannot be evaluated."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, campaign: Campaign, scenario: Scenario, **kw: Any) -> None:
        if "initial" not in kw:
            kw["initial"] = self.initial_from(scenario)
        super().__init__(*args, **kw)
        self.campaign = campaign
        self.stone = campaign.module in STONE_LOCATION_MODULES
        language = get_language()
        self.side_rows: list[tuple[str, list[str]]] = []
        for side in campaign.sides:
            name = side.name.in_language(language)
            names = []
            if self.stone:
                for key, label in LOCATION_FIELDS:
                    self.fields[f"{key}_{side.key}"] = _count_field(label % {"side": name})
                    names.append(f"{key}_{side.key}")
            for key, label, _rule in END_COUNTS:
                self.fields[f"{key}_{side.key}"] = _count_field(label % {"side": name})
                names.append(f"{key}_{side.key}")
            self.side_rows.append((name, names))
        # RF CG I's initial scenario: its VC are judged per map group (11.58), on counts
        # recorded for each group.
        # The CG VC are judged per map group too, at the end of every CG scenario (11.58).
        self.map_groups = split_map_groups(campaign)
        for group in self.map_groups if self.stone else ():
            for side in campaign.sides:
                name = f"{side.name.in_language(language)}, {group}"
                names = []
                for key, label in LOCATION_FIELDS:
                    field = f"{key}_{side.key}_{group}"
                    self.fields[field] = _count_field(label % {"side": name})
                    names.append(field)
                self.side_rows.append((name, names))
        # A CG VC counted over part of a map (RB CG I: on/west of hexrow U and north of the
        # gully): the Stone Locations the VC's side controls there at the end.
        self.region = region_condition(campaign) if self.stone else None
        if self.region is not None:
            side_key, where = self.region
            name = campaign.side(side_key).name.in_language(language)
            self.fields[f"region_{side_key}"] = _count_field(
                _("%(side)s: Stone Locations controlled at the end in the CG VC area (%(where)s)")
                % {"side": name, "where": where}
            )
            self.side_rows.append((name, [f"region_{side_key}"]))
        if self.stone:
            self.fields["all_stone_locations"] = side_field(
                campaign, _("Controls every Stone Location at the end"), _("Neither side")
            )
        self.fields["winner"] = side_field(campaign, _("Winner"), _("Not decided"))

    @staticmethod
    def initial_from(scenario: Scenario) -> dict[str, Any]:
        initial: dict[str, Any] = {"version": scenario.version, "winner": scenario.winner}
        for side, counts in (scenario.locations or {}).items():
            for key in ("gained", "lost", "controlled"):
                initial[f"{key}_{side}"] = (counts or {}).get(key)
        end = scenario.end or {}
        for key, _label, _rule in END_COUNTS:
            for side, count in (end.get(key) or {}).items():
                initial[f"{key}_{side}"] = count
        initial["all_stone_locations"] = end.get("all_stone_locations", "")
        for side, count in (end.get("region") or {}).items():
            initial[f"region_{side}"] = count
        for group, by_side in (end.get("map_groups") or {}).items():
            for side, counts in (by_side or {}).items():
                for key in ("gained", "lost", "controlled"):
                    initial[f"{key}_{side}_{group}"] = (counts or {}).get(key)
        return initial

    def side_fields(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(name, [self[field] for field in names]) for name, names in self.side_rows]

    def locations(self) -> dict[str, dict[str, int]]:
        data = self.cleaned_data
        result: dict[str, dict[str, int]] = {}
        for side in self.campaign.game.side_keys:
            counts = {
                key: data[f"{key}_{side}"]
                for key, _label in LOCATION_FIELDS
                if data.get(f"{key}_{side}") is not None
            }
            if counts:
                result[side] = counts
        return result

    def end(self) -> dict[str, Any]:
        data = self.cleaned_data
        end: dict[str, Any] = {}
        for key, _label, _rule in END_COUNTS:
            counts = {
                side: data[f"{key}_{side}"]
                for side in self.campaign.game.side_keys
                if data.get(f"{key}_{side}") is not None
            }
            if counts:
                end[key] = counts
        if data.get("all_stone_locations"):
            end["all_stone_locations"] = data["all_stone_locations"]
        groups: dict[str, dict[str, dict[str, int]]] = {}
        for group in self.map_groups if self.stone else ():
            for side in self.campaign.game.side_keys:
                counts = {
                    key: data[f"{key}_{side}_{group}"]
                    for key, _label in LOCATION_FIELDS
                    if data.get(f"{key}_{side}_{group}") is not None
                }
                if counts:
                    groups.setdefault(group, {})[side] = counts
        if groups:
            end["map_groups"] = groups
        if self.region is not None:
            side_key = self.region[0]
            if data.get(f"region_{side_key}") is not None:
                end["region"] = {side_key: data[f"region_{side_key}"]}
        return end
