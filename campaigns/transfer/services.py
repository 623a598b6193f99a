"""A campaign as a versioned JSON file: exported as a viewer may see it, imported as a new one.

The format is documented in docs/export-format.md; this module is its one implementation.

* ``build_export(viewer)`` — the dict for one viewer. What goes in is decided by
  campaigns.access (the sides the viewer may see, ``filter_visible`` for history), never
  by the caller. Row ids are the file's own (1, 2, … per section), not database ids, so a side's
  export does not reveal how many rows the other side has.
* ``read_upload(file)`` / ``parse_export(raw)`` — check an uploaded file and everything in it
  before anything is written; ``ImportRefused`` carries a message for the user.
* ``load(parsed, user=…)`` — write the checked file as a new campaign in one transaction.

Dice rolls go out as the viewer may see them (``filter_visible``, like history). Who rolled and
who voided an imported roll is kept, like every imported actor, in the ``data.original`` of its
history events (``dice.rolled`` / ``dice.voided``), which the file links to the roll by
``target``: ``roll_actor_names`` reads it back.

History event data names no database row either: ``change.undone`` names the undone event by
its file id (``EVENT_REFERENCES``), and keys that hold database ids are left out
(``_is_database_reference``). An import checks the data of every event against the shape its
feature registered with the event's sentence (``campaigns.history.sentences``), so that no
imported row can break a page later; anything else unexpected while checking becomes "the file
is damaged" rather than an error page.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, REFEREE, Viewer
from campaigns.dice.legacy_notes import split_legacy_note, turn_step_ids
from campaigns.dice.services import DICE
from campaigns.games.registry import GameModule, get_module
from campaigns.games.rules import Drm
from campaigns.history import services as history
from campaigns.history.sentences import INT, INTS, SENTENCES, TEXT, TEXTS
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    LedgerKind,
    Membership,
    OrbatBox,
    OrbatEntry,
    PointEntry,
    ReinforcementGroup,
    Role,
    Scenario,
    SideDay,
)
from campaigns.models.state import CPP_KINDS, FPP_KINDS
from campaigns.records.forms import COUNT_MAX
from campaigns.shortgames import transfer as short_transfer

logger = logging.getLogger(__name__)

FORMAT = "campaign-desk.export"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 5 * 1024 * 1024
# An export nests about seven levels deep (history → event → data → members → member → name);
# free-form values (a roll's result, an RG's details) a few more. Deeper files are refused: the
# pages and the next export would have to recurse through them.
MAX_DEPTH = 32

SCOPE_FULL = "full"
SCOPE_PUBLIC = "public"
SIDE_SCOPE_PREFIX = "side:"

# Where an imported history event keeps what the new campaign cannot hold as such: the original
# time, and who acted (the users of the file are not users of this installation).
ORIGINAL_KEY = "original"
# History payload keys that are not exported: undo steps name database rows of this
# installation, and an imported change cannot be undone.
NOT_EXPORTED_EVENT_DATA = ("undo",)
# Other event data keys that hold database ids of this installation, by action. Left out of the
# file and dropped from an imported one, like any key named ``id``, ``pk``, ``…_id`` or ``…_pk``.
DATABASE_ID_EVENT_DATA = {"member.joined": ("invitation",)}
# Event data keys that name another history event: exported as that event's file id (the key is
# left out when the event is not in the file), imported as the new event's database id.
EVENT_REFERENCES = {"change.undone": "undone"}

# Scenario victory counts: {side key: {"gained": n | null, "lost": n | null}}, each count
# what the scenario form accepts (0 … COUNT_MAX), so that the imported scenario can be edited.
LOCATION_COUNTS = ("gained", "lost")

# The columns of each section, in the order they are written (see docs/export-format.md).
DAY_FIELDS = ("index", "moon", "weather", "ec", "wind", "notes")
SIDE_DAY_FIELDS = (
    "index",
    "side",
    "hist_drm",
    "elr",
    "san",
    "elr_san_revealed",
    "initiative_chit",
    "chit_revealed",
)
LEDGER_FIELDS = ("side", "ledger", "index", "kind", "amount", "rg", "note")
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
# History events about a roll name it (``target``); these two tell who rolled and who voided.
ROLL_TARGET = DiceRoll._meta.label_lower
ROLL_ACTORS = {"dice.rolled": "rolled_by", "dice.voided": "voided_by"}


class ImportRefused(ValueError):
    """The file cannot be imported; the message says why, for the user."""


# --- scopes ----------------------------------------------------------------------------------


def scope_of(viewer: Viewer) -> str:
    """What an export made by this viewer contains: "full", "side:<key>" or "public"."""
    if viewer.is_referee:
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


# --- export ----------------------------------------------------------------------------------


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def build_export(viewer: Viewer, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The campaign as ``viewer`` may see it, as JSON-ready data. A fixed number of queries."""
    campaign = viewer.campaign
    # Secret rows (side days, ledger, RGs, OB) only of the sides the viewer may see. Another
    # side's side days hold ELR/SAN and chits that may still be secret: only the referee, who
    # sees every side, gets them.
    sides = viewer.visible_sides()
    scenarios = list(
        Scenario.objects.filter(campaign=campaign)
        .order_by("index", "sequence")
        .values("id", *SCENARIO_FIELDS)
    )
    scenario_refs = {row["id"]: ref for ref, row in enumerate(scenarios, start=1)}
    rgs = list(
        ReinforcementGroup.objects.filter(campaign=campaign, side__in=sides)
        .order_by("side", "index", "id")
        .values("id", *RG_FIELDS)
    )
    rg_refs = {row["id"]: ref for ref, row in enumerate(rgs, start=1)}
    orbat = [
        {**_pick(row, ORBAT_FIELDS), "group": rg_refs.get(row["group_id"])}
        for row in OrbatEntry.objects.filter(campaign=campaign, side__in=sides)
        .order_by("id")
        .values("group_id", *ORBAT_FIELDS)
    ]
    # Ordered by references, not database ids, so that the same campaign exports the same.
    orbat.sort(key=lambda row: (row["side"], row["box"], row["group"] or 0))
    events = list(
        viewer.filter_visible(
            CampaignEvent.objects.filter(campaign=campaign).select_related("actor", "undone_by")
        ).order_by("created_at", "id")
    )
    # Every roll the viewer may see (its dice.rolled / dice.voided events have its visibility).
    rolls = list(
        viewer.filter_visible(DiceRoll.objects.filter(campaign=campaign))
        .select_related("rolled_by", "voided_by")
        .order_by("rolled_at", "id")
    )
    roll_refs = {roll.pk: ref for ref, roll in enumerate(rolls, start=1)}
    event_refs = {event.pk: ref for ref, event in enumerate(events, start=1)}
    names = roll_actor_names(events)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": (now or timezone.now()).isoformat(),
        "scope": scope_of(viewer),
        "campaign": {
            "name": campaign.name,
            "module": campaign.module,
            "campaign_game": campaign.campaign_game,
            "data_version": campaign.data_version,
            "period_index": campaign.period_index,
            "created_at": _iso(campaign.created_at),
        },
        "members": [
            {"username": username, "role": role, "side": side}
            for username, role, side in Membership.objects.filter(campaign=campaign)
            .order_by("joined_at", "id")
            .values_list("user__username", "role", "side")
        ],
        "days": list(
            CampaignDay.objects.filter(campaign=campaign).order_by("index").values(*DAY_FIELDS)
        ),
        "side_days": list(
            SideDay.objects.filter(campaign=campaign, side__in=sides)
            .order_by("index", "side")
            .values(*SIDE_DAY_FIELDS)
        ),
        "ledger": [
            {**_pick(row, LEDGER_FIELDS), "created_at": _iso(row["created_at"])}
            for row in LedgerEntry.objects.filter(campaign=campaign, side__in=sides)
            .order_by("side", "ledger", "index", "id")
            .values("created_at", *LEDGER_FIELDS)
        ],
        "scenarios": [
            {"id": scenario_refs[row["id"]], **_pick(row, SCENARIO_FIELDS)} for row in scenarios
        ],
        "cvp": [
            {
                **_pick(row, CVP_FIELDS),
                "scenario": scenario_refs.get(row["scenario_id"]),
                "created_at": _iso(row["created_at"]),
            }
            for row in CvpEntry.objects.filter(campaign=campaign)
            .order_by("index", "id")
            .values("scenario_id", "created_at", *CVP_FIELDS)
        ],
        "rgs": [{"id": rg_refs[row["id"]], **_pick(row, RG_FIELDS)} for row in rgs],
        "orbat": orbat,
        "fortifications": [
            {**_pick(row, FORTIFICATION_FIELDS), "created_at": _iso(row["created_at"])}
            for row in FortificationPurchase.objects.filter(campaign=campaign, side__in=sides)
            .order_by("side", "index", "id")
            .values("created_at", *FORTIFICATION_FIELDS)
        ],
        "history": [_event_record(event, event_refs, roll_refs) for event in events],
        "dice_rolls": [_roll_record(roll, roll_refs[roll.pk], names) for roll in rolls],
        # The short games' rows (none are secret); absent for the campaign games.
        **(
            {short_transfer.SECTION: section}
            if (section := short_transfer.export_section(campaign)) is not None
            else {}
        ),
    }


