"""Sections other features add to the export file, and the JSON values that name other rows.

A feature whose rows belong in a campaign's backup registers a section when its app is ready
(``RefitConfig.ready`` for the Refit Phase, ``CampaignsConfig.ready`` for the short games), so
that this package never imports the feature::

    register_section(
        "perimeters",
        models=(PerimeterState,),
        export=export_perimeters,   # (ExportContext) -> JSON-ready value, or None: no key
        check=check_perimeters,     # (Checker, the file's value or None) -> checked rows
        load=load_perimeters,       # (LoadContext, checked rows) -> None, inside the write
    )

Sections are written, checked and loaded in the order they were registered, after the core
sections and the dice rolls and before the history, so that a section may name the rows of an
earlier one by their file ids (``ExportContext.ids``, ``Checker.known``, ``LoadContext.row``) and
an event may name any of them. ``check`` runs before the write transaction opens: it does all the
work; ``load`` only inserts rows.

Some JSON columns hold database ids of other rows of the campaign (the step an event was made
for, the ledger rows an RG purchase booked). ``register_reference`` says where: such a value is
written as the row's file id, read back as the new row's id, and left out when that row is not in
the file.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import Window
from django.db.models.functions import RowNumber

from campaigns.transfer.format import CORE_SECTIONS, HEADER_KEYS
from campaigns.transfer.values import is_int, is_ref

if TYPE_CHECKING:
    from campaigns.transfer.checker import Checker
    from campaigns.transfer.export import ExportContext
    from campaigns.transfer.load import LoadContext

# Every item of a list, in a reference's path.
EACH = "*"


class DuplicateSection(ImproperlyConfigured):
    """Two features registered a section under the same key, or one the core writes."""


@dataclass(frozen=True)
class Section:
    name: str
    models: tuple[type[models.Model], ...]
    export: Callable[[ExportContext], Any]
    check: Callable[[Checker, Any], Any]
    load: Callable[[LoadContext, Any], None]


@dataclass(frozen=True)
class RowReference:
    """``model.column`` holds, at ``path``, database ids of ``target`` rows of the campaign."""

    model: type[models.Model]
    column: str
    path: tuple[str, ...]
    target: type[models.Model]


class Registry:
    """The sections and row references features registered. One instance (``REGISTRY``)."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self._reserved = frozenset(reserved)
        self._sections: dict[str, Section] = {}
        self._references: list[RowReference] = []

    def register_section(
        self,
        name: str,
        *,
        models: tuple[type[models.Model], ...],
        export: Callable[[ExportContext], Any],
        check: Callable[[Checker, Any], Any],
        load: Callable[[LoadContext, Any], None],
    ) -> Section:
        if name in self._reserved or name in self._sections:
            raise DuplicateSection(f"The export section “{name}” is registered twice.")
        section = Section(name, tuple(models), export, check, load)
        self._sections[name] = section
        return section

    def register_reference(
        self,
        model: type[models.Model],
        column: str,
        path: tuple[str, ...],
        target: type[models.Model],
    ) -> None:
        model._meta.get_field(column)  # a typo stops the start-up, not an export
        reference = RowReference(model, column, tuple(path), target)
        if reference not in self._references:
            self._references.append(reference)

    def __iter__(self) -> Iterator[Section]:
        return iter(list(self._sections.values()))

    def names(self) -> tuple[str, ...]:
        return tuple(self._sections)

    def section_of(self, model: type[models.Model]) -> str | None:
        """The key of the section that holds ``model``'s rows (a core one or a registered one)."""
        for name, held in (*CORE_SECTIONS.items(), *((s.name, s.models) for s in self)):
            if model in held:
                return name
        return None

    def covered_models(self) -> set[type[models.Model]]:
        """Every table some section of the file holds."""
        covered = {model for held in CORE_SECTIONS.values() for model in held}
        return covered | {model for section in self for model in section.models}

    def references(self, model: type[models.Model], column: str) -> list[RowReference]:
        return [r for r in self._references if r.model is model and r.column == column]

    def all_references(self) -> tuple[RowReference, ...]:
        return tuple(self._references)


# --- file ids --------------------------------------------------------------------------------


@cache
def label(model: type[models.Model]) -> str:
    return model._meta.label_lower  # a property, formatted anew at each read: one per id looked up


class FileIds:
    """Each exported row's id in the file (1, 2, … per table), by its database id."""

    def __init__(self) -> None:
        self._ids: dict[str, Mapping[int, int]] = {}

    def number(self, model: type[models.Model], pks: Iterable[int]) -> Numbered:
        """Give the rows their file ids in this order (a table is numbered once)."""
        ids = Numbered(pks)
        self._ids[label(model)] = ids
        return ids

    def number_rows(self, model: type[models.Model], rows: models.QuerySet) -> Numbered:
        """Give ``rows`` (the table's rows in the file's order: the queryset's ordering) their
        file ids, numbered by the database (``numbered_rows``) and read back by database id:
        kept as two arrays (16 bytes a row) whatever the order, where ``number`` needs a dict
        for ids that do not come in rising."""
        return self.number_pairs(model, numbered_rows(rows).iterator(500))

    def number_pairs(self, model: type[models.Model], pairs: Iterable[tuple[int, int]]) -> Numbered:
        """Give the rows the file ids of ``(database id, file id)`` pairs in rising database
        ids, as ``number_rows`` reads them (the export runs ``numbered_rows`` compiled once)."""
        ids = Numbered.by_id(pairs)
        self._ids[label(model)] = ids
        return ids

    def numbered(self, model: type[models.Model]) -> Numbered:
        """The table's file ids given so far (none: an empty one, kept)."""
        return self._ids.setdefault(label(model), Numbered())  # type: ignore[return-value]

    def of(self, model: type[models.Model], pk: Any) -> int | None:
        return self._ids.get(label(model), {}).get(pk) if is_int(pk) else None


