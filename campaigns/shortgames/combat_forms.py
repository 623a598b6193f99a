"""The combat helpers' forms: what a player typed into the combat page, read into the rules'
terms (campaigns.shortgames.rules.combat_input). The same form reads the GET that counts and the
POST that rolls. A side or role the page does not offer is the view's 404 (``crafted``); every
other mistake is the one sentence the page shows (``hint``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from campaigns.shortgames.forms import FlagField, IdListField, KnownValuesField
from campaigns.shortgames.rules import combat_input
from campaigns.shortgames.rules.cherkassy import air as cp_air

MAX_DISTANCE = 99  # hexes: more than any range a counter prints


class CombatForm(forms.Form):
    """What both games' forms share: the side, a note for the log and the page's token (the same
    form sent twice rolls once)."""

    # The fields only a crafted request gets wrong: the page offers no other value.
    CRAFTED = ("side",)

    side = forms.ChoiceField()
    note = forms.CharField(required=False)
    token = forms.CharField(required=False)

    def __init__(self, *args: Any, sides: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(side, side) for side in sides]

    def hint(self) -> str:
        """The page's one sentence for whatever else could not be read."""
        raise NotImplementedError

    @property
    def crafted(self) -> bool:
        """A value the page never sends (an unknown side or role): the view answers 404."""
        return any(self.has_error(name) for name in self.CRAFTED)


class DrCombatForm(CombatForm):
    """One side of a Defiant Russia combat (7.11, 9.0): its units as "6a, 3" and what modifies
    their dice."""

    CRAFTED = ("side", "role")

    role = forms.ChoiceField(choices=[(role, role) for role in combat_input.DR_ROLES])
    units = forms.CharField()
    nationality = forms.CharField(required=False)
    terrain = KnownValuesField(combat_input.DR_TERRAIN)
    leaders = KnownValuesField(combat_input.DR_LEADERS)
    air_points = forms.CharField(required=False)
    breakthrough = FlagField()

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        if data is not None and "role" not in data:
            data = data.copy()
            data["role"] = "attacker"  # the page's first choice
        super().__init__(data, **kwargs)

    def hint(self) -> str:
        return gettext(
            "Write each unit's strength, with a for armor, m for mountain, c for cavalry, s for "
            "a shock army, o for out of supply, r or k when attacking across a river or the "
            "Kerch Strait (e.g. “6a, 3”)."
        )

    def clean_nationality(self) -> str:
        return self.cleaned_data["nationality"].strip().lower()[:20]

    def clean_air_points(self) -> int:
        try:
            return combat_input.air_points(self.cleaned_data["air_points"])
        except ValueError:
            raise forms.ValidationError(self.hint()) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "units" in data:
            try:
                data["units"] = combat_input.parse_combat_units(
                    data["units"], data.get("nationality", "")
                )
            except ValueError:
                self.add_error("units", self.hint())
        return data


class CpCombatForm(CombatForm):
    """A Cherkassy combat (11.6–11.9): the units chosen on each side, strengths typed by hand,
    the column shifts ticked and the defender's terrain; to roll, the turn the page was for."""

    CRAFTED = ("side", "front")

    attackers = IdListField(most=30)
    defenders = IdListField(most=30)
    attack = forms.CharField(required=False)
    defense = forms.CharField(required=False)
    shifts = KnownValuesField()
    terrain = forms.CharField(required=False)
    # A Soviet combat's Front (11.16): its air point comes from that Front's share.
    front = forms.ChoiceField(
        required=False, choices=[("", "")] + [(key, key) for key in cp_air.FRONTS]
    )
    turn = forms.CharField(required=False)
    # What only the map tells (11.14, 11.22), declared by the attacker: the attackers that attack
    # across a river hexside, an attack across a lake hexside, and each supporting artillery
    # unit's distance to the target ("distance-<unit id>", in hexes).
    river = IdListField(most=30)
    lake = FlagField()

    def __init__(
        self,
        data: Any = None,
        *,
        sides: Iterable[str] = (),
        shifts: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        sides = list(sides)
        if data is not None and not data.get("side") and sides:
            data = data.copy()
            data["side"] = self.side_of(data, sides)
        super().__init__(data, sides=sides, **kwargs)
        self.fields["shifts"].known = tuple(shifts)

    @staticmethod
    def side_of(data: Any, sides: list[str]) -> str:
        """The side a combat is for: the one the form names, else the page's first choice."""
        return data.get("side") or sides[0]

    def hint(self) -> str:
        if getattr(self, "_bad_distance", False):
            return self.DISTANCE_HINT % {"max": MAX_DISTANCE}
        return gettext(
            "Choose the units or write the attack and defence strengths (whole numbers); "
            "both must be more than 0."
        )

    def _strength(self, name: str) -> int:
        try:
            return combat_input.typed_strength(self.cleaned_data[name])
        except ValueError:
            raise forms.ValidationError(self.hint()) from None

    def clean_attack(self) -> int:
        return self._strength("attack")

    def clean_defense(self) -> int:
        return self._strength("defense")

    def clean_note(self) -> str:
        return self.cleaned_data["note"][:100]

    DISTANCE_HINT = gettext_lazy("A distance is a whole number of hexes from 1 to %(max)s (11.22).")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["distances"] = self.distances()
        if self._bad_distance:
            self.add_error(None, self.DISTANCE_HINT % {"max": MAX_DISTANCE})
        return data

    def distances(self) -> dict[int, int]:
        """Each artillery unit's declared distance to the target, by unit id; a blank or
        blank value is left out (the rules then ask for it, 11.22); an unreadable one or one out
        of range too, and the form refuses it (``clean``)."""
        found: dict[int, int] = {}
        self._bad_distance = False
        for key in list(self.data.keys()) if self.data is not None else ():
            if not key.startswith("distance-") or not key[9:].isdigit():
                continue
            # An artillery unit offers a distance as attacker and as defender: the first filled.
            values = self.data.getlist(key) if hasattr(self.data, "getlist") else [self.data[key]]
            value = next((str(v).strip() for v in values if str(v or "").strip()), "")
            if value.isdigit() and 0 < int(value) <= MAX_DISTANCE:
                found[int(key[9:])] = int(value)
            elif value:
                self._bad_distance = True
        return found

    def clean_turn(self) -> int | None:
        """The turn the page was for; None when the page sent none (it is stale)."""
        try:
            return int(self.cleaned_data["turn"])
        except ValueError:
            return None