def _pick(row: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {name: row[name] for name in names}


def _original(event: CampaignEvent) -> dict[str, Any] | None:
    """What an event imported earlier (no actor here) kept of its time and names."""
    original = event.data.get(ORIGINAL_KEY) if event.actor_id is None else None
    return original if isinstance(original, dict) else None


def event_actor_name(event: CampaignEvent) -> str | None:
    """Who made the change: a user of this installation, or the name an imported event kept.

    Reads ``event.actor``: select it with the event (``select_related``) or filter on
    ``actor__isnull=True``.
    """
    original = _original(event)
    if original is not None:
        actor = original.get("actor")
        return actor if isinstance(actor, str) else None
    return event.actor.get_username() if event.actor_id is not None else None


def roll_actor_names(events: Iterable[CampaignEvent]) -> dict[tuple[int, str], str]:
    """``{(roll id, "rolled_by" | "voided_by"): name}`` as the rolls' history events tell it.

    Rolls imported from a file have no users of this installation: their ``dice.rolled`` and
    ``dice.voided`` events keep the names (``data.original``).
    """
    names = {}
    for event in events:
        role = ROLL_ACTORS.get(event.action)
        if role and event.target_type == ROLL_TARGET and event.target_id is not None:
            name = event_actor_name(event)
            if name:
                names[(event.target_id, role)] = name
    return names


def _is_database_reference(action: str, key: str) -> bool:
    """Does this event data key hold database ids (of rows, of undo steps)?"""
    return (
        key in NOT_EXPORTED_EVENT_DATA
        or key in DATABASE_ID_EVENT_DATA.get(action, ())
        or key in ("id", "pk")
        or key.endswith(("_id", "_pk"))
    )


def _event_record(
    event: CampaignEvent, event_refs: dict[int, int], roll_refs: dict[int, int]
) -> dict[str, Any]:
    data = {k: v for k, v in event.data.items() if not _is_database_reference(event.action, k)}
    # Another event named by its database id: the file names it by its file id, or not at all.
    reference = EVENT_REFERENCES.get(event.action)
    if reference in data:
        ref = event_refs.get(data[reference]) if _is_int(data[reference]) else None
        if ref is None:
            del data[reference]
        else:
            data[reference] = ref
    # An event imported earlier (no actor here): give back the time and names it came with.
    original = _original(event)
    if original is not None:
        del data[ORIGINAL_KEY]
        created_at = original.get("created_at")
        undone_by = original.get("undone_by")
    else:
        created_at = _iso(event.created_at)
        undone_by = event.undone_by.get_username() if event.undone_by else None
    target = None
    if event.target_type == ROLL_TARGET:
        target = roll_refs.get(event.target_id)
    return {
        "id": event_refs[event.pk],
        "action": event.action,
        "visibility": event.visibility,
        "target_type": event.target_type,
        "target": target,
        "created_at": created_at,
        "actor": event_actor_name(event),
        "undone_at": _iso(event.undone_at),
        "undone_by": undone_by,
        "data": data,
    }


def _roll_record(roll: DiceRoll, ref: int, names: dict[tuple[int, str], str]) -> dict[str, Any]:
    def user(role: str) -> str | None:
        person = getattr(roll, role)
        return person.get_username() if person is not None else names.get((roll.pk, role))

    return {
        "id": ref,
        "index": roll.index,
        "side": roll.side,
        "step": roll.step,
        "table_id": roll.table_id,
        "kind": roll.kind,
        "faces": roll.faces,
        "modifiers": roll.modifiers,
        "original": roll.original,
        "final": roll.final,
        "result": roll.result,
        "note": roll.note,
        "sequence_step": roll.sequence_step,
        "form_token": roll.form_token,
        "visibility": roll.visibility,
        "rolled_by": user("rolled_by"),
        "rolled_at": _iso(roll.rolled_at),
        "voided_at": _iso(roll.voided_at),
        "voided_by": user("voided_by") if roll.voided_at is not None else None,
        "void_reason": roll.void_reason,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2) + "\n"


def export_filename(campaign: Campaign, today: dt.date | None = None) -> str:
    """``<campaign-name-slug>-<date>.json``; Japanese names keep their letters."""
    slug = slugify(campaign.name, allow_unicode=True) or "campaign"
    return f"{slug}-{(today or timezone.localdate()).isoformat()}.json"


# --- reading a file --------------------------------------------------------------------------


@dataclass
class ParsedExport:
    """A checked export file: everything needed to write the new campaign, nothing written yet."""

    module: GameModule
    scope: str
    campaign: dict[str, Any]
    members: list[dict[str, Any]]
    exported_at: str | None
    days: list[dict[str, Any]] = field(default_factory=list)
    side_days: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    cvp: list[dict[str, Any]] = field(default_factory=list)
    rgs: list[dict[str, Any]] = field(default_factory=list)
    orbat: list[dict[str, Any]] = field(default_factory=list)
    fortifications: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    dice_rolls: list[dict[str, Any]] = field(default_factory=list)
    short_game: dict[str, Any] | None = None


def read_upload(upload: Any) -> ParsedExport:
    """Check an uploaded file's size, then its contents."""
    if upload.size is not None and upload.size > MAX_IMPORT_BYTES:
        raise ImportRefused(_too_big())
    raw = upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportRefused(_too_big())
    return parse_export(raw)


def _too_big() -> str:
    return _("The file is larger than %(limit)s MB; a campaign export is much smaller.") % {
        "limit": MAX_IMPORT_BYTES // (1024 * 1024)
    }


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent; 1e400 (infinite here) is refused like NaN."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _damaged(place: str | None = None) -> str:
    message = _(
        "The file is damaged or not an export of this app. Choose a file made by a campaign's "
        "Export link."
    )
    if place:
        return _("%(place)s: %(message)s") % {"place": place, "message": message}
    return message


def parse_export(raw: bytes | str) -> ParsedExport:
    """Check the whole file; raise ImportRefused naming the first problem found.

    Whatever else goes wrong while checking (a case no rule foresaw) refuses the file too, as
    damaged, naming the entry being checked: a crafted file never makes an error page.
    """
    checker = _Checker()
    try:
        return _parse(raw, checker)
    except ImportRefused:
        raise
    except Exception:
        logger.warning("An import file failed its checks unexpectedly.", exc_info=True)
        raise ImportRefused(_damaged(checker.place)) from None


def _parse(raw: bytes | str, checker: _Checker) -> ParsedExport:
    try:
        data = json.loads(raw, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ImportRefused(
            _("The file is not JSON. Choose a file made by a campaign's Export link.")
        ) from None
    _check_tree(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(
            _(
                "The file is JSON but not a campaign export (its “format” is not “%(format)s”). "
                "Choose a file made by a campaign's Export link."
            )
            % {"format": FORMAT}
        )
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version != FORMAT_VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
            raise ImportRefused(
                _(
                    "The file uses export format version %(version)s; this installation reads "
                    "version %(supported)s. Update the app, then import again."
                )
                % {"version": version, "supported": FORMAT_VERSION}
            )
        raise ImportRefused(
            _(
                "The file's format_version %(version)s is not supported (this app reads "
                "%(supported)s)."
            )
            % {"version": _short(json.dumps(version)), "supported": FORMAT_VERSION}
        )
    meta = data.get("campaign")
    if not isinstance(meta, dict):
        raise ImportRefused(_("The file has no “campaign” section."))
    module = _module_of(meta)
    scope = data.get("scope")
    if not isinstance(scope, str) or not (
        scope in (SCOPE_FULL, SCOPE_PUBLIC)
        or (
            scope.startswith(SIDE_SCOPE_PREFIX)
            and scope.removeprefix(SIDE_SCOPE_PREFIX) in module.side_keys
        )
    ):
        raise ImportRefused(
            _("The file's “scope” must be “full”, “public” or “side:” and a side of the game.")
        )
    checker.module, checker.scope, checker.cg_key = module, scope, meta["campaign_game"]
    return checker.check(data, meta)


def _check_tree(data: Any) -> None:
    """Every value of the file: nested at most MAX_DEPTH deep, texts that can be stored.

    A NUL character or half a surrogate pair is valid JSON but cannot be stored in PostgreSQL
    or written as UTF-8. Walks without recursion, so a deep file cannot exhaust the stack.
    """
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict | list):
            if len(path) >= MAX_DEPTH:
                raise ImportRefused(
                    _(
                        "%(place)s: is nested deeper than an export ever is (%(depth)s levels). "
                        "Choose a file made by a campaign's Export link."
                    )
                    % {"place": _place(path), "depth": MAX_DEPTH}
                )
            items = value.items() if isinstance(value, dict) else enumerate(value, start=1)
            for key, item in items:
                if isinstance(key, str) and not _storable(key):
                    raise ImportRefused(_unstorable(path))
                stack.append((item, (*path, key)))
        elif isinstance(value, str) and not _storable(value):
            raise ImportRefused(_unstorable(path))


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unstorable(path: tuple[Any, ...]) -> str:
    return _(
        "%(place)s: holds a character that cannot be stored (a NUL or a broken character)."
    ) % {"place": _place(path)}


def _place(path: tuple[Any, ...]) -> str:
    """Where a value is in the file, as the messages name it: "history, entry 3, “data.note”"."""
    if not path:
        return _("The file")
    section, *rest = path
    parts = [_short(section)]
    if rest and isinstance(rest[0], int) and isinstance(section, str):
        parts.append(_("entry %(number)s") % {"number": rest[0]})
        rest = rest[1:]
    if rest:
        parts.append(f"“{_short('.'.join(str(part) for part in rest))}”")
    return ", ".join(parts)


def _module_of(meta: dict[str, Any]) -> GameModule:
    module_key = meta.get("module")
    try:
        module = get_module(module_key) if isinstance(module_key, str) else None
    except KeyError:
        module = None
    if module is None:
        raise ImportRefused(
            _("The file is for a game this installation does not have (“%(module)s”).")
            % {"module": _short(module_key)}
        )
    cg_key = meta.get("campaign_game")
    try:
        if not isinstance(cg_key, str):
            raise KeyError(cg_key)
        module.campaign_game(cg_key)
    except KeyError:
        raise ImportRefused(
            _("The file is for a campaign game %(game)s does not have (“%(cg)s”).")
            % {"game": module.name.in_language(get_language()), "cg": _short(cg_key)}
        ) from None
    file_version = meta.get("data_version")
    if (
        not isinstance(file_version, str)
        # Not str.isdigit(): "²" is a digit to it, but no number to int().
        or not re.fullmatch(r"[0-9]+", file_version)
        or len(file_version) > Campaign._meta.get_field("data_version").max_length
    ):
        raise ImportRefused(_("The file's “data_version” must be a whole number written as text."))
    if int(file_version) > int(module.version):
        raise ImportRefused(
            _(
                "The campaign was saved with game data version %(file)s; this installation has "
                "version %(current)s of %(game)s. Update the app, then import again."
            )
            % {
                "file": file_version,
                "current": module.version,
                "game": module.name.in_language(get_language()),
            }
        )
    return module


@dataclass
class _Checker:
    # Set once the file's header is checked (parse_export makes the checker first, so that an
    # unexpected failure can name the entry it was checking: ``place``).
    module: GameModule = None  # type: ignore[assignment]
    scope: str = ""
    cg_key: str = ""
    place: str | None = None

    @property
    def periods(self) -> int:
        return len(self.module.campaign_game(self.cg_key).periods)

    def check(self, data: dict[str, Any], meta: dict[str, Any]) -> ParsedExport:
        name = meta.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ImportRefused(_("The file's campaign has no name."))
        period_index = meta.get("period_index", 0)
        if not _is_int(period_index) or not 0 <= period_index < self.periods:
            raise ImportRefused(_("The file's “period_index” is not a day of the calendar."))
        members = data.get("members", [])
        if not isinstance(members, list) or not all(isinstance(m, dict) for m in members):
            raise ImportRefused(_("The file's “members” must be a list of objects."))
        exported_at = data.get("exported_at")
        parsed = ParsedExport(
            module=self.module,
            scope=self.scope,
            campaign={
                "name": name.strip(),
                "data_version": meta["data_version"],
                "period_index": period_index,
                "created_at": meta.get("created_at"),
                "module": self.module.key,
                "campaign_game": self.cg_key,
            },
            members=[
                {
                    key: m[key] if isinstance(m.get(key), str) else None
                    for key in ("username", "role", "side")
                }
                for m in members
            ],
            exported_at=exported_at if isinstance(exported_at, str) else None,
        )
        parsed.days = self._days(data)
        parsed.side_days = self._side_days(data)
        parsed.ledger = self._ledger(data)
        parsed.scenarios = self._scenarios(data)
        parsed.cvp = self._cvp(data, {row["ref"] for row in parsed.scenarios})
        parsed.rgs = self._rgs(data)
        parsed.orbat = self._orbat(data, {row["ref"]: row["values"]["side"] for row in parsed.rgs})
        parsed.fortifications = self._fortifications(data, parsed.ledger)
        parsed.short_game = short_transfer.check_section(self, data, ImportRefused)
        parsed.dice_rolls = self._dice_rolls(data)
        parsed.history = self._history(data, {row["ref"] for row in parsed.dice_rolls})
        return parsed

    # Rows ---------------------------------------------------------------------------------

    def _rows(self, data: dict[str, Any], section: str) -> Iterator[tuple[int, dict[str, Any]]]:
        rows = data.get(section, [])
        if not isinstance(rows, list):
            raise ImportRefused(
                _("The file's “%(section)s” must be a list.") % {"section": section}
            )
        for number, row in enumerate(rows, start=1):
            self.place = _("%(section)s, entry %(number)s") % {
                "section": section,
                "number": number,
            }
            if not isinstance(row, dict):
                raise ImportRefused(
                    _("%(section)s, entry %(number)s: is not an object.")
                    % {"section": section, "number": number}
                )
            yield number, row
        self.place = None

    def _values(
        self,
        section: str,
        number: int,
        row: dict[str, Any],
        model: type[models.Model],
        names: Iterable[str],
    ) -> dict[str, Any]:
        """The row's values for ``names``, each checked against its model field."""
        values = {}
        for name in names:
            model_field = model._meta.get_field(name)
            if name in row:
                value = row[name]
            elif model_field.has_default():
                value = model_field.get_default()
            elif model_field.null:
                value = None
            elif model_field.blank and isinstance(model_field, models.CharField | models.TextField):
                value = ""
            else:
                raise self._error(section, number, name, _("is missing."))
            try:
                values[name] = _checked(model_field, value)
            except ValidationError as error:
                raise self._error(section, number, name, " ".join(error.messages)) from None
        if "index" in values and not 0 <= values["index"] < self.periods:
            raise self._error(section, number, "index", _("is not a day of the calendar."))
        if "side" in values:
            if values["side"] not in self.module.side_keys:
                raise self._error(section, number, "side", _("is not a side of this game."))
            secret = (SideDay, LedgerEntry, ReinforcementGroup, OrbatEntry, FortificationPurchase)
            if model in secret and values["side"] not in scope_sides(self.scope, self.module):
                raise self._error(
                    section,
                    number,
                    "side",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
        return values

    @staticmethod
    def _error(section: str, number: int, name: str, message: str) -> ImportRefused:
        return ImportRefused(
            _("%(section)s, entry %(number)s, “%(field)s”: %(message)s")
            % {"section": section, "number": number, "field": name, "message": message}
        )

    def _timestamp(self, section: str, number: int, row: dict[str, Any], name: str) -> Any:
        value = row.get(name)
        if value is None:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if parsed is not None and timezone.is_naive(parsed):
                parsed = timezone.make_aware(parsed, dt.UTC)
            if parsed is not None:
                # Year 1 at +05:00 is a valid text but no time the database can store (UTC).
                parsed.astimezone(dt.UTC)
        except (ValueError, OverflowError):  # "2024-02-30T10:00:00": the pattern, not a date
            parsed = None
        if parsed is None:
            raise self._error(section, number, name, _("must be a date and time (ISO 8601)."))
        return parsed

    def _ref(
        self, section: str, number: int, row: dict[str, Any], seen: set, *, required: bool = True
    ) -> Any:
        """The row's own ``id`` (file-local): a number or text, once per section."""
        ref = row.get("id")
        if ref is None and not required:
            return None
        if not _is_ref(ref):
            raise self._error(section, number, "id", _("must be a number or text."))
        if ref in seen:
            raise self._error(section, number, "id", _("is used twice."))
        seen.add(ref)
        return ref

    def _reference(
        self,
        section: str,
        number: int,
        row: dict[str, Any],
        name: str,
        refs: Iterable[Any],
        missing: str,
    ) -> Any:
        """The row's reference ``name`` to another row of the file (its ``id``), or None.

        The type is checked first: a list or an object is no id (and cannot be looked up).
        """
        value = row.get(name)
        if value is None:
            return None
        if not _is_ref(value):
            raise self._error(
                section, number, name, _("must be an id of the file (a number or text) or null.")
            )
        if value not in refs:
            raise self._error(section, number, name, missing)
        return value

    def _unique(self, section: str, rows: list[dict[str, Any]], keys: tuple[str, ...]) -> None:
        seen = set()
        for number, row in enumerate(rows, start=1):
            values = row.get("values", row)
            key = tuple(values[k] for k in keys)
            if key in seen:
                raise ImportRefused(
                    _("%(section)s, entry %(number)s: another entry has the same %(keys)s.")
                    % {"section": section, "number": number, "keys": ", ".join(keys)}
                )
            seen.add(key)

    # Sections -----------------------------------------------------------------------------

    def _days(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = [
            self._values("days", n, row, CampaignDay, DAY_FIELDS)
            for n, row in self._rows(data, "days")
        ]
        self._unique("days", rows, ("index",))
        return rows

    def _side_days(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = [
            self._values("side_days", n, row, SideDay, SIDE_DAY_FIELDS)
            for n, row in self._rows(data, "side_days")
        ]
        self._unique("side_days", rows, ("index", "side"))
        return rows

    def _ledger(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows = []
        for n, row in self._rows(data, "ledger"):
            values = self._values("ledger", n, row, LedgerEntry, LEDGER_FIELDS)
            kinds = CPP_KINDS if values["ledger"] == LedgerEntry.CPP else FPP_KINDS
            if values["kind"] not in kinds:
                raise self._error(
                    "ledger",
                    n,
                    "kind",
                    _("does not belong in the %(ledger)s ledger.")
                    % {"ledger": values["ledger"].upper()},
                )
            sign = kinds[values["kind"]]
            if values["amount"] == 0 or (sign and values["amount"] * sign < 0):
                raise self._error(
                    "ledger", n, "amount", _("a gain must be more than 0, a cost less than 0.")
                )
            rows.append(
                {"values": values, "created_at": self._timestamp("ledger", n, row, "created_at")}
            )
        return rows

    def _scenarios(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        for n, row in self._rows(data, "scenarios"):
            ref = self._ref("scenarios", n, row, refs)
            values = self._values("scenarios", n, row, Scenario, SCENARIO_FIELDS)
            for name in SCENARIO_SIDE_FIELDS:
                if values[name] and values[name] not in self.module.side_keys:
                    raise self._error("scenarios", n, name, _("is not a side of this game."))
            self._locations(n, values["locations"])
            rows.append({"ref": ref, "values": values})
        self._unique("scenarios", rows, ("index", "sequence"))
        return rows

    def _locations(self, number: int, locations: dict[str, Any]) -> None:
        """{side key: {"gained": n | null, "lost": n | null}}: what the scenario pages read."""
        for side, counts in locations.items():
            name = f"locations.{_short(side)}"
            if side not in self.module.side_keys:
                raise self._error("scenarios", number, name, _("is not a side of this game."))
            if not isinstance(counts, dict) or not set(counts) <= set(LOCATION_COUNTS):
                raise self._error(
                    "scenarios",
                    number,
                    name,
                    _("must be an object with “gained” and “lost” (each a count or null)."),
                )
            for key, count in counts.items():
                if count is not None and not (_is_int(count) and 0 <= count <= COUNT_MAX):
                    raise self._error(
                        "scenarios",
                        number,
                        f"{name}.{key}",
                        _("must be a count from 0 to %(max)s, or null.") % {"max": COUNT_MAX},
                    )

    def _cvp(self, data: dict[str, Any], scenario_refs: set) -> list[dict[str, Any]]:
        rows = []
        for n, row in self._rows(data, "cvp"):
            values = self._values("cvp", n, row, CvpEntry, CVP_FIELDS)
            scenario = self._reference(
                "cvp", n, row, "scenario", scenario_refs, _("names no scenario of the file.")
            )
            rows.append(
                {
                    "values": values,
                    "scenario": scenario,
                    "created_at": self._timestamp("cvp", n, row, "created_at"),
                }
            )
        return rows

    def _rgs(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        for n, row in self._rows(data, "rgs"):
            ref = self._ref("rgs", n, row, refs)
            rows.append(
                {"ref": ref, "values": self._values("rgs", n, row, ReinforcementGroup, RG_FIELDS)}
            )
        self._unique("rgs", rows, ("side", "rg_id", "number"))
        return rows

    def _orbat(self, data: dict[str, Any], rg_sides: dict[Any, str]) -> list[dict[str, Any]]:
        rows = []
        rgs_of: dict[str, set] = {}
        for ref, side in rg_sides.items():
            rgs_of.setdefault(side, set()).add(ref)
        for n, row in self._rows(data, "orbat"):
            values = self._values("orbat", n, row, OrbatEntry, ORBAT_FIELDS)
            if values["quantity"] < 1:
                raise self._error("orbat", n, "quantity", _("must be 1 or more."))
            if not all(isinstance(status, str) for status in values["statuses"]):
                raise self._error("orbat", n, "statuses", _("must be a list of texts."))
            group = self._reference(
                "orbat",
                n,
                row,
                "group",
                rgs_of.get(values["side"], set()),
                _("names no RG of this side in the file."),
            )
            if (values["box"] == OrbatBox.RG) != (group is not None):
                raise self._error(
                    "orbat", n, "group", _("is needed in the RG box, and only there.")
                )
            rows.append({"values": values, "group": group})
        return rows

    def _fortifications(
        self, data: dict[str, Any], ledger: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each purchase with FPP needs its debit in the ledger (same side, day and amount),
        one debit per purchase: the import links them again."""
        debits: dict[tuple, int] = {}
        for row in ledger:
            values = row["values"]
            if values["kind"] == LedgerKind.FORTIFICATION_PURCHASE:
                key = (values["side"], values["index"], -values["amount"])
                debits[key] = debits.get(key, 0) + 1
        rows = []
        for n, row in self._rows(data, "fortifications"):
            values = self._values(
                "fortifications", n, row, FortificationPurchase, FORTIFICATION_FIELDS
            )
            if values["quantity"] < 1:
                raise self._error("fortifications", n, "quantity", _("must be at least 1."))
            if not isinstance(values["details"], dict):
                raise self._error("fortifications", n, "details", _("must be an object."))
            if values["fpp"]:
                key = (values["side"], values["index"], values["fpp"])
                if not debits.get(key):
                    raise self._error(
                        "fortifications",
                        n,
                        "fpp",
                        _("has no matching fortification purchase in the FPP ledger."),
                    )
                debits[key] -= 1
            rows.append(
                {
                    "values": values,
                    "created_at": self._timestamp("fortifications", n, row, "created_at"),
                }
            )
        return rows

    def _history(self, data: dict[str, Any], roll_refs: set) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        for n, row in self._rows(data, "history"):
            # Files made before history rows had ids have none: nothing can name their events.
            ref = self._ref("history", n, row, refs, required=False)
            values = self._values(
                "history", n, row, CampaignEvent, ("action", "visibility", "target_type", "data")
            )
            if not values["action"]:
                raise self._error("history", n, "action", _("is missing."))
            if values["visibility"] not in allowed:
                raise self._error(
                    "history",
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            for name in ("actor", "undone_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self._error("history", n, name, _("must be a user name or null."))
            target = self._reference(
                "history", n, row, "target", roll_refs, _("names no dice roll of the file.")
            )
            if target is not None and values["target_type"] != ROLL_TARGET:
                raise self._error(
                    "history", n, "target", _("only an event about a dice roll names one.")
                )
            created_at = self._timestamp("history", n, row, "created_at")
            undone_at = self._timestamp("history", n, row, "undone_at")
            event_data = self._event_data(n, values["action"], values["data"])
            event_data[ORIGINAL_KEY] = {
                "created_at": row.get("created_at") if created_at else None,
                "actor": row.get("actor"),
                "undone_by": row.get("undone_by"),
            }
            rows.append(
                {
                    "ref": ref,
                    "values": {**values, "data": event_data, "undone_at": undone_at},
                    "target": target,
                    "created_at": created_at,
                    "names": None,
                }
            )
        # An event named by another (change.undone → the undone one) by its file id: linked to
        # the new event on import. Anything else there (a database id of the installation the
        # file came from, in files made before history rows had ids) names nothing here.
        for row in rows:
            event_data = row["values"]["data"]
            key = EVENT_REFERENCES.get(row["values"]["action"])
            if key in event_data:
                named = event_data.pop(key)
                if _is_ref(named) and named in refs:
                    row["names"] = named
        return rows

    def _event_data(self, number: int, action: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as it may be stored: no database ids, known keys of known types."""
        data = {k: v for k, v in data.items() if not _is_database_reference(action, k)}
        # The shapes each feature registered with its sentence: a value of another type would
        # break the history page. Keys not named are kept as they are.
        for key, kind in SENTENCES.data_shape(action).items():
            if key in data and not _event_data_fits(kind, data[key]):
                raise self._error("history", number, f"data.{key}", _event_data_rule(kind))
        return data

    def _dice_rolls(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        section = "dice_rolls"
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        turn_steps = turn_step_ids(self.module.files.get("turn_sequence"))
        for n, row in self._rows(data, section):
            ref = self._ref(section, n, row, refs)
            values = self._values(section, n, row, DiceRoll, DICE_FIELDS)
            if "sequence_step" not in row and "form_token" not in row:
                # A file from before the two keys: its notes carry them, as the data migration
                # found them in the database.
                split = split_legacy_note(
                    values["note"],
                    step=values["step"],
                    table_id=values["table_id"],
                    turn_steps=turn_steps,
                )
                values.update(
                    note=split.note, sequence_step=split.sequence_step, form_token=split.form_token
                )
            if values["sequence_step"] and values["sequence_step"] not in turn_steps:
                raise self._error(section, n, "sequence_step", _("is not a step of this game."))
            side = row.get("side", "")
            if side != "" and side not in self.module.side_keys:
                raise self._error(section, n, "side", _("is not a side of this game."))
            if values["visibility"] not in allowed:
                raise self._error(
                    section,
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            kind = values["kind"]
            if kind not in DICE:
                raise self._error(section, n, "kind", _("must be “dr” or “DR”."))
            faces = row.get("faces")
            if (
                not isinstance(faces, list)
                or len(faces) != DICE[kind]
                or not all(_is_int(face) and 1 <= face <= 6 for face in faces)
            ):
                raise self._error(
                    section,
                    n,
                    "faces",
                    _("must list %(count)s die faces from 1 to 6.") % {"count": DICE[kind]},
                )
            if values["original"] != sum(faces):
                raise self._error(section, n, "original", _("must be the sum of the dice."))
            modifiers = row.get("modifiers", [])
            if not isinstance(modifiers, list) or not all(_is_modifier(m) for m in modifiers):
                raise self._error(
                    section,
                    n,
                    "modifiers",
                    _("must be a list of objects with a whole-number “value” and a “reason”."),
                )
            if values["final"] != values["original"] + sum(m["value"] for m in modifiers):
                raise self._error(
                    section, n, "final", _("must be the original roll plus the modifiers.")
                )
            for name in ("rolled_by", "voided_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self._error(section, n, name, _("must be a user name or null."))
            voided_at = self._timestamp(section, n, row, "voided_at")
            if (voided_at is None) != (not values["void_reason"].strip()):
                raise self._error(
                    section,
                    n,
                    "void_reason",
                    _("is needed for a void roll, and only for one."),
                )
            rows.append(
                {
                    "ref": ref,
                    "values": {
                        **values,
                        "side": side,
                        "faces": faces,
                        "modifiers": modifiers,
                        "result": row.get("result"),
                        "voided_at": voided_at,
                    },
                    "rolled_at": self._timestamp(section, n, row, "rolled_at"),
                }
            )
        return rows


def _short(value: Any, limit: int = 40) -> str:
    """A value from the file, cut short for a message."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_modifier(record: Any) -> bool:
    """A roll's modifier as the dice service stores it (``Drm.record``)."""
    try:
        Drm.from_record(record)
    except ValueError:
        return False
    return True


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_ref(value: Any) -> bool:
    """A file-local id: a whole number or a text (a list or an object cannot be looked up)."""
    return _is_int(value) or isinstance(value, str)


def _event_data_fits(kind: str, value: Any) -> bool:
    if kind == TEXT:
        return isinstance(value, str)
    if kind == INT:
        return _is_int(value)
    if kind == TEXTS:
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, list) and all(_is_int(item) for item in value)  # INTS


def _event_data_rule(kind: str) -> str:
    if kind == TEXTS:
        return _("must be a list of texts.")
    if kind == INTS:
        return _("must be a list of whole numbers.")
    return _("must be %(kind)s.") % {"kind": _TYPE_NAMES[str if kind == TEXT else int]}


_TYPE_NAMES = {
    bool: gettext_lazy("true or false"),
    int: gettext_lazy("a whole number"),
    str: gettext_lazy("text"),
    dict: gettext_lazy("an object"),
    list: gettext_lazy("a list"),
}


def _checked(model_field: models.Field, value: Any) -> Any:
    """``value`` if it fits ``model_field`` exactly (type, length, range, choices)."""
    if value is None:
        if model_field.null:
            return None
        raise ValidationError(_("may not be null."))
    if isinstance(model_field, models.BooleanField):
        expected: type = bool
    elif isinstance(model_field, models.IntegerField):
        expected = int
    elif isinstance(model_field, models.CharField | models.TextField):
        expected = str
    elif isinstance(model_field, models.JSONField):
        expected = type(model_field.get_default())
    else:  # pragma: no cover - every exported column is one of the above
        raise ValidationError(_("cannot be imported."))
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ValidationError(_("must be %(kind)s.") % {"kind": _TYPE_NAMES[expected]})
    if expected is int:
        # The column's range on every database (SQLite stores any size; PostgreSQL refuses).
        low, high = BaseDatabaseOperations.integer_field_ranges.get(
            model_field.get_internal_type(), (None, None)
        )
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValidationError(
                _("must be between %(low)s and %(high)s.") % {"low": low, "high": high}
            )
    model_field.validate(value, None)
    model_field.run_validators(value)
    return value


# --- writing the new campaign ----------------------------------------------------------------


def imported_name(name: str) -> str:
    limit = Campaign._meta.get_field("name").max_length
    suffix = _(" (imported)")
    return name[: limit - len(suffix)] + suffix


def load(parsed: ParsedExport, *, user: AbstractBaseUser) -> Campaign:
    """Create the campaign the file describes, with ``user`` as its creator and only member.

    The file is the state: campaigns.state.initialize is not called. Rows the scope leaves out
    (another side's calendar records) are created blank, so every page finds its rows.

    One transaction: when the database refuses a value the checks let through, nothing is
    written and the file is refused as damaged.
    """
    try:
        return _load(parsed, user=user)
    except ImportRefused:
        raise
    except (DataError, IntegrityError, ValueError, TypeError, OverflowError, UnicodeError):
        logger.warning("A checked import file could not be written.", exc_info=True)
        raise ImportRefused(_damaged()) from None


@transaction.atomic
def _load(parsed: ParsedExport, *, user: AbstractBaseUser) -> Campaign:
    meta = parsed.campaign
    campaign = Campaign.objects.create(
        name=imported_name(meta["name"]),
        module=meta["module"],
        campaign_game=meta["campaign_game"],
        data_version=meta["data_version"],
        period_index=meta["period_index"],
        created_by=user,
    )
    role, side = role_for_scope(parsed.scope)
    Membership.objects.create(campaign=campaign, user=user, role=role, side=side)

    periods = range(len(campaign.cg.periods))
    days = {row["index"]: row for row in parsed.days}
    CampaignDay.objects.bulk_create(
        CampaignDay(campaign=campaign, **days.get(index, {"index": index})) for index in periods
    )
    side_days = {(row["index"], row["side"]): row for row in parsed.side_days}
    SideDay.objects.bulk_create(
        SideDay(campaign=campaign, **side_days.get((index, key), {"index": index, "side": key}))
        for index in periods
        for key in campaign.game.side_keys
    )
    ledger = _create_all(
        LedgerEntry, [LedgerEntry(campaign=campaign, **row["values"]) for row in parsed.ledger]
    )
    scenarios = _create_all(
        Scenario, [Scenario(campaign=campaign, **row["values"]) for row in parsed.scenarios]
    )
    scenario_by_ref = {
        row["ref"]: obj for row, obj in zip(parsed.scenarios, scenarios, strict=True)
    }
    cvp = _create_all(
        CvpEntry,
        [
            CvpEntry(
                campaign=campaign,
                scenario=scenario_by_ref.get(row["scenario"]),
                **row["values"],
            )
            for row in parsed.cvp
        ],
    )
    rgs = _create_all(
        ReinforcementGroup,
        [ReinforcementGroup(campaign=campaign, **row["values"]) for row in parsed.rgs],
    )
    rg_by_ref = {row["ref"]: obj for row, obj in zip(parsed.rgs, rgs, strict=True)}
    _create_all(
        OrbatEntry,
        [
            OrbatEntry(campaign=campaign, group=rg_by_ref.get(row["group"]), **row["values"])
            for row in parsed.orbat
        ],
    )
    debits: dict[tuple, list[LedgerEntry]] = {}
    for entry in ledger:
        if entry.kind == LedgerKind.FORTIFICATION_PURCHASE:
            debits.setdefault((entry.side, entry.index, -entry.amount), []).append(entry)
    fortifications = _create_all(
        FortificationPurchase,
        [
            FortificationPurchase(
                campaign=campaign,
                ledger_entry=debits[(v["side"], v["index"], v["fpp"])].pop(0) if v["fpp"] else None,
                **v,
            )
            for v in (row["values"] for row in parsed.fortifications)
        ],
    )
    # Rolls before history: a roll's events name it. Who rolled and who voided is not a user
    # here; the events keep the names (data.original), read back by roll_actor_names.
    rolls = _create_all(
        DiceRoll, [DiceRoll(campaign=campaign, **row["values"]) for row in parsed.dice_rolls]
    )
    roll_by_ref = {row["ref"]: obj for row, obj in zip(parsed.dice_rolls, rolls, strict=True)}
    events = _create_all(
        CampaignEvent,
        [
            CampaignEvent(
                campaign=campaign,
                actor=None,
                target_id=roll_by_ref[row["target"]].pk if row["target"] is not None else None,
                **row["values"],
            )
            for row in parsed.history
        ],
    )
    # change.undone names the undone event: by its file id in the file, by its id here.
    event_by_ref = {
        row["ref"]: obj
        for row, obj in zip(parsed.history, events, strict=True)
        if row["ref"] is not None
    }
    linked = []
    for row, obj in zip(parsed.history, events, strict=True):
        if row["names"] is not None:
            obj.data = {**obj.data, EVENT_REFERENCES[obj.action]: event_by_ref[row["names"]].pk}
            linked.append(obj)
    CampaignEvent.objects.bulk_update(linked, ["data"], batch_size=400)
    # auto_now_add stamped every row with now; give back the times the file kept.
    _restore_times(LedgerEntry, ledger, parsed.ledger)
    _restore_times(CvpEntry, cvp, parsed.cvp)
    _restore_times(FortificationPurchase, fortifications, parsed.fortifications)
    _restore_times(CampaignEvent, events, parsed.history)
    _restore_times(DiceRoll, rolls, parsed.dice_rolls, "rolled_at")
    points = short_transfer.load_section(campaign, parsed.short_game, _create_all)
    if parsed.short_game is not None:
        _restore_times(PointEntry, points, parsed.short_game["points"])
    history.record(
        campaign,
        user,
        "campaign.imported",
        name=meta["name"],
        module=meta["module"],
        campaign_game=meta["campaign_game"],
        scope=parsed.scope,
        role=role,
        side=side,
        format_version=FORMAT_VERSION,
        exported_at=parsed.exported_at,
        created_at=meta["created_at"] if isinstance(meta["created_at"], str) else None,
        members=parsed.members,
    )
    return campaign


def _create_all(model: type[models.Model], objs: list[models.Model]) -> list[models.Model]:
    """Insert in the given order (ids follow the file's order) and return rows with their ids."""
    if connection.features.can_return_rows_from_bulk_insert:
        return model.objects.bulk_create(objs)
    for obj in objs:  # pragma: no cover - SQLite ≥ 3.35 and PostgreSQL return ids
        obj.save(force_insert=True)
    return objs


def _restore_times(
    model: type[models.Model],
    objs: list[models.Model],
    rows: list[dict[str, Any]],
    name: str = "created_at",
) -> None:
    """Set each row's ``name`` (an auto_now_add time) to the file's (a few queries, not one
    per row)."""
    known = [
        (obj.pk, row[name]) for obj, row in zip(objs, rows, strict=True) if row[name] is not None
    ]
    for start in range(0, len(known), 400):
        chunk = known[start : start + 400]
        model.objects.filter(pk__in=[pk for pk, _when in chunk]).update(
            **{
                name: Case(
                    *(When(pk=pk, then=Value(when)) for pk, when in chunk),
                    output_field=models.DateTimeField(),
                )
            }
        )
