"""The RG chart's rows of the purchase page and the RG Purchase Record's rows, written as HTML in
Python.

The same markup the template wrote row by row (``templates/refit/purchases/page.html`` keeps the
table around them; ``refit.templatetags.purchase_tags`` calls this), escaped the same way, each
word translated once per table, not once per row. The template drew a chart row with its buy
form in ~0.4 ms (its variables, ``if``s and ``translate`` tags; the chart has 27 to 54 rows);
this writes one in ~20 µs. The same for this Refit Phase's RGs and the record's rows
(``templates/refit/purchases/record.html``). ``tests/refit/purchases/test_html.py`` compares
each to the byte with the template loop it replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape as html_escape
from typing import TYPE_CHECKING

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.models import ReinforcementGroup
from refit.purchases.situation import ChartRow, RgRow

if TYPE_CHECKING:
    from refit.purchases.views import RecordRow


def _e(value: object) -> str:
    """``conditional_escape`` (what ``{{ value }}`` writes); a plain string or number escaped
    at once, without ``escape``'s check of its arguments for lazy text (a row's escapes cost
    more than the rest of it: the chart has 27 to 54 rows, the day's RGs up to 75)."""
    kind = type(value)
    if kind is str or kind is int:
        return html_escape(str(value))
    return conditional_escape(value)


