"""Opaque ids: what a URL or a page says instead of a row's database id.

Database ids count up across the whole server, so an id shown to one side would let it count
and date the other side's secret rows made in between (RGs bought, rolls, OB lines, history).
Every URL of campaign rows takes its row with ``<oid:…>`` instead of ``<int:…>``, and a page
names a row in its markup (``id="roll-…"``, a checkbox's value) with the ``oid`` filter.

The token is a keyed permutation of the id: a four-round Feistel network over 64 bits whose
round function is an HMAC of the project's ``SECRET_KEY``, written in 13 base32 letters. It
is the same for the same row every time (links stay valid), different rows never share one,
and without the key neither the id nor the order of two rows can be read from it. Changing
``SECRET_KEY`` changes every token (old links then answer 404).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from functools import lru_cache
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

REGEX = "[a-z2-7]{13}"
_ROUNDS = 4
_MASK = 0xFFFFFFFF
# Decoded values at or above this are not ids (a token typed at random almost always decodes
# to one): 404 instead of a database look-up.
_LIMIT = 1 << 48


def _key() -> bytes:
    return _key_of(settings.SECRET_KEY)


@lru_cache(maxsize=4)
def _key_of(secret: str) -> bytes:
    """The tokens' key, hashed once per ``SECRET_KEY`` (a page names tens of rows)."""
    return hashlib.sha256(b"campaign-desk.oid\x00" + secret.encode()).digest()


def _round(key: bytes, number: int, half: int) -> int:
    digest = hmac.new(key, bytes([number]) + half.to_bytes(4, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big")


@lru_cache(maxsize=4096)
def _encode(key: bytes, value: int) -> str:
    left, right = value >> 32, value & _MASK
    for number in range(_ROUNDS):
        left, right = right, left ^ _round(key, number, right)
    raw = ((left << 32) | right).to_bytes(8, "big")
    return base64.b32encode(raw).decode("ascii").rstrip("=").lower()


@lru_cache(maxsize=4096)
def _decode(key: bytes, token: str) -> int:
    raw = base64.b32decode(token.upper() + "===")
    number = int.from_bytes(raw, "big")
    left, right = number >> 32, number & _MASK
    for round_number in reversed(range(_ROUNDS)):
        left, right = right ^ _round(key, round_number, left), left
    value = (left << 32) | right
    if not 0 < value < _LIMIT or _encode(key, value) != token:
        raise ValueError("not an id")
    return value


def oid(value: int | str) -> str:
    """The opaque token of the database id ``value``."""
    number = int(value)
    if not 0 < number < _LIMIT:
        raise ValueError(f"{value!r} is not a database id")
    return _encode(_key(), number)


def from_oid(token: str) -> int:
    """The database id behind ``token``; ValueError when it is none."""
    if len(token) != 13:
        raise ValueError("not an id")
    try:
        return _decode(_key(), token.lower())
    except (ValueError, TypeError) as error:  # binascii.Error is a ValueError
        raise ValueError("not an id") from error


class OpaqueIdConverter:
    """``<oid:name>`` in a URL pattern: the view gets the database id, ``reverse`` and
    ``{% url %}`` take it and write the token."""

    regex = REGEX

    def to_python(self, value: str) -> int:
        return from_oid(value)

    def to_url(self, value: int | str) -> str:
        return oid(value)


class OpaqueIdField(forms.CharField):
    """A form field holding one row's token (``{{ row.pk|oid }}``); cleaned to the database id."""

    default_error_messages = {"invalid": _("This form is out of date: reload the page.")}

    def to_python(self, value: Any) -> int | None:
        token = super().to_python(value)
        if not token:
            return None
        try:
            return from_oid(token)
        except ValueError as error:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from error
