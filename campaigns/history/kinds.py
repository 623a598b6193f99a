"""The kinds of change the history page filters by: families of action keys.

An action key starts with its family (``rg.purchased``, ``rg.noted`` → ``rg``). Each family
belongs to one kind the reader knows (purchases, perimeters, …), named here in the reader's
language. The kinds offered are those of the actions registered with a sentence
(``campaigns.history.sentences``); a family no kind names yet is offered under its own key, so
that no recorded change is out of a filter's reach (a test asks for a name for each).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaigns.history.sentences import SENTENCES


@dataclass(frozen=True)
class Kind:
    key: str
    label: Promise | str
    families: tuple[str, ...]  # the action keys' first words

    def actions(self) -> Q:
        """The events of this kind, as a filter."""
        query = Q()
        for family in self.families:
            query |= Q(action__startswith=f"{family}.")
        return query


# In the order the filter offers them: the campaign and its members, the public records, a
# side's sheets, the dice, the Refit Phase's pages, the short games, then the corrections the
# players agreed and the undos.
KINDS: tuple[Kind, ...] = (
    Kind("campaign", _("Campaign"), ("campaign",)),
    Kind("members", _("Members and invitations"), ("member", "invitation")),
    Kind("calendar", _("Calendar and scenarios"), ("day", "scenario", "cg_victory")),
    Kind("cvp", _("CVP"), ("cvp",)),
    Kind("roster", _("CG Roster and CPP/FPP ledger"), ("side_day", "ledger")),
    Kind("orbat", _("Order of battle"), ("orbat", "reserve", "armor_leaders")),
    Kind("dice", _("Dice"), ("dice",)),
    Kind("refit", _("Refit Phase steps"), ("refit", "initiative")),
    Kind("purchases", _("Purchases"), ("rg",)),
    Kind("fortifications", _("Fortifications"), ("fortification",)),
    Kind("perimeters", _("Perimeters"), ("perimeter",)),
    Kind(
        "turns",
        _("Short-game turns and options"),
        ("shortgame", "turn", "points", "victory", "referee_table"),
    ),
    Kind("units", _("Short-game units and map"), ("unit", "units", "control", "pocket")),
    Kind("corrections", _("Corrections"), ("correction",)),
    Kind("undo", _("Undone changes"), ("change",)),
)


def family(action: str) -> str:
    return action.split(".", 1)[0]


def kinds_of(actions: Iterable[str]) -> list[Kind]:
    """The kinds of ``actions``, in ``KINDS``' order; a family no kind names comes last, under
    its own key."""
    families = {family(action) for action in actions}
    named = [kind for kind in KINDS if families.intersection(kind.families)]
    known = {name for kind in KINDS for name in kind.families}
    unnamed = [Kind(name, name, (name,)) for name in sorted(families - known)]
    return named + unnamed


def registered_kinds() -> list[Kind]:
    """The kinds of every action a feature registered a sentence for."""
    return kinds_of(SENTENCES.actions())
