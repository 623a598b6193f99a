"""The one dice service. Every roll of the app goes through ``roll`` and is logged.

Rolls are verifiable (issue 22, docs/verifiable-dice.md): before a Refit Phase's rolls (a
scenario's, a short game's turn's) the server commits, per scope, to a secret seed
(``DiceCommitment``, its SHA-256 shown on the dice log); each roll's faces are
``campaigns.dice.verify.faces_for(seed, counter, client value)``, the counter the commitment's
next one, the client value what the roller's browser sent (``client_value``, set per request by
``campaigns.dice.middleware``). When the phase is over the seed is revealed
(``reveal_commitments``). Tests may inject a roller with ``use_roller``: its rolls bypass the
commitments (not verifiable). A roll is never silently redone: a referee may void one with a
reason.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, REFEREE
from campaigns.dice import verify
from campaigns.games import map_groups as group_rules
from campaigns.games.dice_tables import DiceTable
from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Drm
from campaigns.history import services as history
from campaigns.models import Campaign, DiceCommitment, DiceRoll, RefitPhase

DICE = {"dr": 1, "DR": 2}


class Roller(Protocol):
    def randint(self, a: int, b: int) -> int: ...


# None: the committed, verifiable dice. A roller injected by tests replaces them.
_roller: Roller | None = None

# The random value the roller's browser sent with the request that rolls (hex, "" without one).
_client: ContextVar[str] = ContextVar("dice_client", default="")


@contextmanager
def client_value(value: object) -> Iterator[None]:
    """Roll with the roller's own random ``value`` inside the block (``verify.clean_client``:
    anything but a short hex string counts as none)."""
    token = _client.set(verify.clean_client(value))
    try:
        yield
    finally:
        _client.reset(token)


@contextmanager
def use_roller(roller: Roller | int) -> Iterator[None]:
    """Roll with ``roller`` (or a ``random.Random`` seeded with an int) inside the block. Such
    rolls bypass the commitments: they are not verifiable."""
    global _roller
    previous = _roller
    _roller = random.Random(roller) if isinstance(roller, int) else roller
    try:
        yield
    finally:
        _roller = previous


# None: every commitment's seed is drawn by ``secrets``. A seed source set by ``use_seeds``
# (the demo's, so that every run builds the same games) draws the seeds in order instead.
_seeds: Iterator[str] | None = None


def _seed_stream(base: str) -> Iterator[str]:
    for n in itertools.count():
        yield hashlib.sha256(f"{base}:{n}".encode()).hexdigest()[: 2 * verify.SEED_BYTES]


@contextmanager
def use_seeds(base: str) -> Iterator[None]:
    """Commit to seeds derived in order from ``base`` inside the block (SHA-256 of "base:n"),
    not drawn at random: the rolls stay committed, counted and verifiable, and the same
    commands roll the same faces (``manage.py demo``). Never for a real campaign: anyone who
    knows ``base`` knows the seeds."""
    global _seeds
    previous = _seeds
    _seeds = _seed_stream(base)
    try:
        yield
    finally:
        _seeds = previous


class DiceError(ValueError):
    """A roll or a void the rules of the app do not allow; the message is for the user."""


@transaction.atomic
def roll(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    kind: str,
    step: str,
    index: int,
    side: str = "",
    visibility: str,
    modifiers: Sequence[Drm] = (),
    table: DiceTable | None = None,
    note: str = "",
    sequence_step: str = "",
    form_token: str = "",
    map_groups: Sequence[str] = (),
) -> DiceRoll:
    """Roll ``kind`` (dr or DR), apply the modifiers, look the final roll up, log it. Each
    modifier is logged with its reason in the roller's language (``Drm.record``).

    ``note`` is for people; ``sequence_step`` (the turn-sequence step the roll belongs to) and
    ``form_token`` (the page that asked for it, so a form sent twice rolls once) are for the app
    to find the roll again. ``map_groups``: the map groups the roll is for (RF): a result printed
    per map group keeps only theirs (``campaigns.games.map_groups.result_for``)."""
    if kind not in DICE:
        raise DiceError(f"unknown roll {kind!r}")
    if table is not None and table.roll.replace("2dr", "DR") != kind:
        raise DiceError(f"{table.id} is rolled with {table.roll}, not {kind}")
    total_drm = sum(modifier.value for modifier in modifiers)
    if table is not None:
        # Refuse before rolling, not after: a final roll no row covers would mean a wrong DRM.
        # Open-ended rows ("≤ 2", "13+") take any DRM the campaign state produces.
        low, high = table.rows[0].min, table.rows[-1].max
        if (low is not None and DICE[kind] + total_drm < low) or (
            high is not None and 6 * DICE[kind] + total_drm > high
        ):
            raise DiceError(_("Those DRMs take the roll off %(table)s.") % {"table": table.id})
    commitment, counter, client = None, None, ""
    if _roller is not None:
        faces = [_roller.randint(1, 6) for _ in range(DICE[kind])]
    else:
        commitment = _open_commitment(campaign, index, visibility)
        counter, client = commitment.next_counter, _client.get()
        faces = verify.faces_for(commitment.seed, counter, client, DICE[kind])
        commitment.next_counter = counter + 1
        commitment.save(update_fields=["next_counter"])
    original = sum(faces)
    final = original + total_drm
    result: Any = table.lookup(final) if table is not None else None
    if map_groups:
        every = group_rules.every_group(campaign.game.files.get("campaign_games") or {})
        result = group_rules.result_for(result, map_groups, every)
    dice_roll = DiceRoll.objects.create(
        campaign=campaign,
        index=index,
        side=side,
        step=step,
        table_id=table.id if table is not None else "",
        kind=kind,
        faces=faces,
        modifiers=[_modifier_record(modifier) for modifier in modifiers],
        original=original,
        final=final,
        result=result,
        note=note,
        sequence_step=sequence_step,
        form_token=form_token,
        visibility=visibility,
        commitment=commitment,
        counter=counter,
        client_value=client,
        rolled_by=by,
    )
    history.record(
        campaign,
        by,
        "dice.rolled",
        visibility=visibility,
        target=dice_roll,
        step=step,
        kind=kind,
        faces=faces,
        final=final,
        table=dice_roll.table_id,
        index=index,
    )
    return dice_roll


# --- commitments ------------------------------------------------------------------------------


def _scopes(campaign: Campaign) -> list[str]:
    return [PUBLIC, REFEREE, *campaign.game.side_keys]


def _new_commitment(
    campaign: Campaign, reph: RefitPhase | None, index: int, visibility: str
) -> DiceCommitment:
    seed = next(_seeds) if _seeds is not None else secrets.token_hex(verify.SEED_BYTES)
    return DiceCommitment(
        campaign=campaign,
        reph=reph,
        index=reph.index if reph is not None else index,
        visibility=visibility,
        seed=seed,
        seed_hash=verify.seed_hash(seed),
    )


def commit(campaign: Campaign, *, reph: RefitPhase | None = None, index: int = 0) -> None:
    """Commit to the seeds of a phase before its rolls: one per scope (public, the referee's,
    each side's), each scope's hash shown to who may see it. ``reph`` a Refit Phase (or
    scenario) just opened; without one, a short game's turn ``index``. Scopes already committed
    to are left alone."""
    held = DiceCommitment.objects.filter(campaign=campaign, revealed_at__isnull=True).exclude(
        seed=""
    )
    held = held.filter(reph=reph) if reph is not None else held.filter(reph=None, index=index)
    present = set(held.values_list("visibility", flat=True))
    DiceCommitment.objects.bulk_create(
        _new_commitment(campaign, reph, index, scope)
        for scope in _scopes(campaign)
        if scope not in present
    )


def _open_commitment(campaign: Campaign, index: int, visibility: str) -> DiceCommitment:
    """The commitment a roll now takes its faces from, locked: the open Refit Phase's (else the
    short game's turn's) for the roll's scope — one query — made on the spot for a phase opened
    before commitments existed."""
    held = (
        DiceCommitment.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, visibility=visibility, revealed_at__isnull=True)
        .exclude(seed="")
        .order_by("id")
    )
    reph = None
    if "refit_steps" in campaign.game.files:
        commitment = held.filter(reph__isnull=False, reph__finished_at__isnull=True).first()
        if commitment is not None:
            return commitment
        reph = RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).first()
    if reph is None:
        # A short game's turn (or a roll once the campaign game is over).
        commitment = held.filter(reph=None, index=index).first()
        if commitment is not None:
            return commitment
    commitment = _new_commitment(campaign, reph, index, visibility)
    commitment.save(force_insert=True)
    return commitment


def reveal_commitments(
    campaign: Campaign, *, reph: RefitPhase | None = None, index: int | None = None
) -> int:
    """The phase is over: reveal its seeds (a Refit Phase's, or a short game's turn ``index``;
    neither: every seed of the campaign, at its reveal). Rolls made later take new ones."""
    held = DiceCommitment.objects.filter(campaign=campaign, revealed_at__isnull=True)
    if reph is not None:
        held = held.filter(reph=reph)
    elif index is not None:
        held = held.filter(reph=None, index=index)
    return held.update(revealed_at=timezone.now())


def _modifier_record(modifier: Drm) -> dict[str, Any]:
    """A DRM as the log keeps it: the reason in the roller's language and, when the reason is
    the rules' words (``LocalizedText``) or the app's (a lazy translation), in every language
    of the app, so that the other side reads it in theirs. A person's own words stay as typed."""
    words = None
    if isinstance(modifier.reason, LocalizedText | Promise):
        words = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                words[code] = modifier.text(code)
    return modifier.record(get_language(), words)


@transaction.atomic
def void(dice_roll: DiceRoll, *, by: AbstractBaseUser, reason: str) -> None:
    """Mark a roll void; it stays in the log with who voided it and why."""
    dice_roll = DiceRoll.objects.select_for_update(of=("self",)).get(pk=dice_roll.pk)
    if dice_roll.voided_at is not None:
        raise DiceError(_("That roll is already void."))
    if not reason.strip():
        raise DiceError(_("Say why the roll is void."))
    dice_roll.voided_at = timezone.now()
    dice_roll.voided_by = by
    dice_roll.void_reason = reason.strip()
    dice_roll.save(update_fields=["voided_at", "voided_by", "void_reason"])
    history.record(
        dice_roll.campaign,
        by,
        "dice.voided",
        visibility=dice_roll.visibility,
        target=dice_roll,
        reason=dice_roll.void_reason,
        step=dice_roll.step,
    )