def chart_body(
    rows: Sequence[ChartRow],
    *,
    map_groups: Sequence[str],
    buy_url: str,
    reph_pk: int,
    token: str,
    csrf_input: str,
    can_overrule: bool,
) -> SafeString:
    """The chart table's ``<tr>`` rows; ``csrf_input`` is what ``{% csrf_token %}`` writes."""
    split = len(map_groups) > 1
    map_group_label = _e(_("Map group"))
    cpp_label = _e(_("CPP"))
    today_label = _e(_("Today"))
    option_word = _e(_("Option"))
    hexes_word = _e(_("Pre-registered hexes"))
    two_cpp_word = _e(_("For 2 CPP (−2 arrival drm)"))
    override_word = _e(_("Referee: buy past a limit because"))
    buy_word = _e(_("Buy"))
    url = _e(buy_url)
    reph = _e(reph_pk)
    token = _e(token)
    out: list[str] = []
    add = out.append
    for counter, row in enumerate(rows, 1):
        offer = row.offer
        rg_id = _e(offer.rg_id)
        add(
            f'\n        <tr data-rg="{rg_id}" class="'
            f'{"available" if offer.available else "unavailable"}">'
            f'\n          <th scope="row">{rg_id}</th>'
            f"\n          <td>{_e(row.name)}</td>"
            "\n          "
        )
        if split:
            add(f'<td data-label="{map_group_label}">{_e(offer.map_group)}</td>')
        today = _e(offer.bought_today)
        if offer.day_max is not None:
            today += f" / {_e(offer.day_max)}"
        remaining = offer.remaining
        add(
            f'\n          <td class="num" data-label="{cpp_label}">{_e(row.cost)}</td>'
            f'\n          <td class="num" data-label="{today_label}">{today}</td>'
            f'\n          <td class="num" data-label="#P">{_e(offer.bought_in_cg)}</td>'
            f'\n          <td class="num" data-label="#R">'
            f"{_e(remaining) if remaining is not None else '—'}</td>"
            '\n          <td class="actions">\n            '
        )
        if row.reasons:
            add(
                '<ul class="reasons">'
                + "".join(f"<li>{_e(reason)}</li>" for reason in row.reasons)
                + "</ul>"
            )
        add("\n            ")
        if row.show_form:
            add(
                f'\n            <form method="post" action="{url}" class="inline buy-form"'
                f'\n                  hx-post="{url}" hx-target="#purchases" hx-swap="outerHTML">'
                f"\n              {csrf_input}"
                f'\n              <input type="hidden" name="reph" value="{reph}">'
                f'\n              <input type="hidden" name="token" value="{token}-{counter}">'
                f'\n              <input type="hidden" name="rg" value="{rg_id}">'
                "\n              "
            )
            if split:
                add(f'<input type="hidden" name="map_group" value="{_e(offer.map_group)}">')
            add("\n              ")
            if len(row.placements) > 1:
                options = "".join(
                    f'<option value="{_e(value)}">{_e(label)} ({_e(cost)} CPP)</option>'
                    for value, label, cost in row.placements
                )
                add(
                    f'\n              <label for="id_placement_{counter}">{option_word}</label>'
                    f'\n              <select name="placement" id="id_placement_{counter}">'
                    f"\n                {options}"
                    "\n              </select>\n              "
                )
            add("\n              ")
            if row.pre_registration:
                add(
                    f'\n              <label for="id_hexes_{counter}">{hexes_word}</label>'
                    '\n              <input type="number" name="pre_registered_hexes" '
                    f'id="id_hexes_{counter}" min="0" max="{_e(row.pre_registration)}" '
                    'value="0">\n              '
                )
            add("\n              ")
            if row.two_cpp:
                add(
                    '\n              <label><input type="checkbox" name="stuka_two_cpp"> '
                    f"{two_cpp_word}</label>\n              "
                )
            add("\n              ")
            if can_overrule and not offer.available:
                add(
                    f'\n              <label for="id_override_{counter}">{override_word}</label>'
                    '\n              <input type="text" name="override_reason" '
                    f'id="id_override_{counter}" maxlength="200" required>\n              '
                )
            add(
                f'\n              <button type="submit">{buy_word}</button>'
                "\n            </form>\n            "
            )
        add("\n          </td>\n        </tr>\n      ")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def rg_rows_body(rows: Sequence[RgRow], *, reph_pk: int, csrf_input: str) -> SafeString:
    """The table of this Refit Phase's RGs: its ``<tr>`` rows with their "Take back" and "Roll"
    forms (the bench's open day has 70 RGs; the template drew each in ~0.3 ms)."""
    take_back = _e(_("Take back"))
    reph = _e(reph_pk)
    # How each RG came, in words, looked up once: ``get_source_display`` builds its choices'
    # dict on every call (~60 µs a row); as it, a value without a word is shown as it is.
    sources = {value: _e(label) for value, label in ReinforcementGroup.Source.choices}
    # How each RG came and was bought, written once per pair (an option's words are a lazy
    # translation, looked up on each use).
    hows: dict[tuple[str, str], str] = {}
    out: list[str] = []
    add = out.append
    for row in rows:
        rg = row.rg
        label = _e(rg.label)
        how = hows.get((rg.source, rg.option))
        if how is None:
            how = sources[rg.source] if rg.source in sources else _e(rg.source)
            if rg.option:
                how += f" · {_e(rg.option_label)}"
            hows[rg.source, rg.option] = how
        add(
            f'\n        <tr data-rg="{label}">'
            f'\n          <th scope="row">{label}</th>'
            f"\n          <td>{_e(row.name)}</td>"
            f"\n          <td>{how}</td>"
            f'\n          <td class="num">{_e(rg.cpp_cost)}</td>'
            f"\n          <td>{_e(row.summary or '—')}</td>"
            "\n          <td>\n            "
        )
        if row.removable:
            url = _e(row.remove_url)
            add(
                f'\n            <form method="post" action="{url}" class="inline"'
                f'\n                  hx-post="{url}" hx-target="#purchases" hx-swap="outerHTML">'
                f'\n              {csrf_input}<input type="hidden" name="reph" value="{reph}">'
                f'\n              <button type="submit" class="danger">{take_back}</button>'
                "\n            </form>\n            "
            )
        add("\n            ")
        if row.rollable:
            url = _e(row.receive_url)
            roll = _("Roll for %(rg)s") % {"rg": label}
            add(
                f'\n            <form method="post" action="{url}" class="inline"'
                f'\n                  hx-post="{url}" hx-target="#purchases" hx-swap="outerHTML">'
                f'\n              {csrf_input}<input type="hidden" name="reph" value="{reph}">'
                f'\n              <button type="submit">{roll}</button>'
                "\n            </form>\n            "
            )
        add("\n          </td>\n        </tr>\n      ")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def _or_dash(value: object, *, none_only: bool = False) -> str:
    """``{{ value|default:"—" }}`` (``|default_if_none:"—"`` with ``none_only``)."""
    if value is None or (not none_only and not value):
        return "—"
    return _e(value)


def _or_blank(value: object) -> str:
    """``{{ value|default:'' }}``: "" for a missing or empty value."""
    return _e(value) if value else ""


