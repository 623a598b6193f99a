"""Show game data (plain JSON from the module files) in the active language."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.games import rules
from campaigns.games.data_words import data_key, file_title, rule_words, value_words
from campaigns.games.display import hidden_key
from campaigns.games.registry import localized

register = template.Library()


# What a data text may carry beside its words: notes for maintainers, never shown.
TEXT_NOTES = {"inferred", "lines"}


def is_text(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("en"), str)
        and set(value) <= {"en", "ja"} | TEXT_NOTES
    )


@register.filter
def loc(value: Any) -> Any:
    """{"en": …, "ja": …} → the text in the active language (English when no Japanese);
    any other value as it is, so that a template may show any data field with it."""
    if is_text(value):
        return localized({key: value[key] for key in ("en", "ja") if key in value}, get_language())
    return value


@register.filter
def ob_entry(entry: Any) -> Any:
    """An initial OB's unit line ({"text": English as printed, "ja": …}) in the active language."""
    if isinstance(entry, dict) and isinstance(entry.get("text"), str):
        return localized({"en": entry["text"], "ja": entry.get("ja") or ""}, get_language())
    return loc(entry.get("text")) if isinstance(entry, dict) else entry


@register.filter
def rg_units(group: Any) -> Any:
    """An RG chart row's units as printed, in the active language (``units_ja`` when given)."""
    if not isinstance(group, dict):
        return group
    units = group.get("units")
    if isinstance(units, str):
        return localized({"en": units, "ja": group.get("units_ja") or ""}, get_language())
    return loc(units)


@register.filter
def period_max(limits: Any) -> Any:
    """An RG's per-day / per-time-frame maximum: map groups by name (RB, RO), a time frame's
    maximum as the number alone (the column says what it counts)."""
    if isinstance(limits, dict) and set(limits) == {"time_frame"}:
        return limits["time_frame"]
    return limits


@register.filter
def result_text(value: Any) -> Any:
    """A dice-table result in the active language: its own "en"/"ja" (other keys such as
    ``weather`` are for the app), its ``text`` or ``label``; anything else as it is."""
    if isinstance(value, dict):
        if "en" in value:
            return loc({key: value[key] for key in ("en", "ja") if key in value})
        for key in ("text", "label"):
            if is_text(value.get(key)):
                return loc(value[key])
    return value


@register.filter
def drm_reason(record: Any) -> str:
    """A logged DRM's reason in the active language (``rules.modifier_reason``)."""
    return rules.modifier_reason(record, get_language()) if isinstance(record, dict) else ""


@register.filter
def roll_note(roll: Any) -> str:
    """A roll's note in the active language: the app's words in the reader's language, else the
    note as it was written (``campaigns.said.in_language``)."""
    from campaigns.said import in_language

    return in_language(getattr(roll, "note_words", None), roll.note, get_language())


# Words the app writes into free-text calendar fields (campaigns.records.conditions), shown in
# the reader's language; anything a person typed is shown as typed.
CALENDAR_WORDS = {"No wind": gettext_lazy("No wind")}


@register.filter
def calendar_words(value: Any) -> Any:
    """A calendar field the app filled in its own words, in the reader's language."""
    return CALENDAR_WORDS.get(value, value) if isinstance(value, str) else value


@register.filter
def ob_name(unit_type: Any, campaign: Any) -> Any:
    """An OB line the app wrote from the game data, in the active language
    (``campaigns.orbat.names``); a line a person typed as typed."""
    from campaigns.orbat.names import ob_name as name

    if not isinstance(unit_type, str) or campaign is None:
        return unit_type
    return name(unit_type, campaign.module, campaign.campaign_game, get_language())


@register.filter
def roll_result(value: Any) -> str:
    """A roll's stored result in the active language, every key and value in words
    (``campaigns.dice.results``)."""
    from campaigns.dice.results import result_words

    return result_words(value, get_language())


@register.filter
def bound_range(row: dict) -> str:
    """A dice-table row's bounds as printed: "≤4", "5–7", "12+", "6"."""
    low, high = row.get("min"), row.get("max")
    if low is None and high is None:
        return "—"
    if low is None:
        return f"≤{high}"
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}–{high}"


@register.filter
def signed(value: Any) -> str:
    """A whole number as a DRM is printed (``campaigns.games.rules.signed``: "+1", "−2", "0");
    "±?" for a modifier whose value the data leaves open, anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return rules.signed(value)
    return "±?" if value is None else str(value)


@register.simple_tag
def show(value: Any) -> SafeString:
    """Any JSON value as readable, escaped HTML (nested lists for objects and arrays)."""
    if value is None:
        return format_html('<span class="muted">{}</span>', "—")
    if is_text(value):
        return format_html("{}", loc(value))
    if isinstance(value, dict):
        if value.get("unknown") is True:
            return format_html('<span class="unknown">{}</span>', _("unknown"))
        if isinstance(value.get("en"), str):  # a text with more data beside it
            rest = {key: item for key, item in value.items() if key not in ("en", "ja")}
            text = format_html("{}", loc({key: value[key] for key in ("en", "ja") if key in value}))
            return format_html("{}{}", text, show(rest)) if _shown(rest) else text
        # Its name (or the text saying what it is or when it applies) is shown, not its id.
        named = any(isinstance(value.get(key), dict) for key in ("name", "when", "text"))
        items = [
            (key, show(item))
            for key, item in value.items()
            if not hidden_key(key) and not (key == "id" and named)
        ]
        return format_html(
            '<dl class="data">{}</dl>',
            format_html_join(
                "", "<dt>{}</dt><dd>{}</dd>", ((data_key(k, get_language()), v) for k, v in items)
            ),
        )
    if isinstance(value, list):
        if all(isinstance(item, str | int | float) for item in value):
            return format_html("{}", ", ".join(_scalar(item) for item in value))
        return format_html(
            '<ul class="data">{}</ul>',
            format_html_join("", "<li>{}</li>", ((show(item),) for item in value)),
        )
    if isinstance(value, bool):
        return format_html("{}", "✓" if value else "—")
    return format_html("{}", _scalar(value))


def _shown(value: dict) -> bool:
    return any(not hidden_key(key) for key in value)


def _scalar(value: Any) -> str:
    """A number as it is; a key standing as a value in words (``data_words.value_words``)."""
    if isinstance(value, str):
        return value_words(value, get_language())
    return str(value)


@register.filter
def data_file_title(stem: str) -> str:
    """A data file's title in the active language (``data_words.file_title``)."""
    return file_title(stem, get_language())


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """mapping[key] in a template, None when absent (dict keys with dashes or from variables)."""
    if isinstance(mapping, dict):
        return mapping.get(key)
    return None


@register.filter
def rule_ref(value: Any) -> str:
    """A rule reference in the active language (``data_words.rule_words``)."""
    return rule_words(str(value), get_language()) if value else ""
