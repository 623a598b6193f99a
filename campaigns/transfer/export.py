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
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify

from campaigns.access import Viewer
from campaigns.dice.actors import ROLL_ACTORS, ROLL_TARGET, roll_actor_names
from campaigns.dice.checks import shown_seed
from campaigns.history.labels import ORIGINAL_KEY, event_actor_name
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
    ORBAT_FIELDS,
    RG_FIELDS,
    SCENARIO_FIELDS,
    SIDE_DAY_FIELDS,
    is_database_reference,
    iso,
    scope_of,
)
from campaigns.transfer.sections import REGISTRY, FileIds, ids_to_file
from campaigns.transfer.snapshot import read_snapshot


@dataclass(frozen=True)
class ExportContext:
    """What a section's exporter gets: who exports, and the file ids given so far."""

    viewer: Viewer
    ids: FileIds

    @property
    def campaign(self) -> Campaign:
        return self.viewer.campaign

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides whose secrets the file holds."""
        return tuple(self.viewer.visible_sides())

    def references(self, model: type[models.Model], column: str, value: Any) -> Any:
        """``value`` of ``model.column`` with its row ids as file ids (REGISTRY references)."""
        return ids_to_file(value, REGISTRY.references(model, column), self.ids)


def build_export(viewer: Viewer, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The campaign as ``viewer`` may see it, as JSON-ready data, read from one snapshot
    (``read_snapshot``). A fixed number of queries."""
    with read_snapshot():
        head, tails = _export_parts(viewer, now)
        return {
            **{
                name: list(value()) if isinstance(value, Rows) else value
                for name, value in head.items()
            },
            **{name: list(rows()) for name, rows in tails.items()},
        }


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


def _export_parts(
    viewer: Viewer, now: dt.datetime | None
) -> tuple[dict[str, Any], dict[str, Callable[[], Iterator[dict[str, Any]]]]]:
    """Every section but the history and the dice rolls, as data; those two as generators."""
    campaign = viewer.campaign
    context = ExportContext(viewer, FileIds())
    ids = context.ids
    # Secret rows (side days, ledger, RGs, OB) only of the sides the viewer may see. Another
    # side's side days hold ELR/SAN and chits that may still be secret: only the referee, who
    # sees every side, gets them.
    sides = context.sides
    scenarios = list(
        Scenario.objects.filter(campaign=campaign)
        .order_by("index", "sequence")
        .values("id", *SCENARIO_FIELDS)
    )
    scenario_refs = ids.number(Scenario, (row["id"] for row in scenarios))
    ledger = LedgerEntry.objects.filter(campaign=campaign, side__in=sides).order_by(
        "side", "ledger", "index", "id"
    )
    ledger_refs = ids.number_rows(LedgerEntry, ledger)
    # Rows recorded while the file is being sent have no file id: they are not in it.
    ledger = ledger.filter(pk__lte=max(ledger_refs, default=0))
    # The dice commitments of the scopes the viewer may see; a seed only once its phase is over.
    commitments = list(
        viewer.filter_visible(DiceCommitment.objects.filter(campaign=campaign)).order_by(
            "created_at", "id"
        )
    )
    commitment_refs = ids.number(DiceCommitment, (c.pk for c in commitments))
    # Every roll the viewer may see (its dice.rolled / dice.voided events have its visibility).
    rolls = viewer.filter_visible(DiceRoll.objects.filter(campaign=campaign)).order_by(
        "rolled_at", "id"
    )
    roll_refs = ids.number(DiceRoll, rolls.values_list("pk", flat=True).iterator(STREAM_ROWS))
    # Rows recorded while the file is being sent have no file id: they are not in it.
    rolls = rolls.filter(pk__lte=max(roll_refs, default=0))
    rgs = ReinforcementGroup.objects.filter(campaign=campaign, side__in=sides).order_by(
        "side", "index", "id"
    )
    rg_refs = ids.number_rows(ReinforcementGroup, rgs)
    # Rows recorded while the file is being sent have no file id: they are not in it.
    rgs = rgs.filter(pk__lte=max(rg_refs, default=0))
    # Ordered by references, not database ids, so that the same campaign exports the same:
    # by side and box, then the lines of no RG, then by their RG's file id (its side, day and
    # id, as ``rgs`` numbers them: a line's RG is of its own side), then by id.
    orbat_rows = OrbatEntry.objects.filter(campaign=campaign, side__in=sides).order_by(
        "side",
        "box",
        F("group__side").asc(nulls_first=True),
        "group__index",
        "group_id",
        "id",
    )
    orbat_refs = ids.number_rows(OrbatEntry, orbat_rows)
    orbat_rows = orbat_rows.filter(pk__lte=max(orbat_refs, default=0))

    def orbat() -> Iterator[dict[str, Any]]:
        for row in orbat_rows.values("id", "group_id", *ORBAT_FIELDS).iterator(STREAM_ROWS):
            yield {
                "id": orbat_refs[row["id"]],
                **_pick(row, ORBAT_FIELDS),
                "group": rg_refs.get(row["group_id"]),
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
        "ledger": Rows(
            lambda: (
                {
                    "id": ledger_refs[row["id"]],
                    **_pick(row, LEDGER_FIELDS),
                    "created_at": iso(row["created_at"]),
                }
                for row in ledger.values("id", "created_at", *LEDGER_FIELDS).iterator(STREAM_ROWS)
            )
        ),
        "scenarios": [
            {"id": scenario_refs[row["id"]], **_pick(row, SCENARIO_FIELDS)} for row in scenarios
        ],
        "cvp": Rows(
            lambda: (
                {
                    **_pick(row, CVP_FIELDS),
                    "scenario": scenario_refs.get(row["scenario_id"]),
                    # The OB line a loss was recorded from: named only when the line is in the
                    # file (its side's secret), else null.
                    "orbat": orbat_refs.get(row["orbat_entry_id"]),
                    "created_at": iso(row["created_at"]),
                }
                for row in CvpEntry.objects.filter(campaign=campaign)
                .order_by("index", "id")
                .values("scenario_id", "orbat_entry_id", "created_at", *CVP_FIELDS)
                .iterator(STREAM_ROWS)
            )
        ),
        "rgs": Rows(
            lambda: (
                {
                    "id": rg_refs[row["id"]],
                    **_pick(row, RG_FIELDS),
                    "details": context.references(ReinforcementGroup, "details", row["details"]),
                }
                for row in rgs.values("id", *RG_FIELDS).iterator(STREAM_ROWS)
            )
        ),
        "orbat": Rows(orbat),
        "fortifications": Rows(
            lambda: (
                {**_pick(row, FORTIFICATION_FIELDS), "created_at": iso(row["created_at"])}
                for row in FortificationPurchase.objects.filter(campaign=campaign, side__in=sides)
                .order_by("side", "index", "id")
                .values("created_at", *FORTIFICATION_FIELDS)
                .iterator(STREAM_ROWS)
            )
        ),
        "dice_commitments": [
            {
                "id": commitment_refs[c.pk],
                **{name: getattr(c, name) for name in COMMITMENT_FIELDS},
                "seed": shown_seed(c),
                "created_at": iso(c.created_at),
                "revealed_at": iso(c.revealed_at),
            }
            for c in commitments
        ],
    }
    # The sections other features registered (the Refit Phase, the short games), in order: a
    # section may name the rows of an earlier one, and the history any of them.
    registered = {}
    for section in REGISTRY:
        value = section.export(context)
        if value is not None:
            registered[section.name] = value
    events = viewer.filter_visible(CampaignEvent.objects.filter(campaign=campaign)).order_by(
        "created_at", "id"
    )
    numbered = ids.number(CampaignEvent, events.values_list("pk", flat=True).iterator(STREAM_ROWS))
    events = events.filter(pk__lte=max(numbered, default=0))
    # Who rolled or voided a roll that names no user of this installation (an imported one),
    # from its events: only those rolls' events are read.
    nameless = rolls.filter(
        Q(rolled_by__isnull=True) | Q(voided_at__isnull=False, voided_by__isnull=True)
    )
    names = roll_actor_names(
        events.filter(
            action__in=ROLL_ACTORS, target_type=ROLL_TARGET, target_id__in=nameless.values("pk")
        ).select_related("actor")
    )

    def history() -> Iterator[dict[str, Any]]:
        chunked = events.select_related("actor", "undone_by").iterator(chunk_size=STREAM_ROWS)
        return (_event_record(event, context) for event in chunked)

    def dice_rolls() -> Iterator[dict[str, Any]]:
        chunked = rolls.select_related("rolled_by", "voided_by").iterator(chunk_size=STREAM_ROWS)
        return (_roll_record(roll, roll_refs[roll.pk], names, commitment_refs) for roll in chunked)

    return {**core, **registered}, {"history": history, "dice_rolls": dice_rolls}