def record_body(
    items: Sequence[RecordRow],
    *,
    can_edit: bool,
    notes_url: Callable[[int], str],
    rows_page: str,
    csrf_input: str,
) -> SafeString:
    """The RG Purchase Record's ``<tr>`` rows (a page of 50) with, for who may write them, each
    RG's notes form; ``notes_url(pk)`` is the RG's notes address. The template drew a row in
    ~0.4 ms (a dozen variables and filters, two ``{% url %}`` and the form's ``translate``s)."""
    if not items:
        return mark_safe(  # noqa: S308 - a translated word, escaped
            f'\n    <tr><td colspan="12" class="muted">{_e(_("No RGs yet."))}</td></tr>\n  '
        )
    initial = f' <span class="muted">({_e(_("initial OB"))})</span>'
    if can_edit:
        summary = _e(_("Write hexes / observer / note"))
        hexes_word = _e(_("Pre-registered hexes"))
        observer_word = _e(_("Offboard observer"))
        stuka_word = _e(_("Stukas: the number E7.21 gives"))
        note_word = _e(_("Note"))
        save_word = _e(_("Save"))
        page = f'<input type="hidden" name="rows" value="{_e(rows_page)}">' if rows_page else ""
    out: list[str] = []
    add = out.append
    for counter, item in enumerate(items, 1):
        row = item.row
        add(
            f'\n    <tr data-rg="{_e(row.label)}">'
            f"\n      <td>{_e(row.day)}</td>"
            f'\n      <th scope="row">{_e(row.rg_id)}'
            f"{initial if row.source == 'initial' else ''}</th>"
            f"\n      <td>{_e(row.group_type)}</td>"
            f'\n      <td class="num">{_or_dash(row.purchased_number, none_only=True)}</td>'
            f'\n      <td class="num">{_or_dash(row.remaining, none_only=True)}</td>'
            f"\n      <td>{_or_dash(row.strength)}</td>"
            f'\n      <td class="num">{_or_dash(row.units, none_only=True)}</td>'
            f"\n      <td>{_or_dash(row.sw_guns)}</td>"
            f"\n      <td>{_or_dash(row.leaders)}</td>"
            f"\n      <td>{_e(row.other)}\n        "
        )
        rg = item.rg
        if can_edit and rg:
            details = rg.details
            url = _e(notes_url(rg.pk))
            add(
                f'\n        <details class="rg-notes"><summary>{summary}</summary>'
                f'\n        <form method="post" action="{url}"'
                f'\n              hx-post="{url}" hx-target="#record" hx-swap="outerHTML">'
                f'\n          {csrf_input}<input type="hidden" name="seen" value="{_e(item.seen)}">'
                f"\n          {page}\n          "
            )
            if details.get("pre_registered_hexes"):
                add(
                    f'\n          <label for="id_hexes_{counter}">{hexes_word}</label>'
                    f'\n          <input type="text" name="hexes" id="id_hexes_{counter}" '
                    f'value="{_or_blank(details.get("hexes"))}" maxlength="200">\n          '
                )
            add("\n          ")
            if item.observer:
                add(
                    f'\n          <label for="id_observer_{counter}">{observer_word}</label>'
                    f'\n          <input type="text" name="observer_location" '
                    f'id="id_observer_{counter}" '
                    f'value="{_or_blank(details.get("observer_location"))}" maxlength="60">'
                    "\n          "
                )
            add("\n          ")
            if item.stuka:
                e721 = details.get("e721")
                add(
                    f'\n          <label for="id_e721_{counter}">{stuka_word}</label>'
                    f'\n          <input type="number" name="e721" id="id_e721_{counter}" '
                    f'min="0" max="9" value="{"" if e721 is None else _e(e721)}">\n          '
                )
            add(
                f'\n          <label for="id_note_{counter}">{note_word}</label>'
                f'\n          <input type="text" name="note" id="id_note_{counter}" '
                f'value="{_or_blank(details.get("note"))}" maxlength="200">'
                f'\n          <button type="submit">{save_word}</button>'
                "\n        </form>\n        </details>\n        "
            )
        add(
            "\n      </td>"
            f"\n      <td>{_e(row.onboard)}</td>"
            f'\n      <td data-status="{_e(row.status)}">{_e(row.status_label)}</td>'
            "\n    </tr>\n  "
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
