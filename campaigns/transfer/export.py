"""Writing the export file: the campaign as one viewer may see it, as JSON-ready data.

What goes in is decided by campaigns.access (the sides the viewer may see, ``filter_visible``
for history and dice rolls), never by the caller. Row ids are the file's own (1, 2, … per
section), not database ids, so a side's export does not reveal how many rows the other side has.

Who rolled and who voided an imported roll is kept, like every imported actor, in the
``data.original`` of its history events (``dice.rolled`` / ``dice.voided``), which the file links
to the roll by ``target``: ``roll_actor_names`` reads it back. History event data names no
database row either: ``change.undone`` names the undone event by its file id
(``EVENT_REFERENCES``), and keys that hold database ids are left out (``is_database_reference``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.text import slugify

from campaigns.access import Viewer
from campaigns.compiled import Reader, Tables
from campaigns.dice.actors import ROLL_TARGET, roll_actor_names
from campaigns.history.labels import ORIGINAL_KEY, event_actor_name
from campaigns.json_sql import WithoutKeys
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
    Scenario,
    SideDay,
)
from campaigns.transfer.format import (
    COMMITMENT_FIELDS,
    CVP_FIELDS,
    DAY_FIELDS,
    EVENT_REFERENCES,
    FORMAT,
    FORMAT_VERSION,
    FORTIFICATION_FIELDS,
    LEDGER_FIELDS,
    NOT_EXPORTED_EVENT_DATA,
    ORBAT_FIELDS,
    RG_FIELDS,
    SCENARIO_FIELDS,
    SIDE_DAY_FIELDS,
    is_database_reference,
    iso,
    scope_of,
)
from campaigns.transfer.sections import REGISTRY, FileIds, ids_to_file, numbered_rows
from campaigns.transfer.snapshot import read_snapshot


@dataclass(frozen=True)
class ExportContext:
    """What a section's exporter gets: who exports, and the file ids given so far."""

    viewer: Viewer
    ids: FileIds
    # What several sections read with one query, read once per export (``once``).
    kept: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def campaign(self) -> Campaign:
        return self.viewer.campaign

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides whose secrets the file holds."""
        return tuple(self.viewer.visible_sides())

    def once(self, key: str, read: Callable[[], Any]) -> Any:
        """``read()``, called by the first section that asks under ``key`` in this export."""
        if key not in self.kept:
            self.kept[key] = read()
        return self.kept[key]

    def references(self, model: type[models.Model], column: str, value: Any) -> Any:
        """``value`` of ``model.column`` with its row ids as file ids (REGISTRY references)."""
        return ids_to_file(value, REGISTRY.references(model, column), self.ids)


def build_export(viewer: Viewer, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The campaign as ``viewer`` may see it, as JSON-ready data, read from one snapshot
    (``read_snapshot``). A fixed number of queries."""
    with read_snapshot():
        head, tails = _export_parts(viewer, now)
        data: dict[str, Any] = {}
        for name, value in head.items():  # in the file's order: a section reads its rows in turn
            if isinstance(value, _Later):
                value = value.value()
                if value is None:
                    continue
            data[name] = list(value()) if isinstance(value, Rows) else value
        return {**data, **{name: list(rows()) for name, rows in tails.items()}}


def stream_export(viewer: Viewer, *, now: dt.datetime | None = None) -> Generator[str, None, None]:
    """The text ``dumps(build_export(viewer))`` gives, in pieces: the sections that grow with
    the campaign (the history, the dice rolls, the ledger, the OB, the CVP, the fortification
    purchases) are read and written a chunk of rows at a time, so what an export holds is their
    file ids (an int per row), not their rows.

    Every section is read from one snapshot (``read_snapshot``), opened at the first piece and
    closed when the last is written or the download is abandoned (``close()``): a change saved
    meanwhile is not in the file, so its sections always agree with each other."""
    with read_snapshot():
        head, tails = _export_parts(viewer, now)
        yield from _buffered(_stream_json(head, {name: rows() for name, rows in tails.items()}))


# Rows read from the database at a time, and the text sent at a time, by ``stream_export``.
STREAM_ROWS = 500
STREAM_BYTES = 64 * 1024


