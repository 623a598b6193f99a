"""The reader's tools for one section of an uploaded file: its rows, each value checked against
its model field, file-local ids and references, timestamps, uniqueness.

``Checker`` knows the file's game, campaign game and scope once its header is checked; every
section (the core ones in ``check``, the ones features register in ``sections``) reads its rows
through it, so that every refusal names the section, the entry and the field the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.games.registry import GameModule
from campaigns.transfer.format import ImportRefused, scope_sides
from campaigns.transfer.values import checked, is_ref


@dataclass
class Checker:
    # Set once the file's header is checked (parse_export makes the checker first, so that an
    # unexpected failure can name the entry it was checking: ``place``).
    module: GameModule = None  # type: ignore[assignment]
    scope: str = ""
    cg_key: str = ""
    place: str | None = None
    # The file ids of each table's rows checked so far, by model label, each with what its
    # section tells of the row (or None): what a later section's references may name.
    file_ids: dict[str, dict[Any, Any]] = field(default_factory=dict)

    @property
    def periods(self) -> int:
        return len(self.module.campaign_game(self.cg_key).periods)

    def define(self, model: type[models.Model], refs: Iterable[Any] | Mapping[Any, Any]) -> None:
        """The file ids ``model``'s section gave its rows (those that have one), each with what
        a later section needs to know of the row when ``refs`` is a mapping."""
        known = refs if isinstance(refs, Mapping) else dict.fromkeys(refs)
        self.file_ids[model._meta.label_lower] = {
            ref: fact for ref, fact in known.items() if ref is not None
        }

    def known(self, model: type[models.Model]) -> Mapping[Any, Any]:
        """The file ids of ``model``'s rows in the file (none before its section is read)."""
        return self.file_ids.get(model._meta.label_lower, {})

    # Rows ---------------------------------------------------------------------------------

    def rows(self, data: dict[str, Any], section: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each entry of ``data[section]`` (a list of objects) with its number, from 1."""
        return self.entries(section, data.get(section, []))

    def entries(self, section: str, rows: Any) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each entry of the list ``rows``, the file's ``section``, with its number, from 1."""
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

    def values(
        self,
        section: str,
        number: int,
        row: dict[str, Any],
        model: type[models.Model],
        names: Iterable[str],
        *,
        secret: bool = False,
    ) -> dict[str, Any]:
        """The row's values for ``names``, each checked against its model field. A ``secret``
        row's ``side`` must be one whose secrets the file's scope holds."""
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
                raise self.error(section, number, name, _("is missing."))
            try:
                values[name] = checked(model_field, value)
            except ValidationError as error:
                raise self.error(section, number, name, " ".join(error.messages)) from None
        if "index" in values and not 0 <= values["index"] < self.periods:
            raise self.error(section, number, "index", _("is not a day of the calendar."))
        if "side" in values:
            if values["side"] not in self.module.side_keys:
                raise self.error(section, number, "side", _("is not a side of this game."))
            if secret and values["side"] not in scope_sides(self.scope, self.module):
                raise self.error(
                    section,
                    number,
                    "side",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
        return values

    @staticmethod
    def error(section: str, number: int, name: str, message: str) -> ImportRefused:
        return ImportRefused(
            _("%(section)s, entry %(number)s, “%(field)s”: %(message)s")
            % {"section": section, "number": number, "field": name, "message": message}
        )

    def timestamp(self, section: str, number: int, row: dict[str, Any], name: str) -> Any:
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
            raise self.error(section, number, name, _("must be a date and time (ISO 8601)."))
        return parsed

    def ref(
        self, section: str, number: int, row: dict[str, Any], seen: set, *, required: bool = True
    ) -> Any:
        """The row's own ``id`` (file-local): a number or text, once per section."""
        ref = row.get("id")
        if ref is None and not required:
            return None
        if not is_ref(ref):
            raise self.error(section, number, "id", _("must be a number or text."))
        if ref in seen:
            raise self.error(section, number, "id", _("is used twice."))
        seen.add(ref)
        return ref

    def reference(
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
        if not is_ref(value):
            raise self.error(
                section, number, name, _("must be an id of the file (a number or text) or null.")
            )
        if value not in refs:
            raise self.error(section, number, name, missing)
        return value

    def unique(self, section: str, rows: list[dict[str, Any]], keys: tuple[str, ...]) -> None:
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
