"""The order of battle's lines written as HTML in Python (as ``campaigns.roster.html`` writes the
roster's rows).

The markup of the ``orbat-row`` partial of ``templates/campaigns/orbat/orbat.html`` for a line
not being edited on the page (no messages, no errors, no forms opened), escaped the same way:
the template drew a line in ~0.1 ms (twenty-odd variables and tags), the page's boxes up to
``LINES_SHOWN`` lines each. A line being edited or refused is drawn by the partial as before.
Tested to the byte against the partial.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from campaigns.history.html import escaper


def line_html(
    row: Any,
    *,
    can_record: bool,
    labels: dict[str, str],
    csrf: str,
    escape: Callable[[Any], str] | None = None,
) -> SafeString:
    """One line (a ``Row`` dressed, not ``editing``) as the partial draws it. ``csrf``: what
    ``{% csrf_token %}`` writes (``campaigns.history.html.csrf_input``); ``escape``: the page's
    ``escaper()`` (one per line if not given)."""
    conditional_escape = escape or escaper()
    key = conditional_escape(row.oid)
    quantity = conditional_escape(row.quantity)
    unit = conditional_escape(row.unit)
    if can_record:
        url = conditional_escape(row.url)
        version = conditional_escape(row.version)
        fewer = conditional_escape(labels["fewer"])
        more = conditional_escape(labels["more"])
        line = (
            f'\n          <input type="checkbox" name="lines" value="{key}:{version}" form="move" '
            f'id="check-{key}" aria-label="{conditional_escape(row.check_label)}" '
            f'title="{conditional_escape(labels["check"])}">'
            f'\n          <form method="post" action="{url}" class="inline"'
            f'\n                hx-post="{url}" hx-target="#entry-{key}" hx-swap="outerHTML">'
            f'\n            {csrf}<input type="hidden" name="action" value="quantity">'
            f'<input type="hidden" name="version" value="{version}">'
            f'\n            <button type="submit" name="quantity" '
            f'value="{conditional_escape(row.fewer)}" class="step" title="{fewer}" '
            f'aria-label="−1 {fewer}"{" disabled" if row.single else ""}>−1</button>'
            f'\n            <span class="qty"><strong>{quantity}</strong> ×</span>'
            f'\n            <strong class="unit">{unit}</strong>'
            f'\n            <button type="submit" name="quantity" '
            f'value="{conditional_escape(row.more)}" class="step" title="{more}" '
            f'aria-label="+1 {more}">+1</button>'
            f"\n          </form>\n          "
        )
        edit = (
            f'<a href="{conditional_escape(row.edit_href)}" '
            f'hx-get="{conditional_escape(row.edit_hx)}" hx-target="#entry-{key}" '
            f'hx-swap="outerHTML">{conditional_escape(labels["edit"])}</a>'
        )
    else:
        line = (
            f'\n          <span class="qty"><strong>{quantity}</strong> ×</span>'
            f'\n          <strong class="unit">{unit}</strong>\n          '
        )
        edit = ""
    origin = (
        f'<span class="origin">{conditional_escape(row.origin_text)}</span>'
        if row.origin_rg
        else ""
    )
    statuses = "".join(
        f'<span class="status">[{conditional_escape(label)}]</span>' for label in row.status_labels
    )
    note = (
        f'<span class="note">({conditional_escape(row.status_note)})</span>'
        if row.status_note
        else ""
    )
    return mark_safe(  # noqa: S308 — every value above is escaped
        f'\n      \n      <li id="entry-{key}" class="orbat-line">\n        \n'
        f'        <div class="line">\n          {line}'
        f'\n          <span class="muted">{conditional_escape(row.kind_label)}</span>'
        f"\n          {origin}\n          {statuses}\n          {note}\n          {edit}"
        f"\n        </div>\n        \n        \n      </li>\n      "
    )
