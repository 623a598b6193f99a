"""Verifiable dice as a viewer may read them: the commitments' hashes and revealed seeds, and
each roll's check (``campaigns.dice.verify``). What a viewer sees is decided by
``campaigns.access`` — a commitment has the scope of its rolls (``filter_visible``) — and a seed
is shown only once its phase is over (``shown_seed``), to every persona, in every page and file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from campaigns.access import Viewer
from campaigns.compiled import CompiledQuery
from campaigns.dice import verify
from campaigns.models import DiceCommitment, DiceRoll

STATUS_WORDS = {
    verify.MATCHES: _("verified"),
    verify.MISMATCH: _("does not match"),
    verify.PENDING: _("seed not revealed yet"),
    verify.UNVERIFIABLE: _("not verifiable (made before commitments)"),
}


def shown_seed(commitment: DiceCommitment | None) -> str:
    """The seed as a page or a file may show it: only once its phase is over."""
    if commitment is None or commitment.revealed_at is None:
        return ""
    return commitment.seed


def check(roll: DiceRoll, commitment: DiceCommitment | None) -> verify.RollCheck:
    """The roll's check with what the viewer may know of its commitment."""
    return verify.check_roll(
        faces=roll.faces if isinstance(roll.faces, list) else [],
        counter=roll.counter if commitment is not None else None,
        client=roll.client_value,
        seed=shown_seed(commitment),
        committed_hash=commitment.seed_hash if commitment is not None else None,
    )


def visible_commitments(viewer: Viewer) -> Any:
    return viewer.filter_visible(DiceCommitment.objects.filter(campaign=viewer.campaign))


def _log_commitments(
    campaign_id: int, scopes: Collection[str], used: Collection[int]
) -> QuerySet[DiceCommitment]:
    return DiceCommitment.objects.filter(
        Q(revealed_at__isnull=True) | Q(pk__in=used), campaign_id=campaign_id, visibility__in=scopes
    ).order_by("-created_at", "-id")


# How many commitments of a page's rolls the compiled query names (a page of rolls is a phase's
# or two: one commitment per scope and phase); a page of more is asked of the ORM.
USED_COMPILED = 3
# The compiled query of ``log_commitments`` per set of scopes a viewer may see (a few fixed
# words: campaigns.access), run with the campaign's id and the page's commitments' ids, padded
# with a repeated one (campaigns.compiled: compiled once, ~0.6 ms a page less).
_LOG_COMMITMENTS: dict[tuple[str, ...], CompiledQuery] = {}


def log_commitments(viewer: Viewer, rolls: list[DiceRoll]) -> list[DiceCommitment]:
    """The commitments the dice log shows: those still open (their hashes before the rolls) and
    those of the rolls on the page. One query."""
    used = sorted({roll.commitment_id for roll in rolls if roll.commitment_id})
    scopes = tuple(viewer.visible_scopes())
    if len(used) > USED_COMPILED:
        return list(_log_commitments(viewer.campaign.pk, scopes, used))
    query = _LOG_COMMITMENTS.get(scopes)
    if query is None:
        query = _LOG_COMMITMENTS[scopes] = CompiledQuery(
            lambda campaign_id, *ids: _log_commitments(campaign_id, scopes, ids),
            1 + USED_COMPILED,
        )
    # No commitment has the id 0; a repeated id names the same row.
    padding = [used[0] if used else 0] * (USED_COMPILED - len(used))
    return query(viewer.campaign.pk, *used, *padding)


@dataclass
class CommitmentCheck:
    commitment: DiceCommitment
    seed: str
    counts: Counter = field(default_factory=Counter)
    failed: list[tuple[DiceRoll, verify.RollCheck]] = field(default_factory=list)


@dataclass
class Verification:
    commitments: list[CommitmentCheck]
    counts: Counter
    failed: list[tuple[DiceRoll, verify.RollCheck]]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def ok(self) -> bool:
        return not self.counts[verify.MISMATCH]


def verification(viewer: Viewer) -> Verification:
    """Every roll the viewer may see, voided ones included, checked against its commitment.
    Two queries whatever the number of rolls."""
    commitments = {c.pk: CommitmentCheck(c, shown_seed(c)) for c in visible_commitments(viewer)}
    counts: Counter = Counter()
    failed = []
    rolls = viewer.filter_visible(DiceRoll.objects.filter(campaign=viewer.campaign)).only(
        "id",
        "index",
        "step",
        "kind",
        "faces",
        "counter",
        "client_value",
        "commitment_id",
        "rolled_at",
        "voided_at",
        "visibility",
        "campaign_id",
    )
    for roll in rolls.order_by("rolled_at", "id").iterator(chunk_size=2000):
        held = commitments.get(roll.commitment_id)
        result = check(roll, held.commitment if held is not None else None)
        counts[result.status] += 1
        if held is not None:
            held.counts[result.status] += 1
        if result.status == verify.MISMATCH:
            failed.append((roll, result))
            if held is not None:
                held.failed.append((roll, result))
    return Verification(list(commitments.values()), counts, failed)