def _pick(row: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {name: row[name] for name in names}


def _original(event: CampaignEvent) -> dict[str, Any] | None:
    """What an event imported earlier (no actor here) kept of its time and names."""
    original = event.data.get(ORIGINAL_KEY) if event.actor_id is None else None
    return original if isinstance(original, dict) else None


def _event_record(event: CampaignEvent, context: ExportContext) -> dict[str, Any]:
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
        undone_by = event.undone_by.get_username() if event.undone_by else None
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
        "actor": event_actor_name(event),
        "undone_at": iso(event.undone_at),
        "undone_by": undone_by,
        "data": data,
    }


def _roll_record(
    roll: DiceRoll,
    ref: int,
    names: dict[tuple[int, str], str],
    commitments: dict[int, int],
) -> dict[str, Any]:
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
        "note_words": roll.note_words,
        "sequence_step": roll.sequence_step,
        "form_token": roll.form_token,
        "visibility": roll.visibility,
        "commitment": commitments.get(roll.commitment_id),
        "counter": roll.counter,
        "client_value": roll.client_value,
        "rolled_by": user("rolled_by"),
        "rolled_at": iso(roll.rolled_at),
        "voided_at": iso(roll.voided_at),
        "voided_by": user("voided_by") if roll.voided_at is not None else None,
        "void_reason": roll.void_reason,
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
            out.append(separator + inner + _encode_string(_key(key)) + ": ")
            _write(item, inner, out)
            separator = ","
        out.append(newline + "}")
    else:
        _write(_DEFAULT(value), newline, out)


def _stream_json(head: dict[str, Any], tails: dict[str, Iterator[Any]]) -> Iterator[str]:
    """``dumps({**head, **tails})`` with each of ``tails`` and every list written a row at a
    time."""
    yield "{"
    for n, (key, value) in enumerate([*head.items(), *tails.items()]):
        yield ("," if n else "") + "\n  " + _json(key, 1) + ": "
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
