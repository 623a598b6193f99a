"""Writing a checked file (``ParsedExport``) as a new campaign, in one short transaction.

Everything is checked before (``read``, ``check``): the transaction only inserts rows, links
them and restores their times. The file is the state: campaigns.state.initialize is not called.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Case, Value, When
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceCommitment,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    LedgerKind,
    Membership,
    OrbatEntry,
    RefitPhase,
    ReinforcementGroup,
    Scenario,
    SideDay,
)
from campaigns.orbat.legacy import fill_statuses
from campaigns.transfer.check import ParsedExport
from campaigns.transfer.format import (
    EVENT_REFERENCES,
    ImportRefused,
    damaged,
    role_for_scope,
)
from campaigns.transfer.sections import REGISTRY, file_to_ids, label
from campaigns.transfer.values import is_ref

logger = logging.getLogger(__name__)


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
        raise ImportRefused(damaged()) from None


@dataclass
class LoadContext:
    """What a section's loader gets: the new campaign, the rows made so far by their file ids,
    and the two ways rows are written (in the file's order; with the file's times)."""

    campaign: Campaign
    made: dict[str, dict[Any, models.Model]] = field(default_factory=dict)

    def create(self, model: type[models.Model], objs: list[models.Model]) -> list[models.Model]:
        return _create_all(model, objs)

    def restore_times(
        self,
        model: type[models.Model],
        objs: list[models.Model],
        rows: list[dict[str, Any]],
        name: str = "created_at",
    ) -> None:
        _restore_times(model, objs, rows, name)

    def keep(
        self, model: type[models.Model], refs: Iterable[Any], objs: Iterable[models.Model]
    ) -> None:
        """Remember the new rows by the file ids of the rows they were made from."""
        self.made[label(model)] = {
            ref: obj for ref, obj in zip(refs, objs, strict=True) if ref is not None
        }

    def row(self, model: type[models.Model], ref: Any) -> models.Model | None:
        """The new row made from ``model``'s row with file id ``ref`` (None if there is none)."""
        if not is_ref(ref):
            return None
        return self.made.get(label(model), {}).get(ref)

    def references(self, model: type[models.Model], column: str, value: Any) -> Any:
        """``value`` of ``model.column`` with the file ids it holds as the new rows' ids."""
        return file_to_ids(value, REGISTRY.references(model, column), self.row)


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
        revealed_at=meta.get("revealed_at"),
    )
    context = LoadContext(campaign)
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
    # Rolls first: other rows name them (an RG's rolls, an escape, a history event). Who rolled
    # and who voided is not a user here; the events keep the names (data.original), read back
    # by roll_actor_names.
    # Verifiable dice: the commitments (no Refit Phase: an imported one never rolls again).
    commitments = _create_all(
        DiceCommitment,
        [DiceCommitment(campaign=campaign, **row["values"]) for row in parsed.dice_commitments],
    )
    context.keep(DiceCommitment, (row["ref"] for row in parsed.dice_commitments), commitments)
    rolls = _create_all(
        DiceRoll,
        [
            DiceRoll(
                campaign=campaign,
                commitment=context.row(DiceCommitment, row["commitment"]),
                **row["values"],
            )
            for row in parsed.dice_rolls
        ],
    )
    context.keep(DiceRoll, (row["ref"] for row in parsed.dice_rolls), rolls)
    ledger = _create_all(
        LedgerEntry, [LedgerEntry(campaign=campaign, **row["values"]) for row in parsed.ledger]
    )
    context.keep(LedgerEntry, (row["ref"] for row in parsed.ledger), ledger)
    scenarios = _create_all(
        Scenario, [Scenario(campaign=campaign, **row["values"]) for row in parsed.scenarios]
    )
    context.keep(Scenario, (row["ref"] for row in parsed.scenarios), scenarios)
    rgs = _create_all(
        ReinforcementGroup,
        [
            ReinforcementGroup(
                campaign=campaign,
                **{
                    **row["values"],
                    "details": context.references(
                        ReinforcementGroup, "details", row["values"]["details"]
                    ),
                },
            )
            for row in parsed.rgs
        ],
    )
    context.keep(ReinforcementGroup, (row["ref"] for row in parsed.rgs), rgs)
    orbat = _create_all(
        OrbatEntry,
        [
            OrbatEntry(
                campaign=campaign,
                group=context.row(ReinforcementGroup, row["group"]),
                **row["values"],
            )
            for row in parsed.orbat
        ],
    )
    context.keep(OrbatEntry, (row.get("ref") for row in parsed.orbat), orbat)
    cvp = _create_all(
        CvpEntry,
        [
            CvpEntry(
                campaign=campaign,
                scenario=context.row(Scenario, row["scenario"]),
                orbat_entry=context.row(OrbatEntry, row.get("orbat")),
                **row["values"],
            )
            for row in parsed.cvp
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
    # The sections features registered, in order; then the history, which may name their rows.
    for section in REGISTRY:
        if section.name in parsed.sections:
            section.load(context, parsed.sections[section.name])
    legacy = [rg for row, rg in zip(parsed.rgs, rgs, strict=True) if row["legacy_status"]]
    if legacy:
        # Older files have no status: the one the data migration gives (campaigns.orbat.legacy).
        fill_statuses(campaign, legacy, RefitPhase)
        ReinforcementGroup.objects.bulk_update(legacy, ["status"], batch_size=400)
    events = [
        CampaignEvent(
            campaign=campaign,
            actor=None,
            target_id=getattr(context.row(DiceRoll, row["target"]), "pk", None),
            **{
                **row["values"],
                "data": context.references(CampaignEvent, "data", row["values"]["data"]),
            },
        )
        for row in parsed.history
    ]
    for event in events:
        event.tag_step()  # the step's RePh and roll by their new ids
    events = _create_all(CampaignEvent, events)
    # change.undone names the undone event: by its file id in the file, by its id here.
    context.keep(CampaignEvent, (row["ref"] for row in parsed.history), events)
    linked = []
    for row, obj in zip(parsed.history, events, strict=True):
        if row["names"] is not None:
            undone = context.row(CampaignEvent, row["names"])
            obj.data = {**obj.data, EVENT_REFERENCES[obj.action]: undone.pk}
            linked.append(obj)
    CampaignEvent.objects.bulk_update(linked, ["data"], batch_size=400)
    # auto_now_add stamped every row with now; give back the times the file kept.
    _restore_times(LedgerEntry, ledger, parsed.ledger)
    _restore_times(CvpEntry, cvp, parsed.cvp)
    _restore_times(FortificationPurchase, fortifications, parsed.fortifications)
    _restore_times(CampaignEvent, events, parsed.history)
    _restore_times(DiceRoll, rolls, parsed.dice_rolls, "rolled_at")
    _restore_times(DiceCommitment, commitments, parsed.dice_commitments)
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
        format_version=parsed.format_version,
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
