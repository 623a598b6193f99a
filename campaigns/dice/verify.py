"""Verifiable dice — pure: the faces a committed roll must show, and the check of a roll.

No Django here: the dice service rolls with ``faces_for``, the verify page and
``manage.py verify_dice`` check with ``check_roll``, and anyone may copy these few lines to check
an export file on their own (docs/verifiable-dice.md states the same algorithm in words).

The algorithm:

* a commitment's seed is 32 random bytes, written as 64 lower-case hex digits; its hash is
  ``SHA-256(seed bytes)`` in hex, shown before any roll made under it;
* a roll's byte stream is ``HMAC-SHA256(key=seed bytes, msg=f"{counter}:{client}:{block}")``
  for block = 0, 1, 2 … concatenated, where ``counter`` is the roll's counter under the
  commitment (0, 1, 2 … in decimal) and ``client`` the hex value the roller's browser sent
  ("" without one), all ASCII;
* each byte below 252 gives a face ``byte % 6 + 1`` (252 = 6 × 42, so every face is equally
  likely; bytes 252–255 are skipped); the roll takes as many faces as it has dice (a dr one, a
  DR two), in order.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

SEED_BYTES = 32
UNBIASED_BELOW = 252  # 6 × 42: the largest multiple of 6 a byte holds
CLIENT_MAX = 64  # hex digits of the roller's value that are kept

# A roll's standing in the check.
MATCHES = "matches"
MISMATCH = "mismatch"
PENDING = "pending"  # the seed is not revealed yet (its phase is not over)
UNVERIFIABLE = "unverifiable"  # made before commitments


def seed_hash(seed_hex: str) -> str:
    """The SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def faces_for(seed_hex: str, counter: int, client: str, dice: int) -> list[int]:
    """The ``dice`` faces of the roll with ``counter`` and ``client`` under the seed."""
    key = bytes.fromhex(seed_hex)
    faces: list[int] = []
    block = 0
    while len(faces) < dice:
        message = f"{counter}:{client}:{block}".encode("ascii")
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < UNBIASED_BELOW:
                faces.append(byte % 6 + 1)
                if len(faces) == dice:
                    break
        block += 1
    return faces


def clean_client(value: object) -> str:
    """The roller's value as it is kept: lower-case hex digits, at most ``CLIENT_MAX``; anything
    else is no value ("")."""
    if not isinstance(value, str):
        return ""
    value = value.strip().lower()
    if not value or len(value) > CLIENT_MAX or any(c not in "0123456789abcdef" for c in value):
        return ""
    return value


@dataclass(frozen=True)
class RollCheck:
    """One roll's verdict and the faces the seed gives (empty when they cannot be computed)."""

    status: str
    expected: tuple[int, ...] = ()


def check_roll(
    *,
    faces: Sequence[int],
    counter: int | None,
    client: str,
    seed: str,
    committed_hash: str | None,
) -> RollCheck:
    """Does the roll's ``faces`` follow from its commitment? ``committed_hash`` None: the roll has
    no commitment. ``seed`` "": not revealed (yet). A seed whose hash is not the committed one
    fails every roll under it."""
    if committed_hash is None or counter is None:
        return RollCheck(UNVERIFIABLE)
    if not seed:
        return RollCheck(PENDING)
    try:
        if not hmac.compare_digest(seed_hash(seed), committed_hash):
            return RollCheck(MISMATCH)
        expected = tuple(faces_for(seed, counter, client, len(faces) or 1))
    except ValueError:  # a seed that is not hex
        return RollCheck(MISMATCH)
    return RollCheck(MATCHES if tuple(faces) == expected else MISMATCH, expected)


def check_file(data: dict) -> list[tuple[dict, RollCheck]]:
    """Every roll of an export file (``docs/export-format.md``) with its verdict."""
    commitments = {
        row.get("id"): row for row in data.get("dice_commitments") or [] if isinstance(row, dict)
    }
    checked = []
    for roll in data.get("dice_rolls") or []:
        if not isinstance(roll, dict):
            continue
        commitment = commitments.get(roll.get("commitment"))
        faces = roll.get("faces") or []
        verdict = check_roll(
            faces=faces if isinstance(faces, list) else [],
            counter=roll.get("counter") if commitment is not None else None,
            client=roll.get("client_value") or "",
            seed=(commitment or {}).get("seed") or "",
            committed_hash=(commitment or {}).get("seed_hash"),
        )
        checked.append((roll, verdict))
    return checked
