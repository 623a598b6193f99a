"""The dice log's rows written as HTML in Python (as ``campaigns.roster.html`` writes the roster's).

The markup of the ``roll-row`` partial of ``templates/campaigns/dice/log.html``, as the page's
row loop drew it (no void form being corrected, no messages: the page's rows), escaped the same
way, each word translated once per page: the template drew a page's 50 rows in ~4 ms of the
page's ~13 (twenty-odd variables and tags a row). The partial stays for the row a void answers
(HTMX) and for the page showing a void form's error. Tested to the byte against that loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.history.html import csrf_input, escaper


def roll_rows(
    rows: Sequence[Any],
    *,
    can_void: bool,
    can_ask: bool,
    next_url: str,
    corrections_url: str,
    csrf_token: Any,
    short_time: Callable[[Any], str],
) -> SafeString:
    """The ``<tr>`` rows of the log (``RollRow``s) with the loop's own whitespace around each.
    ``short_time``: a time as ``|date:"SHORT_DATETIME_FORMAT"`` draws it (the void's)."""
    if not rows:
        return mark_safe("")
    conditional_escape = escaper()

    def _or_dash(value: Any) -> str:
        return conditional_escape(value or "—")

    void_word = escape(_("Void"))
    void_open = escape(_("Void…"))
    why = escape(_("Why is the roll void?"))
    void_button = escape(_("Void the roll"))
    ask = escape(_("Ask the other side to void it"))
    by_text = _("by %(who)s, %(when)s")
    next_value = conditional_escape(next_url)
    corrections = conditional_escape(corrections_url)
    token = None
    parts = []
    for row in rows:
        key = conditional_escape(row.oid)
        voided = row.voided
        step = conditional_escape(row.step)
        if row.step_name:
            step += f' <span class="muted">{conditional_escape(row.step_name)}</span>'
        if row.note:
            step += f"<br>{conditional_escape(row.note)}"
        dice = f"{conditional_escape(row.kind)} {conditional_escape(row.faces)}"
        counter = f"#{row.counter} " if row.counter is not None else ""
        original = conditional_escape(row.original)
        final = conditional_escape(row.final)
        if row.modifiers:
            items = "".join(
                f"<li><s>{conditional_escape(sign)} {conditional_escape(reason)}</s></li>"
                if voided
                else f"<li>{conditional_escape(sign)} {conditional_escape(reason)}</li>"
                for sign, reason in row.modifiers
            )
            modifiers = f'<ul class="modifiers">{items}</ul>'
        else:
            modifiers = '<span class="muted">—</span>'
        result = _or_dash(row.result)
        if voided:
            when = short_time(row.roll.voided_at)
            by = by_text % {"who": _or_dash(row.voided_by), "when": conditional_escape(when)}
            action = (
                f"\n          <strong>{void_word}</strong>"
                f'\n          <span class="muted">{by}</span>:'
                f"\n          {conditional_escape(row.roll.void_reason)}\n        "
            )
        elif can_void:
            if token is None:
                token = csrf_input(csrf_token)
            url = conditional_escape(row.void_url)
            action = (
                f"\n          <details>"
                f"\n            <summary>{void_open}</summary>"
                f'\n            <form method="post" action="{url}" class="inline"'
                f'\n                  hx-post="{url}" hx-target="closest tr" hx-swap="outerHTML">'
                f"\n              {token}"
                f'\n              <input type="hidden" name="next" value="{next_value}">'
                f'\n              <label for="id_void{key}_reason">{why}</label>'
                f'\n              <input type="text" name="reason" id="id_void{key}_reason" '
                f'maxlength="200" required>'
                f"\n              "
                f'\n              <button type="submit" class="danger">{void_button}</button>'
                f"\n            </form>"
                f"\n          </details>\n        "
            )
        elif can_ask:
            action = (
                f'\n          <a class="ask-correction" href="{corrections}?roll={key}'
                f'#ask-correction">{ask}</a>\n        '
            )
        else:
            action = '\n          <span class="muted">—</span>\n        '
        parts.append(
            f'\n    \n    <tr id="roll-{key}">'
            f'\n      <td><time datetime="{conditional_escape(row.when_iso)}">'
            f"{conditional_escape(row.when)}</time></td>"
            f"\n      <td>{conditional_escape(row.day)}</td>"
            f"\n      <td>{step}</td>"
            f"\n      <td>{_or_dash(row.table_name)}</td>"
            f"\n      <td>{_or_dash(row.side)}<br>"
            f'<span class="muted">{conditional_escape(row.scope)}</span></td>'
            f"\n      <td>{_or_dash(row.rolled_by)}</td>"
            f"\n      <td>{f'<s>{dice}</s>' if voided else dice}<br>"
            f'<span class="muted check-{conditional_escape(row.check)}">{counter}'
            f"{conditional_escape(row.check_words)}</span></td>"
            f'\n      <td class="num">{f"<s>{original}</s>" if voided else original}</td>'
            f"\n      <td>{modifiers}</td>"
            f'\n      <td class="num">'
            f"{f'<s>{final}</s>' if voided else f'<strong>{final}</strong>'}</td>"
            f"\n      <td>{f'<del>{result}</del>' if voided else result}</td>"
            f'\n      <td class="actions">\n        \n        {action}\n      </td>'
            f"\n    </tr>\n    \n  "
        )
    return mark_safe("".join(parts))  # noqa: S308 — every value above is escaped


def stats_rows(stats: Sequence[Any]) -> SafeString:
    """The statistics table's ``<tr>`` rows (``DiceStats``), as its template loop drew them:
    the numbers as ``{{ }}`` and ``|floatformat:2`` write them in the reader's language, each
    number formatted once per page (a table of mostly noughts)."""
    conditional_escape = escaper()
    numbers: dict[int, str] = {}

    def number(value: int) -> str:
        text = numbers.get(value)
        if text is None:
            text = numbers[value] = conditional_escape(localize(value))
        return text

    def average(value: float | None) -> str:
        return "—" if value is None else conditional_escape(floatformat(value, 2))

    return mark_safe(  # noqa: S308 — every value is escaped
        "".join(
            f"\n      <tr>"
            f'\n        <th scope="row">{conditional_escape(group.label)}</th>'
            f'\n        <td class="num">{number(group.dr_count)}</td>'
            f'\n        <td class="num">{average(group.dr_average)}</td>'
            f'\n        <td class="num">{number(group.DR_count)}</td>'
            f'\n        <td class="num">{average(group.DR_average)}</td>'
            "\n        "
            + "".join(f'<td class="num">{number(count)}</td>' for count in group.distribution)
            + "\n      </tr>\n    "
            for group in stats
        )
    )


def commitment_rows(commitments: Sequence[tuple[str, Any, str, str]]) -> SafeString:
    """The commitments table's ``<tr>`` rows — (day, commitment, shown seed, scope) — as its
    template loop drew them."""
    conditional_escape = escaper()
    not_yet = f'<span class="muted">{escape(_("shown when the phase is over"))}</span>'

    def shown(seed: str) -> str:
        return f'<code class="hash">{conditional_escape(seed)}</code>' if seed else not_yet

    return mark_safe(  # noqa: S308 — every value is escaped
        "".join(
            f"\n      <tr><td>{conditional_escape(day)}</td><td>{conditional_escape(scope)}</td>"
            f'<td><code class="hash">{conditional_escape(commitment.seed_hash)}</code></td>'
            f"<td>{shown(seed)}</td></tr>\n    "
            for day, commitment, seed, scope in commitments
        )
    )
