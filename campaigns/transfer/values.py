"""Checking one value of an uploaded file: its type, its column's limits, an event data shape.

Plain helpers shared by the reader's modules (``read``, ``checker``, ``check``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.history.sentences import INT, INTS, TEXT, TEXTS


def short(value: Any, limit: int = 40) -> str:
    """A value from the file, cut short for a message."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_ref(value: Any) -> bool:
    """A file-local id: a whole number or a text (a list or an object cannot be looked up)."""
    return is_int(value) or isinstance(value, str)


def event_data_fits(kind: str, value: Any) -> bool:
    if kind == TEXT:
        return isinstance(value, str)
    if kind == INT:
        return is_int(value)
    if kind == TEXTS:
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, list) and all(is_int(item) for item in value)  # INTS


def event_data_rule(kind: str) -> str:
    if kind == TEXTS:
        return _("must be a list of texts.")
    if kind == INTS:
        return _("must be a list of whole numbers.")
    return _("must be %(kind)s.") % {"kind": TYPE_NAMES[str if kind == TEXT else int]}


TYPE_NAMES = {
    bool: gettext_lazy("true or false"),
    int: gettext_lazy("a whole number"),
    str: gettext_lazy("text"),
    dict: gettext_lazy("an object"),
    list: gettext_lazy("a list"),
}


def checked(model_field: models.Field, value: Any) -> Any:
    """``value`` if it fits ``model_field`` exactly (type, length, range, choices)."""
    if value is None:
        if model_field.null:
            return None
        raise ValidationError(_("may not be null."))
    if isinstance(model_field, models.BooleanField):
        expected: type = bool
    elif isinstance(model_field, models.IntegerField):
        expected = int
    elif isinstance(model_field, models.CharField | models.TextField):
        expected = str
    elif isinstance(model_field, models.JSONField):
        expected = type(model_field.get_default())
    else:  # pragma: no cover - every exported column is one of the above
        raise ValidationError(_("cannot be imported."))
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ValidationError(_("must be %(kind)s.") % {"kind": TYPE_NAMES[expected]})
    if expected is int:
        # The column's range on every database (SQLite stores any size; PostgreSQL refuses).
        low, high = BaseDatabaseOperations.integer_field_ranges.get(
            model_field.get_internal_type(), (None, None)
        )
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValidationError(
                _("must be between %(low)s and %(high)s.") % {"low": low, "high": high}
            )
    model_field.validate(value, None)
    model_field.run_validators(value)
    return value
