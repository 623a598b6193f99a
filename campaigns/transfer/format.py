"""The export file's format: its marker and version, the scopes, the columns of each section.

docs/export-format.md describes the format for people; this module holds what the writer
(``export``) and the reader (``read``, ``check``, ``load``) must agree on.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, REFEREE, Viewer
from campaigns.games.registry import GameModule
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceCommitment,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    Membership,
    OrbatEntry,
    ReinforcementGroup,
    Role,
    Scenario,
    SideDay,
)

FORMAT = "campaign-desk.export"
# 2: the Refit Phase's sections and ledger ids; the ids inside JSON values (an event's refit
# step, an RG's ledger rows and rolls) are file ids where version 1 wrote database ids.
FORMAT_VERSION = 2
# The versions this reader reads; older ones are upgraded before checking (read.upgrade).
READABLE_VERSIONS = (1, 2)
MAX_IMPORT_BYTES = 5 * 1024 * 1024
# An export nests about seven levels deep (history → event → data → members → member → name);
# free-form values (a roll's result, an RG's details) a few more. Deeper files are refused: the
# pages and the next export would have to recurse through them.
MAX_DEPTH = 32

HEADER_KEYS = ("format", "format_version", "exported_at", "scope")
# The sections the core writes, with the tables each one holds. Other features register theirs
# (campaigns.transfer.sections); together they cover every table of the project except those in
# NOT_IN_THE_FILE (tests/campaigns/transfer/test_coverage.py).
CORE_SECTIONS = {
    "campaign": (Campaign,),
    "members": (Membership,),
    "days": (CampaignDay,),
    "side_days": (SideDay,),
    "ledger": (LedgerEntry,),
    "scenarios": (Scenario,),
    "cvp": (CvpEntry,),
    "rgs": (ReinforcementGroup,),
    "orbat": (OrbatEntry,),
    "fortifications": (FortificationPurchase,),
    "history": (CampaignEvent,),
    "dice_commitments": (DiceCommitment,),
    "dice_rolls": (DiceRoll,),
}
# Tables that are not campaign data, and why (by model label).
NOT_IN_THE_FILE = {
    "accounts.user": "people, not the campaign: users of one installation are not users of "
    "another; the file names them (members, history) and the importing user becomes the only "
    "member",
    "campaigns.invitation": "credentials: a link lets anyone holding it join the campaign",
    "campaigns.ledgertotal": "derived: the database sums the imported ledger rows into it",
    "campaigns.rgtotal": "derived: the database counts the imported RGs into it",
    "campaigns.rolltotal": "derived: the database counts the imported rolls into it",
}

SCOPE_FULL = "full"
SCOPE_PUBLIC = "public"
SIDE_SCOPE_PREFIX = "side:"

# History payload keys that are not exported: undo steps name database rows of this
# installation, and an imported change cannot be undone.
NOT_EXPORTED_EVENT_DATA = ("undo",)
# Other event data keys that hold database ids of this installation, by action. Left out of the
# file and dropped from an imported one, like any key named ``id``, ``pk``, ``…_id`` or ``…_pk``.
DATABASE_ID_EVENT_DATA = {"member.joined": ("invitation",)}
# Event data keys that name another history event: exported as that event's file id (the key is
# left out when the event is not in the file), imported as the new event's database id.
EVENT_REFERENCES = {"change.undone": "undone", "correction.asked": "change"}

# Scenario victory counts: {side key: {"gained": n | null, "lost": n | null, "controlled": n |
# null}}, each count what the scenario forms accept (0 … COUNT_MAX), so that the imported
# scenario can be edited.
LOCATION_COUNTS = ("gained", "lost", "controlled")
# A scenario's end (campaigns.records.end): per-side counts, the side controlling every Stone
# Location, how the winner was found.
END_COUNTS = ("heroes", "exits")
END_WINNER_BY = ("rules", "players")

# The columns of each section, in the order they are written (see docs/export-format.md).
# ``rain``: SaP CG-6.1's record of rain in the time frame (true/false/null; a file without it:
# null).
DAY_FIELDS = ("index", "moon", "weather", "ec", "wind", "notes", "rain")
# ``second_chit`` / ``second_chit_revealed``: the chits before RO CG I's second scenario on
# 23 Oct (SSR I.6; added after version 2 was fixed; a file without them imports them blank).
# ``arrival_plan``: SaP's CG-3.1/3.2/4.1/4.2 designations (issue 16; a file without it: {}).
SIDE_DAY_FIELDS = (
    "index",
    "side",
    "hist_drm",
    "elr",
    "san",
    "elr_san_revealed",
    "initiative_chit",
    "chit_revealed",
    "second_chit",
    "second_chit_revealed",
    "arrival_plan",
    "hist_drms",
)
# ``hist_drms`` (side days) and ``map_group`` (ledger): RF CG I's Historical DRM per map group and
# the map group a replenishment was rolled for (11.58; added after version 2 was fixed; a file
# without them imports them empty).
# ``locations``: a recon payment's Locations (added after version 2 was fixed; a file without it
# imports with the column blank).
# ``note_words``: a note the app wrote, in every language (issue 19; a file without it imports
# the note as it was written).
LEDGER_FIELDS = (
    "side",
    "ledger",
    "index",
    "kind",
    "amount",
    "rg",
    "note",
    "locations",
    "map_group",
    "note_words",
)
SCENARIO_FIELDS = (
    "index",
    "sequence",
    "scenario_type",
    "attacker",
    "sets_up_first",
    "moves_first",
    "night",
    "turns_played",
    "winner",
    "locations",
    "end",
    "notes",
)
CVP_FIELDS = (
    "side",
    "index",
    "phase",
    "what",
    "cvp",
    "exited_uncontrolled",
    "no_cvp",
    "manual",
)
RG_FIELDS = (
    "side",
    "rg_id",
    "number",
    "index",
    "source",
    "option",
    "cpp_cost",
    "strength",
    "details",
    "entered",
    "status",
)
ORBAT_FIELDS = (
    "side",
    "box",
    "unit_type",
    "kind",
    "quantity",
    "origin_rg",
    "statuses",
    "status_note",
)
FORTIFICATION_FIELDS = (
    "side",
    "index",
    "item",
    "detail",
    "details",
    "quantity",
    "fpp",
    "under_construction",
    "hexes",
    "location",
)
SCENARIO_SIDE_FIELDS = ("attacker", "sets_up_first", "moves_first", "winner")
# Dice rolls: the plain columns (faces, modifiers, result, side, users and times are checked
# or written apart).
DICE_FIELDS = (
    "index",
    "step",
    "table_id",
    "kind",
    "original",
    "final",
    "note",
    "sequence_step",
    "form_token",
    "visibility",
    "void_reason",
)
# Verifiable dice: a commitment's columns (``seed`` only once its phase is over; a roll names
# its commitment by file id, with its ``counter`` and ``client_value``).
COMMITMENT_FIELDS = ("index", "visibility", "seed_hash")
# History events about a roll name it (``target``); these two tell who rolled and who voided.


class ImportRefused(ValueError):
    """The file cannot be imported; the message says why, for the user."""


def damaged(place: str | None = None) -> str:
    """The refusal of a file no rule foresaw, naming where it was when there is a place."""
    message = _(
        "The file is damaged or not an export of this app. Choose a file made by a campaign's "
        "Export link."
    )
    if place:
        return _("%(place)s: %(message)s") % {"place": place, "message": message}
    return message


# --- scopes ----------------------------------------------------------------------------------


def scope_of(viewer: Viewer) -> str:
    """What an export made by this viewer contains: "full", "side:<key>" or "public". A
    revealed campaign's export holds both sides for any member: "full"."""
    if viewer.is_referee or viewer.is_revealed:
        return SCOPE_FULL
    if viewer.is_player:
        return SIDE_SCOPE_PREFIX + viewer.side
    return SCOPE_PUBLIC