class Rows:
    """A section's rows, read only when the file is written (``stream_export``: a chunk at a
    time; ``build_export``: as a list)."""

    def __init__(self, rows: Callable[[], Iterable[dict[str, Any]]]) -> None:
        self._rows = rows

    def __call__(self) -> Iterable[dict[str, Any]]:
        return self._rows()


# The export's two queries (campaigns.compiled, compiled once per database and number of sides
# or scopes): the file ids of the rows that other rows name, then every core section's rows in the
# file's order. Their values: the campaign, the viewer's sides (``sides``) and scopes
# (``scopes``, ``Viewer.visible_scopes``), and the highest id numbered of each table (``last_…``:
# a row recorded after the ids were read has no file id and is not in the file).
_LEDGER = LedgerEntry.objects.order_by("side", "ledger", "index", "id")
_ROLLS = DiceRoll.objects.order_by("rolled_at", "id")
_RGS = ReinforcementGroup.objects.order_by("side", "index", "id")
# Ordered by references, not database ids, so that the same campaign exports the same: by side
# and box, then the lines of no RG, then by their RG's file id (its side, day and id, as ``_RGS``
# numbers them: a line's RG is of its own side), then by id.
_ORBAT = OrbatEntry.objects.order_by(
    "side",
    "box",
    F("group__side").asc(nulls_first=True),
    "group__index",
    "group_id",
    "id",
)
_EVENTS = CampaignEvent.objects.order_by("created_at", "id")
# The tables whose rows other rows name, by number in ``_FILE_IDS``'s rows.
_NUMBERED = (LedgerEntry, ReinforcementGroup, OrbatEntry, DiceRoll, CampaignEvent)
# A roll that names no user of this installation (an imported one): who rolled or voided it is
# read from its events.
_NAMELESS = Q(rolled_by__isnull=True) | Q(voided_at__isnull=False, voided_by__isnull=True)


def _file_ids(campaign: Any, sides: Any, scopes: Any) -> QuerySet:
    """``(table, database id, file id, nameless)`` of every row of the ``_NUMBERED`` tables in
    the file, table by table in rising database ids; the file id numbered by the database in the
    file's order (``numbered_rows``); ``nameless`` 1 for a roll that names no user."""
    parts = [
        numbered_rows(ordered.filter(campaign=campaign, **{which: chosen}))
        .order_by()
        .annotate(table=Value(number), nameless=nameless)
        .values_list("table", "pk", "_file_id", "nameless")
        for number, (ordered, which, chosen, nameless) in enumerate(
            [
                (_LEDGER, "side__in", sides, Value(0)),
                (_RGS, "side__in", sides, Value(0)),
                (_ORBAT, "side__in", sides, Value(0)),
                (_ROLLS, "visibility__in", scopes, Case(When(_NAMELESS, then=1), default=0)),
                (_EVENTS, "visibility__in", scopes, Value(0)),
            ]
        )
    ]
    return parts[0].union(*parts[1:], all=True).order_by("table", "pk")


_FILE_IDS = Reader(CampaignEvent, _file_ids)

_ROLL_COLUMNS = (
    "index",
    "side",
    "step",
    "table_id",
    "kind",
    "faces",
    "modifiers",
    "original",
    "final",
    "result",
    "note",
    "note_words",
    "sequence_step",
    "form_token",
    "visibility",
    "commitment_id",
    "counter",
    "client_value",
    "rolled_by__username",
    "rolled_at",
    "voided_at",
    "voided_by__username",
    "void_reason",
)
_EVENT_COLUMNS = (
    "id",
    "action",
    "visibility",
    "target_type",
    "target_id",
    "created_at",
    "actor_id",
    "actor__username",
    "undone_at",
    "undone_by__username",
)
# The core sections read by ``_SECTIONS``, in the file's order (its tables' numbers).
MEMBERS, DAYS, SIDE_DAYS, LEDGER, SCENARIOS, CVP, RGS, ORBAT, FORTIFICATIONS = range(9)
COMMITMENTS = 9


