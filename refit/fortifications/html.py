"""The fortification page's record lines, written as HTML in Python.

The same markup the template's loop wrote (``templates/refit/fortifications/page.html`` keeps
the table around them; ``refit.templatetags.fortification_tags`` calls this), escaped the same
way, each word translated once per table. The template drew a line with its two forms in
~0.4 ms (two ``{% url %}`` per form, the ``oid`` filter, a dozen variables and ``translate``
tags), a page of 50 lines being most of the page at the bench's big size.
``tests/refit/fortifications/test_html.py`` compares it to the byte with the loop it replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.oid import oid
from refit.fortifications.records import FortificationLine


def _e(value: object) -> str:
    return conditional_escape(value)


def line_urls(campaign_id: int, side: str, name: str) -> Callable[[int], str]:
    """A line's address (``fortifications:location`` or ``:remove``) from its id: the side's
    address reversed once, the line's opaque id put in."""
    head, tail = reverse(f"fortifications:{name}", args=[campaign_id, side, 1]).split(oid(1), 1)
    if tail != f"/{name}/":  # the URL patterns changed: reverse each
        return lambda pk: reverse(f"fortifications:{name}", args=[campaign_id, side, pk])
    return lambda pk: f"{head}{oid(pk)}{tail}"


def lines_body(
    lines: Sequence[FortificationLine],
    *,
    can_edit: bool,
    removable_index: int | None,
    location_url: Callable[[int], str],
    remove_url: Callable[[int], str],
    reph_pk: int | None,
    csrf_input: str,
) -> SafeString:
    """The record's ``<tr>`` lines; ``removable_index`` is the CG day whose bought lines may be
    taken back (the open Refit Phase's, for who may buy), None for none."""
    lost_word = _e(_("lost"))
    location_word = _e(_("Set-up Location"))
    save_word = _e(_("Save"))
    take_back = _e(_("Take back"))
    reph = _e(reph_pk)
    out: list[str] = []
    add = out.append
    for line in lines:
        undone = ' class="undone"' if line.lost else ""
        if line.under_construction:
            built = _e(line.hexes)
            if line.placed_in:
                placed = _("placed in %(when)s") % {"when": _e(line.placed_in)}
                built += f' <span class="muted">({placed})</span>'
            if line.lost:
                built += f" — <strong>{lost_word}</strong>"
        else:
            built = "—"
        add(
            f'\n        <tr data-fortification="{_e(line.item)}"{undone}>'
            f"\n          <td>{_e(line.day)}</td>"
            f'\n          <th scope="row">{_e(line.name)}</th>'
            f"\n          <td>{_e(line.detail) if line.detail else '—'}</td>"
            f'\n          <td class="num">{_e(line.quantity)}</td>'
            f'\n          <td class="num">{"—" if line.initial else _e(line.fpp)}</td>'
            f"\n          <td>{built}</td>"
            "\n          <td>\n            "
        )
        if can_edit:
            url = _e(location_url(line.pk))
            opaque = _e(oid(line.pk))
            lost = ""
            if line.under_construction:
                checked = " checked" if line.lost else ""
                lost = f'<label><input type="checkbox" name="lost"{checked}> {lost_word}</label>'
            add(
                f'\n            <form method="post" action="{url}" class="inline"'
                f'\n                  hx-post="{url}" hx-target="#fortifications" '
                'hx-swap="outerHTML">'
                f'\n              {csrf_input}<input type="hidden" name="version" '
                f'value="{_e(line.version)}">'
                f'\n              <label class="visually-hidden" for="id_location_{opaque}">'
                f"{location_word}</label>"
                f'\n              <input type="text" name="location" id="id_location_{opaque}" '
                f'value="{_e(line.location)}" maxlength="200" size="14">'
                f"\n              {lost}"
                f'\n              <button type="submit">{save_word}</button>'
                "\n            </form>\n            "
            )
        else:
            add(_e(line.location) if line.location else "—")
        add("\n          </td>\n          <td>\n            ")
        if removable_index is not None and line.index == removable_index and not line.initial:
            url = _e(remove_url(line.pk))
            add(
                f'\n            <form method="post" action="{url}" class="inline"'
                f'\n                  hx-post="{url}" hx-target="#fortifications" '
                'hx-swap="outerHTML">'
                f'\n              {csrf_input}<input type="hidden" name="reph" value="{reph}">'
                f'\n              <button type="submit" class="danger">{take_back}</button>'
                "\n            </form>\n            "
            )
        add("\n          </td>\n        </tr>\n      ")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