def scope_sides(scope: str, module: GameModule) -> tuple[str, ...]:
    """The sides whose secrets a file of this scope holds."""
    if scope == SCOPE_FULL:
        return module.side_keys
    if scope.startswith(SIDE_SCOPE_PREFIX):
        return (scope.removeprefix(SIDE_SCOPE_PREFIX),)
    return ()


def scope_visibilities(scope: str, module: GameModule) -> tuple[str, ...]:
    """The history visibilities a file of this scope may hold."""
    if scope == SCOPE_FULL:
        return (PUBLIC, REFEREE, *module.side_keys)
    return (PUBLIC, *scope_sides(scope, module))


def role_for_scope(scope: str) -> tuple[str, str]:
    """The importing user's role in the new campaign: what the file lets them see."""
    if scope == SCOPE_FULL:
        return Role.REFEREE, ""
    if scope.startswith(SIDE_SCOPE_PREFIX):
        return Role.PLAYER, scope.removeprefix(SIDE_SCOPE_PREFIX)
    return Role.OBSERVER, ""


# --- shared by the writer and the reader -------------------------------------------------------


def iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def is_database_reference(action: str, key: str) -> bool:
    """Does this event data key hold database ids (of rows, of undo steps)?"""
    return (
        key in NOT_EXPORTED_EVENT_DATA
        or key in DATABASE_ID_EVENT_DATA.get(action, ())
        or key in ("id", "pk")
        or key.endswith(("_id", "_pk"))
    )