def _sections(
    campaign: Any,
    sides: Any,
    scopes: Any,
    last_ledger: Any,
    last_rg: Any,
    last_orbat: Any,
) -> list[tuple[QuerySet, tuple[str, ...]]]:
    """Each core section's table (ordered as in the file) and columns, in the file's order."""
    mine = {"campaign": campaign}
    theirs = {"campaign": campaign, "side__in": sides}
    seen = {"campaign": campaign, "visibility__in": scopes}
    return [
        (
            Membership.objects.filter(**mine).order_by("joined_at", "id"),
            ("user__username", "role", "side"),
        ),
        (CampaignDay.objects.filter(**mine).order_by("index"), DAY_FIELDS),
        (SideDay.objects.filter(**theirs).order_by("index", "side"), SIDE_DAY_FIELDS),
        (_LEDGER.filter(**theirs, pk__lte=last_ledger), ("id", "created_at", *LEDGER_FIELDS)),
        (Scenario.objects.filter(**mine).order_by("index", "sequence"), ("id", *SCENARIO_FIELDS)),
        (
            CvpEntry.objects.filter(**mine).order_by("index", "id"),
            ("scenario_id", "orbat_entry_id", "created_at", *CVP_FIELDS),
        ),
        (_RGS.filter(**theirs, pk__lte=last_rg), ("id", *RG_FIELDS)),
        (_ORBAT.filter(**theirs, pk__lte=last_orbat), ("id", "group_id", *ORBAT_FIELDS)),
        (
            FortificationPurchase.objects.filter(**theirs).order_by("side", "index", "id"),
            ("created_at", *FORTIFICATION_FIELDS),
        ),
        (
            DiceCommitment.objects.filter(**seen).order_by("created_at", "id"),
            ("id", *COMMITMENT_FIELDS, "seed", "created_at", "revealed_at"),
        ),
    ]


_SECTIONS = Tables(CampaignEvent, _sections)
# The history and the dice log, the longest sections, each its own query (ordered by an index:
# in the union above SQLite sorted their rows twice, for the row number and for the union).
# An event's data without what the file never holds (the undo snapshots), left in the database.
_EVENT_ROWS = Reader(
    CampaignEvent,
    lambda campaign, scopes, last: _EVENTS.filter(
        campaign=campaign, visibility__in=scopes, pk__lte=last
    ).values_list(*_EVENT_COLUMNS, WithoutKeys("data", NOT_EXPORTED_EVENT_DATA)),
)
_ROLL_ROWS = Reader(
    DiceRoll,
    lambda campaign, scopes, last: _ROLLS.filter(
        campaign=campaign, visibility__in=scopes, pk__lte=last
    ).values_list("id", *_ROLL_COLUMNS),
)


class _Stream:
    """``_SECTIONS``'s rows, one query read a chunk at a time: each section takes its own rows
    in turn, as the file is written (sections in the file's order)."""

    _END = (-1, ())

    def __init__(self, rows: Iterator[tuple[int, tuple]]) -> None:
        self._rows = rows
        self._next: tuple[int, tuple] | None = None

    def take(self, table: int) -> Iterator[tuple]:
        while True:
            if self._next is None:
                self._next = next(self._rows, self._END)
            if self._next[0] != table:
                return
            yield self._next[1]
            self._next = None


class _Later:
    """A registered section's value, asked for when the file reaches it (its rows may name rows
    of the core sections written before it); None: the file has no such key."""

    def __init__(self, value: Callable[[], Any]) -> None:
        self.value = value


class _User:
    __slots__ = ("username",)

    def __init__(self, username: str) -> None:
        self.username = username

    def get_username(self) -> str:
        return self.username


class _Event:
    """An event read as a row, with what ``event_actor_name`` and ``roll_actor_names`` read of
    a ``CampaignEvent``."""

    __slots__ = ("pk", "action", "visibility", "target_type", "target_id", "created_at")
    __slots__ += ("actor_id", "actor", "undone_at", "undone_by", "data")

    def __init__(self, row: tuple[Any, ...]) -> None:
        (
            self.pk,
            self.action,
            self.visibility,
            self.target_type,
            self.target_id,
            self.created_at,
            self.actor_id,
            actor,
            self.undone_at,
            self.undone_by,
            self.data,
        ) = row
        self.actor = _User(actor) if self.actor_id is not None else None


