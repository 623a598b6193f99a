"""The history's rows written as HTML in Python (as ``campaigns.roster.html`` writes the roster's).

The same markup the template's row loop wrote (``templates/campaigns/history/history.html``
keeps the table around them), escaped the same way, each word translated once per page, not
once per row: the template drew a page's 50 rows in ~3 ms of the page's ~13 (a dozen variables
and tags per row). Tested to the byte against that loop (tests/campaigns/history).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext as _


def escaper() -> Callable[[Any], str]:
    """``conditional_escape`` for the values of a page's rows, as plain text: without its lazy
    wrapper and the ``SafeString`` it makes of each value (most of a written row's time), and
    each text escaped once per page (a page's rows repeat their days, sides and words).
    Django's ``escape`` is ``html.escape`` of the text; safe text is kept as it is."""
    seen: dict[str, str] = {}

    def escaped(value: Any) -> str:
        if type(value) is str:
            found = seen.get(value)
            if found is None:
                found = seen[value] = html.escape(value)
            return found
        if isinstance(value, Promise):
            value = str(value)
        if isinstance(value, SafeData) or hasattr(value, "__html__"):
            return str(value.__html__())
        return html.escape(str(value))

    return escaped


def csrf_input(token: Any) -> str:
    """What ``{% csrf_token %}`` writes for this token."""
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{escaper()(token)}">'


def history_rows(
    rows: Sequence[Any], *, here: str, corrections_url: str, csrf_token: Any
) -> SafeString:
    """The ``<tr>`` rows of the history table (``HistoryRow``s), as the template's loop wrote
    them: each row's text between the loop's own line breaks."""
    if not rows:
        return mark_safe("")
    conditional_escape = escaper()
    undone_class = ' class="undone"'
    undone_note = f' <span class="muted">({escape(_("undone"))})</span>'
    refused_word = escape(_("Cannot be undone now:"))
    why = escape(_("Of a finished phase: why undo it?"))
    undo = escape(_("Undo"))
    ask = escape(_("Ask the other side to undo it"))
    next_input = f'<input type="hidden" name="next" value="{conditional_escape(here)}">'
    corrections = conditional_escape(corrections_url)
    token = None  # ``{% csrf_token %}`` once, if a row has a form
    parts = []
    for row in rows:
        key = conditional_escape(row.oid)
        if row.can_undo and row.refused:
            action = f'<span class="help">{refused_word} {conditional_escape(row.refused)}</span>'
        elif row.can_undo:
            if token is None:
                token = csrf_input(csrf_token)
            reason = (
                f'<label for="undo-reason-{key}">{why}</label> <input type="text" '
                f'name="reason" id="undo-reason-{key}" required maxlength="200" size="16"> '
                if row.closed
                else ""
            )
            action = (
                f'<form method="post" action="{conditional_escape(row.undo_url)}" '
                f'class="inline">{token}{next_input}{reason}'
                f'<button type="submit" class="danger">{undo}</button></form>'
            )
        elif row.may_ask:
            action = (
                f'<a class="ask-correction" href="{corrections}?event={key}#ask-correction">'
                f"{ask}</a>"
            )
        else:
            action = ""
        parts.append(
            f'\n    <tr id="event-{key}"{undone_class if row.undone else ""}>'
            f'<td><time datetime="{conditional_escape(row.when_iso)}">'
            f"{conditional_escape(row.when)}</time></td>"
            f"<td>{conditional_escape(row.actor or '—')}</td>"
            f"<td>{conditional_escape(row.text)}"
            f"{undone_note if row.undone else ''}</td>"
            f"\n      <td>{action}</td></tr>\n  "
        )
    return mark_safe("".join(parts))  # noqa: S308 — every value above is escaped