class Numbered(Mapping[int, int]):
    """``{database id: file id}`` for ids given in file order. While the ids come in rising
    (a table read in the order of its ids, or the history and the dice log, whose order by time
    is that of their ids as long as nothing was imported out of order), they are kept as an
    array of 8 bytes an id and found by bisection; the first one out of order turns the rest
    into a dict. So a long history costs an export little memory."""

    def __init__(self, pks: Iterable[int] = ()) -> None:
        self._rising = array("q")
        self._refs: array[int] | None = None  # by_id: the file id of each of _rising
        self._others: dict[int, int] | None = None
        for pk in pks:
            self.append(pk)

    def append(self, pk: int) -> int:
        """Give ``pk`` the next file id (ids given in file order); returns it."""
        if self._others is None and (not self._rising or pk > self._rising[-1]):
            self._rising.append(pk)
            return len(self._rising)
        if self._others is None:
            self._others = {}
        ref = self._others[pk] = len(self._rising) + len(self._others) + 1
        return ref

    @classmethod
    def by_id(cls, pairs: Iterable[tuple[int, int]]) -> Numbered:
        """From ``(database id, file id)`` pairs in rising database ids (``FileIds.number_rows``):
        an array of the ids and, once a file id is not the id's place among them (a table whose
        file order is not its ids'), one of the file ids; found by bisection."""
        numbered = cls()
        for pk, ref in pairs:
            numbered.add(pk, ref)
        return numbered

    def add(self, pk: int, ref: int) -> None:
        """Give ``pk`` the file id ``ref``; ids given in rising order (``by_id``)."""
        pks = self._rising
        if pks and pk <= pks[-1]:
            raise ValueError("database ids must rise")
        if self._refs is None and ref != len(pks) + 1:
            self._refs = array("q", range(1, len(pks) + 1))
        pks.append(pk)
        if self._refs is not None:
            self._refs.append(ref)

    def __getitem__(self, pk: Any) -> int:
        if isinstance(pk, float) and pk.is_integer():
            pk = int(pk)  # as a dict finds 2.0 (and True) under 2 (and 1)
        if isinstance(pk, int):
            at = bisect_left(self._rising, int(pk))
            if at < len(self._rising) and self._rising[at] == pk:
                return at + 1 if self._refs is None else self._refs[at]
            if self._others is not None and pk in self._others:
                return self._others[pk]
        raise KeyError(pk)

    def highest(self) -> int:
        """The highest database id numbered (0: none), as ``max(self, default=0)``."""
        top = self._rising[-1] if self._rising else 0
        return max(top, max(self._others)) if self._others else top

    def __iter__(self) -> Iterator[int]:
        yield from self._rising
        if self._others is not None:
            yield from self._others

    def __len__(self) -> int:
        return len(self._rising) + (len(self._others) if self._others is not None else 0)


def numbered_rows(rows: models.QuerySet) -> models.QuerySet:
    """``(database id, file id)`` of ``rows`` in rising database ids, the file ids numbered by
    the database: ``ROW_NUMBER()`` over the queryset's own ordering."""
    return (
        rows.annotate(_file_id=Window(RowNumber(), order_by=list(rows.query.order_by)))
        .order_by("pk")
        .values_list("pk", "_file_id")
    )


# --- rewriting the ids a JSON value holds ------------------------------------------------------

DROP = object()


def rewrite(value: Any, path: tuple[str, ...], change: Callable[[Any], Any]) -> Any:
    """``value`` with each id at ``path`` replaced by ``change(id)``; DROP leaves it out.

    Returns a copy where something changes; a value of another shape is left as it is.
    """
    if not path:
        return change(value)
    key, rest = path[0], path[1:]
    if key == EACH:
        if not isinstance(value, list):
            return value
        items = [rewrite(item, rest, change) for item in value]
        return [item for item in items if item is not DROP]
    if not isinstance(value, dict) or key not in value:
        return value
    changed = rewrite(value[key], rest, change)
    if changed is DROP:
        return {k: v for k, v in value.items() if k != key}
    return {k: changed if k == key else v for k, v in value.items()}  # the keys keep their order


def ids_to_file(value: Any, references: Iterable[RowReference], ids: FileIds) -> Any:
    """Export: each database id at the references' paths as its row's file id."""
    for reference in references:
        value = rewrite(
            value,
            reference.path,
            lambda pk, target=reference.target: _or_drop(ids.of(target, pk)),
        )
    return value


def file_to_ids(
    value: Any, references: Iterable[RowReference], rows: Callable[[type, Any], Any]
) -> Any:
    """Import: each file id at the references' paths as the new row's database id."""
    for reference in references:
        value = rewrite(
            value,
            reference.path,
            lambda ref, target=reference.target: _or_drop(
                getattr(rows(target, ref), "pk", None) if is_ref(ref) else None
            ),
        )
    return value


def drop_ids(value: Any, references: Iterable[RowReference]) -> Any:
    """Leave out every id at the references' paths (a file whose ids name nothing here)."""
    for reference in references:
        value = rewrite(value, reference.path, lambda _id: DROP)
    return value


def _or_drop(value: Any) -> Any:
    return DROP if value is None else value


REGISTRY = Registry(reserved=(*HEADER_KEYS, *CORE_SECTIONS))
register_section = REGISTRY.register_section
register_reference = REGISTRY.register_reference