def _export_parts(
    viewer: Viewer, now: dt.datetime | None
) -> tuple[dict[str, Any], dict[str, Callable[[], Iterator[dict[str, Any]]]]]:
    """Every section but the history and the dice rolls (the core ones as ``Rows``, the
    registered ones as ``_Later``), and those two as generators: all to be read in the file's
    order, the core sections from one query (``_SECTIONS``)."""
    campaign = viewer.campaign
    context = ExportContext(viewer, FileIds())
    ids = context.ids
    cid = campaign.pk
    # Secret rows (side days, ledger, RGs, OB) only of the sides the viewer may see. Another
    # side's side days hold ELR/SAN and chits that may still be secret: only the referee, who
    # sees every side, gets them. History, rolls and commitments: the scopes the viewer may see.
    sides = list(context.sides)
    scopes = viewer.visible_scopes()
    # The file ids of the rows other rows name (an RG its ledger rows, a CVP loss its OB line, an
    # event its roll…), each table's read in rising database ids; the rolls that name no user.
    refs = [ids.numbered(model) for model in _NUMBERED]
    nameless: set[int] = set()
    for table, pk, ref, flag in _FILE_IDS(cid, sides, scopes, chunk=STREAM_ROWS):
        refs[table].add(pk, ref)
        if flag:
            nameless.add(pk)
    ledger_refs, rg_refs, orbat_refs, roll_refs, numbered = refs
    stream = _Stream(
        _SECTIONS(
            cid,
            sides,
            scopes,
            ledger_refs.highest(),
            rg_refs.highest(),
            orbat_refs.highest(),
            chunk=STREAM_ROWS,
        )
    )
    take = stream.take
    # Numbered as they are written (in the file's order): each is named only by later sections.
    scenario_refs = ids.number(Scenario, ())
    commitment_refs = ids.number(DiceCommitment, ())

    def scenarios() -> Iterator[dict[str, Any]]:
        for pk, *values in take(SCENARIOS):
            yield {
                "id": scenario_refs.append(pk),
                **dict(zip(SCENARIO_FIELDS, values, strict=True)),
            }

    def commitments() -> Iterator[dict[str, Any]]:
        for pk, *values, seed, created_at, revealed_at in take(COMMITMENTS):
            yield {
                "id": commitment_refs.append(pk),
                **dict(zip(COMMITMENT_FIELDS, values, strict=True)),
                # A seed only once its phase is over (``shown_seed``).
                "seed": seed if revealed_at is not None else "",
                "created_at": iso(created_at),
                "revealed_at": iso(revealed_at),
            }

    def orbat() -> Iterator[dict[str, Any]]:
        for pk, group, *values in take(ORBAT):
            yield {
                "id": orbat_refs[pk],
                **dict(zip(ORBAT_FIELDS, values, strict=True)),
                "group": rg_refs.get(group),
            }

    core = {
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
            "created_at": iso(campaign.created_at),
            "revealed_at": iso(campaign.revealed_at),
        },
        "members": Rows(
            lambda: (
                {"username": username, "role": role, "side": side}
                for username, role, side in take(MEMBERS)
            )
        ),
        "days": Rows(lambda: (dict(zip(DAY_FIELDS, row, strict=True)) for row in take(DAYS))),
        "side_days": Rows(
            lambda: (dict(zip(SIDE_DAY_FIELDS, row, strict=True)) for row in take(SIDE_DAYS))
        ),
        "ledger": Rows(
            lambda: (
                {
                    "id": ledger_refs[pk],
                    **dict(zip(LEDGER_FIELDS, values, strict=True)),
                    "created_at": iso(created_at),
                }
                for pk, created_at, *values in take(LEDGER)
            )
        ),
        "scenarios": Rows(scenarios),
        "cvp": Rows(
            lambda: (
                {
                    **dict(zip(CVP_FIELDS, values, strict=True)),
                    "scenario": scenario_refs.get(scenario),
                    # The OB line a loss was recorded from: named only when the line is in the
                    # file (its side's secret), else null.
                    "orbat": orbat_refs.get(orbat_entry),
                    "created_at": iso(created_at),
                }
                for scenario, orbat_entry, created_at, *values in take(CVP)
            )
        ),
        "rgs": Rows(
            lambda: (
                {
                    "id": rg_refs[pk],
                    **(row := dict(zip(RG_FIELDS, values, strict=True))),
                    "details": context.references(ReinforcementGroup, "details", row["details"]),
                }
                for pk, *values in take(RGS)
            )
        ),
        "orbat": Rows(orbat),
        "fortifications": Rows(
            lambda: (
                {
                    **dict(zip(FORTIFICATION_FIELDS, values, strict=True)),
                    "created_at": iso(created_at),
                }
                for created_at, *values in take(FORTIFICATIONS)
            )
        ),
        "dice_commitments": Rows(commitments),
    }
    # The sections other features registered (the Refit Phase, the short games), in order, each
    # read when the file reaches it: a section may name the rows of an earlier one, and the
    # history any of them.
    registered = {
        section.name: _Later(lambda export=section.export: export(context)) for section in REGISTRY
    }
    # Who rolled or voided a roll that names no user of this installation (an imported one):
    # from its events, met in the history before the rolls are written.
    names: dict[tuple[int, str], str] = {}

    def history() -> Iterator[dict[str, Any]]:
        for row in _EVENT_ROWS(cid, scopes, numbered.highest(), chunk=STREAM_ROWS):
            event = _Event(row)
            if event.target_id in nameless and event.target_type == ROLL_TARGET:
                names.update(roll_actor_names([event]))
            yield _event_record(event, context)

    def dice_rolls() -> Iterator[dict[str, Any]]:
        return (
            _roll_record(pk, roll_refs[pk], values, names, commitment_refs)
            for pk, *values in _ROLL_ROWS(cid, scopes, roll_refs.highest(), chunk=STREAM_ROWS)
        )

    return {**core, **registered}, {"history": history, "dice_rolls": dice_rolls}


