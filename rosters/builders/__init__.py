"""The printable sheets: which exist, who may have them, and building one as plain data.

A *secret* sheet shows a side's secrets (CPP, purchases, its order of battle): only that side's
players and the referee get it, everyone else a 404 (campaigns.access). A *blank* form
carries nothing but what the rules print (dates, the initial OB), so every member of the
campaign may print it — observers included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import Http404
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaigns.access import Viewer
from campaigns.models import Campaign
from rosters.builders.fortifications import blank_fortifications, fortifications
from rosters.builders.orbat import orbat
from rosters.builders.rg_record import blank_rg_record, rg_record
from rosters.builders.roster import blank_roster, roster
from rosters.builders.status import status
from rosters.builders.summary import summary
from rosters.sheets import Sheet

LANGUAGES = ("ja", "en")


@dataclass(frozen=True)
class SheetKind:
    slug: str
    title: Promise
    secret: bool
    build: Callable[[Campaign, str], Sheet]


KINDS: dict[str, SheetKind] = {
    kind.slug: kind
    for kind in (
        SheetKind("summary", _("Campaign summary"), True, summary),
        SheetKind("roster", _("CG Roster"), True, roster),
        SheetKind("rg-record", _("RG Purchase Record"), True, rg_record),
        SheetKind("fortifications", _("Fortification Purchase Record"), True, fortifications),
        SheetKind("orbat", _("Order of battle (divider)"), True, orbat),
        SheetKind("blank-roster", _("Blank CG Roster"), False, blank_roster),
        SheetKind("blank-rg-record", _("Blank RG Purchase Record"), False, blank_rg_record),
        SheetKind(
            "blank-fortifications",
            _("Blank Fortification Purchase Record"),
            False,
            blank_fortifications,
        ),
    )
}


# The short games (Defiant Russia, Cherkassy Pocket) print their status sheet and nothing else.
SHORT_GAME_KINDS: dict[str, SheetKind] = {
    kind.slug: kind for kind in (SheetKind("status", _("Status sheet"), False, status),)
}


def _short(campaign: Campaign) -> bool:
    return "turn_sequence" in campaign.game.files


def has_sheets(campaign: Campaign) -> bool:
    """Sheets exist for the campaign games with RG charts (RF, SaP) and the short games."""
    return "rg_charts" in campaign.game.files or _short(campaign)


def may_have(viewer: Viewer, side: str, kind: SheetKind) -> bool:
    if not has_sheets(viewer.campaign) or side not in viewer.campaign.game.side_keys:
        return False
    if (kind.slug in SHORT_GAME_KINDS) != _short(viewer.campaign):
        return False
    return viewer.can_see_side(side) if kind.secret else True


def kinds_for(viewer: Viewer, side: str) -> list[SheetKind]:
    kinds = SHORT_GAME_KINDS if _short(viewer.campaign) else KINDS
    return [kind for kind in kinds.values() if may_have(viewer, side, kind)]


def build_sheet(viewer: Viewer, side: str, slug: str, language: str) -> Sheet:
    """The sheet ``slug`` of ``side`` in ``language``; Http404 when the viewer may not have it
    (another side's secrets look exactly like a sheet that does not exist)."""
    kind = KINDS.get(slug) or SHORT_GAME_KINDS.get(slug)
    if kind is None or not may_have(viewer, side, kind):
        raise Http404
    if language not in LANGUAGES:
        raise Http404
    with translation.override(language):
        return kind.build(viewer.campaign, side)
