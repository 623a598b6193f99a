from __future__ import annotations

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.games.registry import GameModule, all_modules, get_module
from campaigns.models import Role

# A role travels in forms as one value: "referee", "observer" or "player:<side key>".


def role_value(role: str, side: str = "") -> str:
    return f"{role}:{side}" if role == Role.PLAYER else role


def parse_role_value(value: str) -> tuple[str, str]:
    role, _sep, side = value.partition(":")
    return role, side


def role_choices(module: GameModule) -> list[tuple[str, str]]:
    language = get_language()
    players = [
        (
            role_value(Role.PLAYER, side.key),
            _("%(side)s player") % {"side": side.name.in_language(language)},
        )
        for side in module.sides
    ]
    return [
        *players,
        (Role.REFEREE.value, Role.REFEREE.label),
        (Role.OBSERVER.value, Role.OBSERVER.label),
    ]


def game_value(module_key: str, cg_key: str) -> str:
    return f"{module_key}/{cg_key}"


def game_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    language = get_language()
    return [
        (
            module.name.in_language(language),
            [
                (
                    game_value(module.key, cg.key),
                    f"{cg.shown_code.in_language(language)} — {cg.name.in_language(language)}"
                    if cg.code != cg.name.en
                    else cg.name.in_language(language),
                )
                for cg in module.campaign_games
            ],
        )
        for module in all_modules()
    ]


class CampaignCreateForm(forms.Form):
    name = forms.CharField(label=_("Campaign name"), max_length=100)
    game = forms.ChoiceField(label=_("Game and campaign game"))
    my_role = forms.ChoiceField(label=_("My role"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        # A posted form accepts any game's roles so that clean() can say which side is wrong;
        # an unposted one with a game chosen (the HTMX swap) offers only that game's roles.
        module = None if self.is_bound else self.selected_module()
        if module is not None:
            self.fields["my_role"].choices = role_choices(module)
        else:
            # Without a chosen game yet (no JavaScript), offer every game's sides, grouped.
            self.fields["my_role"].choices = [
                (m.name.in_language(get_language()), role_choices(m)) for m in all_modules()
            ]

    def narrow_roles(self) -> None:
        """Offer only the chosen game's roles when the form is shown again (after a refusal,
        or when a browser without JavaScript asks for the game's roles): one "German player",
        not one per game, each marked chosen. The check in ``clean`` is unchanged."""
        module = self.selected_module()
        if module is not None:
            self.fields["my_role"].choices = role_choices(module)

    def selected_module(self) -> GameModule | None:
        value = self.data.get("game") if self.is_bound else self.initial.get("game")
        if not value:
            return None
        module_key, _sep, _cg = str(value).partition("/")
        try:
            return get_module(module_key)
        except KeyError:
            return None

    def clean(self) -> dict:
        cleaned = super().clean()
        game = cleaned.get("game")
        my_role = cleaned.get("my_role")
        if not game:
            return cleaned
        module_key, _sep, cg_key = game.partition("/")
        module = get_module(module_key)
        cleaned["module"] = module
        cleaned["cg_key"] = cg_key
        if my_role:
            role, side = parse_role_value(my_role)
            if role == Role.PLAYER and side not in module.side_keys:
                self.add_error(
                    "my_role",
                    _("%(game)s has no such side; choose one of its sides.")
                    % {"game": module.name.in_language(get_language())},
                )
            cleaned["role"], cleaned["side"] = role, side
        return cleaned


class RoleForm(forms.Form):
    """Pick a role in a given campaign: used for invitations and for changing a member's role."""

    role = forms.ChoiceField(label=_("Role"))

    def __init__(self, *args, module: GameModule, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = role_choices(module)

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("role"):
            cleaned["role"], cleaned["side"] = parse_role_value(cleaned["role"])
        return cleaned