def _original(event: _Event) -> dict[str, Any] | None:
    """What an event imported earlier (no actor here) kept of its time and names."""
    original = event.data.get(ORIGINAL_KEY) if event.actor_id is None else None
    return original if isinstance(original, dict) else None


def _event_record(event: _Event, context: ExportContext) -> dict[str, Any]:
    data = {k: v for k, v in event.data.items() if not is_database_reference(event.action, k)}
    # Rows named inside the data (the Refit Phase step a change was made for…): by file id.
    data = context.references(CampaignEvent, "data", data)
    # Another event named by its database id: the file names it by its file id, or not at all.
    reference = EVENT_REFERENCES.get(event.action)
    if reference in data:
        ref = context.ids.of(CampaignEvent, data[reference])
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
        created_at = iso(event.created_at)
        undone_by = event.undone_by
    target = None
    if event.target_type == ROLL_TARGET:
        target = context.ids.of(DiceRoll, event.target_id)
    return {
        "id": context.ids.of(CampaignEvent, event.pk),
        "action": event.action,
        "visibility": event.visibility,
        "target_type": event.target_type,
        "target": target,
        "created_at": created_at,
        "actor": event_actor_name(event),  # type: ignore[arg-type]
        "undone_at": iso(event.undone_at),
        "undone_by": undone_by,
        "data": data,
    }


def _roll_record(
    pk: int,
    ref: int,
    values: list[Any],
    names: dict[tuple[int, str], str],
    commitments: dict[int, int],
) -> dict[str, Any]:
    roll = dict(zip(_ROLL_COLUMNS, values, strict=True))
    rolled_by = roll["rolled_by__username"]
    voided_by = roll["voided_by__username"]
    return {
        "id": ref,
        "index": roll["index"],
        "side": roll["side"],
        "step": roll["step"],
        "table_id": roll["table_id"],
        "kind": roll["kind"],
        "faces": roll["faces"],
        "modifiers": roll["modifiers"],
        "original": roll["original"],
        "final": roll["final"],
        "result": roll["result"],
        "note": roll["note"],
        "note_words": roll["note_words"],
        "sequence_step": roll["sequence_step"],
        "form_token": roll["form_token"],
        "visibility": roll["visibility"],
        "commitment": commitments.get(roll["commitment_id"]),
        "counter": roll["counter"],
        "client_value": roll["client_value"],
        "rolled_by": rolled_by if rolled_by is not None else names.get((pk, "rolled_by")),
        "rolled_at": iso(roll["rolled_at"]),
        "voided_at": iso(roll["voided_at"]),
        "voided_by": (
            (voided_by if voided_by is not None else names.get((pk, "voided_by")))
            if roll["voided_at"] is not None
            else None
        ),
        "void_reason": roll["void_reason"],
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2) + "\n"


