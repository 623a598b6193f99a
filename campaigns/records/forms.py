"""Forms for the public records: the calendar, the scenarios played and the CVP tally.

Each form is built for one campaign: the days it offers are that campaign-game's calendar, the
sides that game's sides, the scenario types those that fit the game. Changes still go through
campaigns.records.services, which checks the day and the sides again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.games.weather import ec_types_of, key_of, label_of, offered, types_of
from campaigns.models import Campaign, CvpPhase, OrbatEntry, Scenario, ScenarioType
from campaigns.periods import day_choices, day_label, period_month, period_word, side_choices
from campaigns.records.losses import OUTCOMES, SquadTypes, known_cvp, outcomes_for

# Which scenario types fit which kind of game: Red Factories plays an initial scenario, then Dual
# Attacks and Assaults (11.6235); Slaughter at Ponyri records its time frames; the short games
# (Defiant Russia, Cherkassy Pocket) their game turns.
SCENARIO_TYPES: dict[str, tuple[ScenarioType, ...]] = {
    "cg_day": (ScenarioType.INITIAL, ScenarioType.DUAL_ATTACK, ScenarioType.ASSAULT),
    "time_frame": (ScenarioType.TIME_FRAME,),
    "turn": (ScenarioType.TURN,),
}

# Red Factories' VC count Stone Locations (11.6235, 11.51–11.58) and its SSRs (night scenarios,
# CG13, CG18) shape its forms; SaP's CG VC need the map and its SSRs are its own (CG8, CG11).
STONE_LOCATION_MODULES = ("red_factories",)

CVP_RANGE = (1, 999)
COUNT_MAX = 999


def scenario_types(campaign: Campaign) -> tuple[ScenarioType, ...]:
    return SCENARIO_TYPES.get(campaign.game.period_kind, tuple(ScenarioType))


def scenario_label(campaign: Campaign, scenario: Scenario) -> str:
    label = day_label(campaign, scenario.index)
    if scenario.sequence != 1:
        label = f"{label} #{scenario.sequence}"
    return f"{label} — {scenario.get_scenario_type_display()}"


def _day_field(campaign: Campaign, label: Any) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label,
        choices=day_choices(campaign),
        coerce=int,
        error_messages={"invalid_choice": _("Choose a day of this campaign's calendar.")},
    )


def _side_field(campaign: Campaign, label: Any, blank: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        choices=[("", blank), *side_choices(campaign)],
        required=False,
        error_messages={"invalid_choice": _("Choose one of this game's sides.")},
    )


class DayForm(forms.Form):
    """The public facts of one calendar day. Empty means unknown (not in our data)."""

    moon = forms.CharField(label=_("Moon"), max_length=30, required=False)
    weather = forms.CharField(label=_("Weather"), max_length=30, required=False)
    ec = forms.CharField(label=_("EC"), max_length=30, required=False)
    wind = forms.CharField(label=_("Wind"), max_length=30, required=False)
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    FIELDS = ("moon", "weather", "ec", "wind", "notes")

    def __init__(
        self,
        *args: Any,
        weathers: list[tuple[str, str]] | None = None,
        ecs: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        if ecs is not None:
            # Red Factories names its ECs (the DRMs of the next EC roll read the key).
            self.fields["ec"] = forms.ChoiceField(
                label=_("EC"),
                choices=[("", _("unknown")), *ecs],
                required=False,
                error_messages={"invalid_choice": _("Choose one of this game's ECs.")},
            )
        if weathers is not None:
            # The game names its weathers (the short games): the rules read the key, so a
            # typed "Mud" or "light mud" must never reach them.
            self.fields["weather"] = forms.ChoiceField(
                label=_("Weather"),
                choices=[("", _("unknown")), *weathers],
                required=False,
                error_messages={"invalid_choice": _("Choose one of this game's weathers.")},
            )

    def changes(self) -> dict[str, str]:
        return {name: self.cleaned_data[name] for name in self.FIELDS}


class ScenarioForm(forms.Form):
    """One scenario played (RF), time frame (SaP) or game turn (the short games)."""

    sequence = forms.IntegerField(
        label=_("Sequence"),
        min_value=1,
        max_value=9,
        initial=1,
        help_text=_("2 for a second scenario on the same day (RO CG I, 23 Oct)."),
        error_messages={
            "min_value": _("The sequence is 1, or 2 for a second scenario on the same day."),
            "max_value": _("The sequence is 1, or 2 for a second scenario on the same day."),
        },
    )
    night = forms.BooleanField(label=_("Night"), required=False)
    turns_played = forms.IntegerField(
        label=_("Turns played"),
        required=False,
        min_value=1,
        max_value=99,
        error_messages={
            "min_value": _("Turns played must be between 1 and 99 (or empty)."),
            "max_value": _("Turns played must be between 1 and 99 (or empty)."),
        },
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, required=False)

    def __init__(self, *args: Any, campaign: Campaign, scenario: Scenario | None = None, **kw):
        self.campaign = campaign
        self.scenario = scenario
        if scenario is not None and "initial" not in kw:
            kw["initial"] = self.initial_from(scenario)
        super().__init__(*args, **kw)
        self.fields["index"] = _day_field(campaign, period_word(campaign))
        self.fields["scenario_type"] = forms.ChoiceField(
            label=_("Type"),
            choices=[(t.value, t.label) for t in scenario_types(campaign)],
            error_messages={"invalid_choice": _("Choose one of the types this game has.")},
        )
        self.fields["attacker"] = _side_field(campaign, _("Attacker"), _("None"))
        self.fields["sets_up_first"] = _side_field(campaign, _("Set up first"), _("Not recorded"))
        self.fields["moves_first"] = _side_field(campaign, _("Moved first"), _("Not recorded"))
        self.fields["winner"] = _side_field(campaign, _("Winner"), _("Not decided"))
        language = get_language()
        for side in campaign.sides:
            name = side.name.in_language(language)
            for key, label in (
                ("gained", _("%(side)s: Locations gained")),
                ("lost", _("%(side)s: Locations lost")),
            ):
                self.fields[f"locations_{side.key}_{key}"] = forms.IntegerField(
                    label=label % {"side": name},
                    required=False,
                    min_value=0,
                    max_value=COUNT_MAX,
                    error_messages={
                        "min_value": _("A count must be between 0 and 999 (or empty)."),
                        "max_value": _("A count must be between 0 and 999 (or empty)."),
                    },
                )
        if scenario is not None:
            self.fields["version"].required = True
        if scenario is not None and (scenario.end or {}).get("winner_by") == "rules":
            # The VC gave the winner from the recorded end: it is not typed again here.
            self.fields["winner"].disabled = True
            self.fields["winner"].help_text = _(
                "Derived from the VC on the scenario's end page; change what was recorded there."
            )
        self.stone_locations = campaign.module in STONE_LOCATION_MODULES
        if not self.stone_locations:
            # Red Factories only: night scenarios (11.6234) and RO CG I's second scenario on
            # 23 Oct; SaP has no night turns [spec sap §1] and one time frame per slot.
            del self.fields["night"]
            self.fields["sequence"].help_text = ""
        self.order_fields(self.MAIN_FIELDS)

    @staticmethod
    def initial_from(scenario: Scenario) -> dict[str, Any]:
        initial: dict[str, Any] = {
            name: getattr(scenario, name)
            for name in (
                "index",
                "sequence",
                "scenario_type",
                "attacker",
                "sets_up_first",
                "moves_first",
                "winner",
                "night",
                "turns_played",
                "notes",
                "version",
            )
        }
        for side, counts in (scenario.locations or {}).items():
            if isinstance(counts, dict):
                for key in ("gained", "lost"):
                    initial[f"locations_{side}_{key}"] = counts.get(key)
        return initial

    MAIN_FIELDS = (
        "index",
        "sequence",
        "scenario_type",
        "attacker",
        "sets_up_first",
        "moves_first",
        "winner",
        "night",
        "turns_played",
    )

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.MAIN_FIELDS if name in self.fields]

    def side_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """(side name, gained field, lost field) for each side, for the template."""
        language = get_language()
        return [
            (
                side.name.in_language(language),
                self[f"locations_{side.key}_gained"],
                self[f"locations_{side.key}_lost"],
            )
            for side in self.campaign.sides
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        index, sequence = cleaned.get("index"), cleaned.get("sequence")
        if index is not None and sequence is not None:
            taken = Scenario.objects.filter(campaign=self.campaign, index=index, sequence=sequence)
            if self.scenario is not None:
                taken = taken.exclude(pk=self.scenario.pk)
            if taken.exists():
                self.add_error(
                    "sequence",
                    _(
                        "%(day)s already has a scenario with sequence %(n)s: edit that one, or "
                        "give this one sequence 2."
                    )
                    % {"day": day_label(self.campaign, index), "n": sequence},
                )
        return cleaned

    def scenario_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        locations: dict[str, dict[str, int]] = {}
        kept = (self.scenario.locations or {}) if self.scenario is not None else {}
        for side in self.campaign.game.side_keys:
            # What the scenario's end recorded besides gained and lost (Stone Locations
            # controlled at the end) is kept.
            counts = {
                key: value
                for key, value in (kept.get(side) or {}).items()
                if key not in ("gained", "lost")
            }
            counts.update(
                {
                    key: data[f"locations_{side}_{key}"]
                    for key in ("gained", "lost")
                    if data.get(f"locations_{side}_{key}") is not None
                }
            )
            if counts:
                locations[side] = counts
        return {
            "index": data["index"],
            "sequence": data["sequence"],
            "scenario_type": data["scenario_type"],
            "attacker": data["attacker"],
            "sets_up_first": data["sets_up_first"],
            "moves_first": data["moves_first"],
            "winner": data["winner"],
            "night": data.get("night", False),
            "turns_played": data["turns_played"],
            "locations": locations,
            "notes": data["notes"],
        }


class CvpForm(forms.Form):
    """One casualty: the side that lost it, when, what, and how many CVP (A26.2, 11.12)."""

    phase = forms.ChoiceField(label=_("When"), choices=CvpPhase.choices, initial=CvpPhase.SCENARIO)
    what = forms.CharField(label=_("What was lost"), max_length=100)
    cvp = forms.IntegerField(
        label=_("CVP"),
        min_value=CVP_RANGE[0],
        max_value=CVP_RANGE[1],
        error_messages={
            "min_value": _("CVP must be between 1 and 999."),
            "max_value": _("CVP must be between 1 and 999."),
            "required": _("Give the CVP (1 to 999)."),
        },
    )
    exited_uncontrolled = forms.BooleanField(
        label=_("Exited from an uncontrolled hex"),
        required=False,
        help_text=_("Counts for victory, not for the CPP replenishment DRM (CG13)."),
    )
    no_cvp = forms.BooleanField(
        label=_("No CVP"),
        required=False,
        help_text=_("E.g. eliminated underground on the last CG day (CG18)."),
    )
    manual = forms.BooleanField(
        label=_("Stays on the map"),
        required=False,
        help_text=_("E.g. a wreck that cannot be removed."),
    )

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        scenarios: Iterable[Scenario],
        only_day: int | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.campaign = campaign
        self.scenarios = {scenario.pk: scenario for scenario in scenarios}
        self.fields["side"] = forms.ChoiceField(
            label=_("Side that lost it"),
            choices=side_choices(campaign),
            error_messages={"invalid_choice": _("Choose one of this game's sides.")},
        )
        self.fields["index"] = _day_field(campaign, period_word(campaign))
        self.fields["scenario"] = forms.TypedChoiceField(
            label=_("Scenario"),
            required=False,
            coerce=int,
            empty_value=None,
            choices=self._scenario_choices(only_day),
            error_messages={"invalid_choice": _("Choose one of that day's scenarios, or none.")},
        )
        if campaign.module not in STONE_LOCATION_MODULES:
            # The help texts name Red Factories' SSRs; SaP's own rules say otherwise.
            self.fields["exited_uncontrolled"].help_text = _(
                "No CVP at all: the unit is eliminated but adds no CVP (SaP CG11)."
            )
            self.fields["no_cvp"].help_text = _(
                "E.g. a crew or armor leader eliminated on abandoning its AFV (SaP CG8)."
            )
        self.order_fields(["side", "index", "scenario", "phase", "what", "cvp"])

    def _scenario_choices(self, only_day: int | None) -> list:
        """That day's scenarios when the day is known (HTMX), else every day's, grouped."""
        blank = ("", _("None / not linked"))
        if only_day is not None:
            return [
                blank,
                *(
                    (s.pk, scenario_label(self.campaign, s))
                    for s in self.scenarios.values()
                    if s.index == only_day
                ),
            ]
        groups: dict[int, list[tuple[int, str]]] = {}
        for scenario in self.scenarios.values():
            groups.setdefault(scenario.index, []).append(
                (scenario.pk, scenario_label(self.campaign, scenario))
            )
        return [
            blank,
            *((day_label(self.campaign, index), options) for index, options in groups.items()),
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        scenario_id = cleaned.get("scenario")
        if scenario_id is None:
            cleaned["scenario"] = None
            return cleaned
        scenario = self.scenarios.get(scenario_id)
        index = cleaned.get("index")
        if scenario is None or (index is not None and scenario.index != index):
            self.add_error(
                "scenario",
                _("That scenario was not played on %(day)s: choose one of that day's, or none.")
                % {"day": day_label(self.campaign, index) if index is not None else ""},
            )
        cleaned["scenario"] = scenario
        return cleaned

    def cvp_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            name: data[name]
            for name in (
                "side",
                "index",
                "scenario",
                "phase",
                "what",
                "cvp",
                "exited_uncontrolled",
                "no_cvp",
                "manual",
            )
        }


def weather_choices(
    campaign: Campaign, index: int | None = None, stored: str = ""
) -> list[tuple[str, str]] | None:
    """The game's named weathers as (key, name in the reader's language) for the day ``index``
    (Red Factories: December's weathers in December only), or None when the game names none
    (SaP: free text, written as rolled). A day that holds words no weather of the game stands
    for (typed long ago) keeps them as one more choice, so that saving the day loses nothing."""
    types = types_of(campaign.game.files)
    if not types:
        return None
    language = get_language()
    choices = [
        (kind["key"], label_of(types, kind["key"], language))
        for kind in offered(types, period_month(campaign, index))
    ]
    key = key_of(types, stored)
    if key is not None and all(key != value for value, _name in choices):
        choices.append((key, label_of(types, key, language)))
    elif key is None and stored.strip():
        choices.append((stored, _("%(weather)s (as written)") % {"weather": stored}))
    return choices


def ec_choices(campaign: Campaign, stored: str = "") -> list[tuple[str, str]] | None:
    """The game's named ECs as (key, name in the reader's language), or None when it names
    none (free text). Words that name no EC (typed long ago) stay one more choice."""
    types = ec_types_of(campaign.game.files)
    if not types:
        return None
    language = get_language()
    choices = [(kind["key"], label_of(types, kind["key"], language)) for kind in types]
    if key_of(types, stored) is None and stored.strip():
        choices.append((stored, _("%(weather)s (as written)") % {"weather": stored}))
    return choices


def ec_initial(campaign: Campaign, stored: str) -> str:
    return key_of(ec_types_of(campaign.game.files), stored) or stored


def ec_label(campaign: Campaign, stored: str) -> str:
    return label_of(ec_types_of(campaign.game.files), stored, get_language())


def weather_initial(campaign: Campaign, stored: str) -> str:
    """A stored weather as the calendar form's choice: its key (older words read as the
    weather they name), else the words as written."""
    return key_of(types_of(campaign.game.files), stored) or stored


def weather_label(campaign: Campaign, stored: str) -> str:
    """A stored weather as the reader reads it: the game's name for a key (or for the words
    an older version booked), else as written."""
    return label_of(types_of(campaign.game.files), stored, get_language())


# --- the scenario's end -------------------------------------------------------------------


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
        self.known = {entry.pk: known_cvp(entry.unit_type, entry.kind, types) for entry in entries}
        rf = campaign.module in STONE_LOCATION_MODULES
        labels = outcome_labels(campaign)
        for entry in entries:
            pk = entry.pk
            self.fields[f"outcome_{pk}"] = forms.ChoiceField(
                label=_("What happened to %(unit)s") % {"unit": entry.unit_type},
                required=False,
                choices=[("", _("nothing")), *((k, labels[k]) for k in outcomes_for(entry.kind))],
                error_messages={"invalid_choice": _("Choose one of the outcomes offered.")},
            )
            self.fields[f"quantity_{pk}"] = forms.IntegerField(
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
            self.fields[f"cvp_{pk}"] = forms.IntegerField(
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
            self.fields[f"phase_{pk}"] = forms.ChoiceField(
                label=_("When"),
                choices=CvpPhase.choices,
                initial=CvpPhase.SCENARIO,
                required=False,
                error_messages={"invalid_choice": _("Choose when it was lost.")},
            )
            if rf:
                self.fields[f"nocvp_{pk}"] = forms.BooleanField(
                    label=_("No CVP (CG18)"), required=False
                )
            self.fields[f"version_{pk}"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=entry.version, min_value=0, required=False
            )

    def rows(self) -> list[LossRow]:
        return [
            LossRow(
                entry=entry,
                known_cvp=self.known[entry.pk],
                outcome=self[f"outcome_{entry.pk}"],
                quantity=self[f"quantity_{entry.pk}"],
                cvp_each=self[f"cvp_{entry.pk}"],
                phase=self[f"phase_{entry.pk}"],
                no_cvp=self[f"nocvp_{entry.pk}"] if f"nocvp_{entry.pk}" in self.fields else None,
                version=self[f"version_{entry.pk}"],
            )
            for entry in self.entries
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = 0
        for entry in self.entries:
            pk = entry.pk
            outcome = cleaned.get(f"outcome_{pk}")
            if not outcome:
                continue
            chosen += 1
            if cleaned.get(f"version_{pk}") is None:
                # The page always posts it: without it, another device's change could be lost.
                raise forms.ValidationError(
                    _("The page was out of date: reload it and record again.")
                )
            cleaned[f"phase_{pk}"] = cleaned.get(f"phase_{pk}") or CvpPhase.SCENARIO
            if cleaned.get(f"quantity_{pk}") is None and f"quantity_{pk}" not in self.errors:
                cleaned[f"quantity_{pk}"] = entry.quantity
            if cleaned.get(f"cvp_{pk}") is None and self.known[pk] is not None:
                cleaned[f"cvp_{pk}"] = self.known[pk]  # left blank: what the app knows
            worth = OUTCOMES[outcome].loss
            no_cvp = cleaned.get(f"nocvp_{pk}", False)
            missing = cleaned.get(f"cvp_{pk}") is None and f"cvp_{pk}" not in self.errors
            if worth and not no_cvp and missing:
                self.add_error(
                    f"cvp_{pk}",
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
            if not data.get(f"outcome_{pk}"):
                continue
            chosen.append(
                {
                    "entry": entry,
                    "version": data[f"version_{pk}"],
                    "outcome": data[f"outcome_{pk}"],
                    "quantity": data[f"quantity_{pk}"],
                    "cvp_each": data.get(f"cvp_{pk}") or 0,
                    "phase": data[f"phase_{pk}"],
                    "no_cvp": data.get(f"nocvp_{pk}", False),
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
        if self.stone:
            self.fields["all_stone_locations"] = _side_field(
                campaign, _("Controls every Stone Location at the end"), _("Neither side")
            )
        self.fields["winner"] = _side_field(campaign, _("Winner"), _("Not decided"))

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
        return end
