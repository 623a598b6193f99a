"""Reading an uploaded file: its size, JSON, every value storable, the header (format, version,
game, data version, scope); then its sections (``check``).

``parse_export`` refuses anything unexpected as "damaged", naming the entry being checked: a
crafted file never makes an error page.
"""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import GameModule, get_module
from campaigns.models import Campaign
from campaigns.transfer.check import FileChecker, ParsedExport
from campaigns.transfer.format import (
    FORMAT,
    FORMAT_VERSION,
    MAX_DEPTH,
    MAX_IMPORT_BYTES,
    READABLE_VERSIONS,
    SCOPE_FULL,
    SCOPE_PUBLIC,
    SIDE_SCOPE_PREFIX,
    ImportRefused,
    damaged,
)
from campaigns.transfer.sections import REGISTRY, drop_ids
from campaigns.transfer.values import is_int, short

logger = logging.getLogger(__name__)


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


def parse_export(raw: bytes | str) -> ParsedExport:
    """Check the whole file; raise ImportRefused naming the first problem found.

    Whatever else goes wrong while checking (a case no rule foresaw) refuses the file too, as
    damaged, naming the entry being checked: a crafted file never makes an error page.
    """
    checker = FileChecker()
    try:
        return _parse(raw, checker)
    except ImportRefused:
        raise
    except Exception:
        logger.warning("An import file failed its checks unexpectedly.", exc_info=True)
        raise ImportRefused(damaged(checker.place)) from None


def _parse(raw: bytes | str, checker: FileChecker) -> ParsedExport:
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
    if not is_int(version) or version not in READABLE_VERSIONS:
        if is_int(version) and version > FORMAT_VERSION:
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
            % {
                "version": short(json.dumps(version)),
                "supported": ", ".join(map(str, READABLE_VERSIONS)),
            }
        )
    data = upgrade(data, version)
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


def upgrade(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A file of an older version as the current version writes it, before checking.

    Version 1 wrote database ids of its installation where version 2 writes file ids: inside
    JSON values (REGISTRY references: an event's Refit Phase step, an RG's ledger rows and
    rolls). They name nothing here and are left out. Version 1 had no Refit Phase sections: the
    campaign opens its first Refit Phase, as it did then.
    """
    if version >= 2:
        return data
    data = dict(data)
    for reference in REGISTRY.all_references():
        section = REGISTRY.section_of(reference.model)
        rows = data.get(section) if section else None
        if isinstance(rows, list):
            data[section] = [
                {**row, reference.column: drop_ids(row[reference.column], [reference])}
                if isinstance(row, dict) and reference.column in row
                else row
                for row in rows
            ]
    return data


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
    parts = [short(section)]
    if rest and isinstance(rest[0], int) and isinstance(section, str):
        parts.append(_("entry %(number)s") % {"number": rest[0]})
        rest = rest[1:]
    if rest:
        parts.append(f"“{short('.'.join(str(part) for part in rest))}”")
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
            % {"module": short(module_key)}
        )
    cg_key = meta.get("campaign_game")
    try:
        if not isinstance(cg_key, str):
            raise KeyError(cg_key)
        module.campaign_game(cg_key)
    except KeyError:
        raise ImportRefused(
            _("The file is for a campaign game %(game)s does not have (“%(cg)s”).")
            % {"game": module.name.in_language(get_language()), "cg": short(cg_key)}
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