def _json(value: Any, depth: int) -> str:
    """``value`` as ``dumps`` writes it ``depth`` levels down (``json.dumps(…, indent=2)``
    with each newline followed by ``depth`` more indents: the same text to the letter).

    ``json`` writes an indented text in pure Python, one generator per level; the rows of an
    export are plain dicts, lists, strings and numbers, written here by one recursive function
    over the C string encoder (about three times faster). Any other value (a date, a lazy
    string) goes through ``DjangoJSONEncoder.default`` as ``json`` would send it."""
    parts: list[str] = []
    _write(value, "\n" + "  " * depth, parts)
    return "".join(parts)


_encode_string = json.encoder.encode_basestring  # the C one when available, as json's own
_DEFAULT = DjangoJSONEncoder().default


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


# The values of exactly these types, written as ``_write`` writes them, without a call of it per
# value (most of a row's values; a subclass goes through ``_write``'s checks).
_SCALARS: dict[type, Callable[[Any], str]] = {
    str: _encode_string,
    type(None): lambda _value: "null",
    bool: lambda value: "true" if value else "false",
    int: int.__repr__,
    float: _float,
}


def _write(value: Any, newline: str, out: list[str]) -> None:
    """``value`` appended to ``out`` as ``json`` writes it with ``indent=2``, ``newline`` being
    the line break and indent of its own level (the ``_iterencode`` order of checks)."""
    if isinstance(value, str):
        out.append(_encode_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        separator = "["
        for item in value:
            scalar = _SCALARS.get(type(item))
            if scalar is not None:
                out.append(separator + inner + scalar(item))
            else:
                out.append(separator + inner)
                _write(item, inner, out)
            separator = ","
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        separator = "{"
        for key, item in value.items():
            name = _encode_string(key if type(key) is str else _key(key))
            scalar = _SCALARS.get(type(item))
            if scalar is not None:
                out.append(separator + inner + name + ": " + scalar(item))
            else:
                out.append(separator + inner + name + ": ")
                _write(item, inner, out)
            separator = ","
        out.append(newline + "}")
    else:
        _write(_DEFAULT(value), newline, out)


def _stream_json(head: dict[str, Any], tails: dict[str, Iterator[Any]]) -> Iterator[str]:
    """``dumps({**head, **tails})`` with each of ``tails`` and every list written a row at a
    time."""
    yield "{"
    first = True
    for key, value in [*head.items(), *tails.items()]:
        if isinstance(value, _Later):  # a registered section: None, no key
            value = value.value()
            if value is None:
                continue
        yield ("" if first else ",") + "\n  " + _json(key, 1) + ": "
        first = False
        if key not in tails and not isinstance(value, (list, Rows)):
            yield _json(value, 1)
            continue
        empty = True
        for row in value() if isinstance(value, Rows) else value:
            yield ("[" if empty else ",") + "\n    " + _json(row, 2)
            empty = False
        yield "[]" if empty else "\n  ]"
    yield "\n}\n"


def _buffered(pieces: Iterable[str]) -> Iterator[str]:
    """The pieces joined into chunks of about ``STREAM_BYTES``."""
    buffer: list[str] = []
    size = 0
    for piece in pieces:
        buffer.append(piece)
        size += len(piece)
        if size >= STREAM_BYTES:
            yield "".join(buffer)
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer)


def export_filename(campaign: Campaign, today: dt.date | None = None) -> str:
    """``<campaign-name-slug>-<date>.json``; Japanese names keep their letters."""
    slug = slugify(campaign.name, allow_unicode=True) or "campaign"
    return f"{slug}-{(today or timezone.localdate()).isoformat()}.json"
