"""Forms for the public records: the calendar, the scenarios played and the CVP tally.

Each form is built for one campaign: the days it offers are that campaign-game's calendar, the
sides that game's sides, the scenario types those that fit the game. Changes still go through
campaigns.records.services, which checks the day and the sides again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.compiled import CompiledQuery
from campaigns.games.weather import (
    ec_types_of,
    entered_as_text,
    key_of,
    label_of,
    offered,
    stored_as,
    types_of,
)
from campaigns.models import Campaign, CvpPhase, RefitPhase, Scenario, ScenarioType
from campaigns.periods import (
    current_index,
    day_choices,
    day_label,
    period_month,
    period_word,
    side_choices,
)
from campaigns.records.services import play_order

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


def side_field(campaign: Campaign, label: Any, blank: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        choices=[("", blank), *side_choices(campaign)],
        required=False,
        error_messages={"invalid_choice": _("Choose one of this game's sides.")},
    )


def has_moon(campaign: Campaign) -> bool:
    """Whether the calendar keeps the moon: Red Factories' night scenarios need its phase;
    SaP leaves night out of its CG (seed 004 L1649, CG notes: E1 night and E7 air support are
    excluded), and the short games have none."""
    return campaign.module == "red_factories"


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
        rain: bool = False,
        moon: bool = True,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        if not moon:  # campaigns.records.forms.has_moon
            del self.fields["moon"]
        if rain:
            # SaP CG-6.1: the next time frame's EC depends on rain in this one.
            self.fields["rain"] = forms.NullBooleanField(
                label=_("Rain fell in this time frame (CG-6.1)"), required=False
            )
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

    def changes(self) -> dict[str, Any]:
        return {
            name: self.cleaned_data[name] for name in (*self.FIELDS, "rain") if name in self.fields
        }


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
        self.fields["attacker"] = side_field(campaign, _("Attacker"), _("None"))
        self.fields["sets_up_first"] = side_field(campaign, _("Set up first"), _("Not recorded"))
        self.fields["moves_first"] = side_field(campaign, _("Moved first"), _("Not recorded"))
        self.fields["winner"] = side_field(campaign, _("Winner"), _("Not decided"))
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
    if not types or entered_as_text(campaign.game.files):
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
    if not types or entered_as_text(campaign.game.files):
        return None
    language = get_language()
    choices = [(kind["key"], label_of(types, kind["key"], language)) for kind in types]
    if key_of(types, stored) is None and stored.strip():
        choices.append((stored, _("%(weather)s (as written)") % {"weather": stored}))
    return choices


def ec_initial(campaign: Campaign, stored: str) -> str:
    if entered_as_text(campaign.game.files):  # a text field: the reader's words
        return ec_label(campaign, stored)
    return key_of(ec_types_of(campaign.game.files), stored) or stored


def ec_label(campaign: Campaign, stored: str) -> str:
    return label_of(ec_types_of(campaign.game.files), stored, get_language())


def weather_initial(campaign: Campaign, stored: str) -> str:
    """A stored weather as the calendar form's choice: its key (older words read as the
    weather they name), else the words as written; in a text field (SaP), the reader's words."""
    if entered_as_text(campaign.game.files):
        return weather_label(campaign, stored)
    return key_of(types_of(campaign.game.files), stored) or stored


def typed_as_keys(campaign: Campaign, changes: dict[str, Any]) -> dict[str, Any]:
    """A free-text calendar's typed weather and EC (SaP) as stored: the key of the type the
    words name (in either language), else the words as typed."""
    files = campaign.game.files
    if not entered_as_text(files):
        return changes
    return {
        **changes,
        "weather": stored_as(types_of(files), changes.get("weather", "")),
        "ec": stored_as(ec_types_of(files), changes.get("ec", "")),
    }


def weather_label(campaign: Campaign, stored: str) -> str:
    """A stored weather as the reader reads it: the game's name for a key (or for the words
    an older version booked), else as written."""
    return label_of(types_of(campaign.game.files), stored, get_language())


def index_to_record(campaign: Campaign, taken: Iterable[int]) -> int:
    """The day (time frame) a new scenario is most likely for: the last one played (or being
    played) that has no scenario yet, else the current day."""
    taken = set(taken)
    for index in _played(campaign.pk):
        if index not in taken:
            return index
    return current_index(campaign)


def new_scenario_initial(
    campaign: Campaign, *, recorded: int, taken: Iterable[int] = ()
) -> dict[str, Any]:
    """What a new scenario's form starts with: the day being (or last) played without a
    scenario; for a Red Factories campaign's first scenario, the initial scenario; and the
    set-up order the CG data gives (11.5; SaP's every time frame). The attacker is not in the
    data: asked."""
    initial: dict[str, Any] = {"index": index_to_record(campaign, taken)}
    types = scenario_types(campaign)
    if not recorded and ScenarioType.INITIAL in types:
        initial["scenario_type"] = ScenarioType.INITIAL
    elif ScenarioType.TIME_FRAME in types:
        initial["scenario_type"] = ScenarioType.TIME_FRAME
    else:
        return initial
    initial.update(play_order(campaign, initial["scenario_type"]))
    return initial


# The days played, newest first (each scenarios page asks): compiled once (campaigns.compiled).
_played = CompiledQuery(
    lambda campaign_id: (
        RefitPhase.objects.filter(campaign_id=campaign_id, kind="scenario")
        .order_by("-index")
        .values_list("index", flat=True)
    ),
    1,
)
