"""The fortification page's record lines and purchase table, written as HTML in Python.

The same markup the template's loop wrote (``templates/refit/fortifications/page.html`` keeps
the table around them; ``refit.templatetags.fortification_tags`` calls this), escaped the same
way, each word translated once per table. The template drew a line with its two forms in
~0.4 ms (two ``{% url %}`` per form, the ``oid`` filter, a dozen variables and ``translate``
tags), a page of 50 lines being most of the page at the bench's big size.
The same for the Fortification Purchase Table's rows with their buy forms (``items_body``).
``tests/refit/fortifications/test_html.py`` compares each to the byte with the loop it replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.oid import oid
from refit.fortifications.records import FortificationLine
from refit.fortifications.situation import ItemRow


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
    reph = "" if reph_pk is None else _e(reph_pk)
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


_IN = "\n              "  # the form's lines' indentation


def _block(lines: Sequence[str]) -> str:
    """An ``{% if %}`` block of the form's lines as the template wrote it."""
    return "".join(_IN + line for line in lines) + _IN


def items_body(
    rows: Sequence[ItemRow],
    *,
    buy_url: str,
    reph_pk: int | None,
    token: str,
    csrf_input: str,
    can_overrule: bool,
) -> SafeString:
    """The Fortification Purchase Table's ``<tr>`` rows with their buy forms (the template drew
    a row with its form in ~0.3 ms; the page shows 11 to 14)."""
    # As ``{% translate %}`` does: a literal's "%" looked up doubled, then restored.
    w = {key: _e(_(words.replace("%", "%%")).replace("%%", "%")) for key, words in _WORDS.items()}
    url = _e(buy_url)
    reph = "" if reph_pk is None else _e(reph_pk)
    token = _e(token)
    out: list[str] = []
    add = out.append
    for n, row in enumerate(rows, 1):
        item_id = _e(row.item.get("id", ""))
        add(
            f'\n        <tr data-item="{item_id}">'
            f'\n          <th scope="row">{_e(row.name)}</th>'
            f"\n          <td>{_e(row.price)}</td>"
            f"\n          <td>{_e(row.flags) if row.flags else '—'}</td>"
            "\n          <td>\n            "
        )
        if row.refusals:
            why = w["offered"] if row.offered else w["refused"]
            reasons = " ".join(_e(reason) for reason in row.refusals)
            add(f'<p class="refusal">{why} {reasons}</p>')
        add("\n            ")
        if row.offered:
            inputs = row.inputs
            add(
                f'\n            <form method="post" action="{url}" class="inline buy-form"'
                f'\n                  hx-post="{url}" hx-target="#fortifications" '
                'hx-swap="outerHTML">'
                f"{_IN}{csrf_input}"
                f'{_IN}<input type="hidden" name="reph" value="{reph}">'
                f'{_IN}<input type="hidden" name="token" value="{token}-{n}">'
                f'{_IN}<input type="hidden" name="item" value="{item_id}">'
                + _IN
                + _block(
                    [
                        f'<label for="id_quantity_{n}">{w["how_many"]}</label>',
                        f'<input type="number" name="quantity" id="id_quantity_{n}" min="1" '
                        'max="99" value="1" required>',
                    ]
                )
            )
            if inputs.sizes:
                options = "".join(
                    f'<option value="{_e(size)}">{_e(size)}S</option>' for size in inputs.sizes
                )
                add(
                    _block(
                        [
                            f'<label for="id_size_{n}">{w["size"]}</label>',
                            f'<select name="size" id="id_size_{n}" required>{options}</select>',
                        ]
                    )
                )
            add(_IN)
            if inputs.factors:
                add(
                    _block(
                        [
                            f'<label for="id_factors_{n}">{w["factors"]}</label>',
                            f'<input type="number" name="factors" id="id_factors_{n}" min="1" '
                            'max="99" required>',
                        ]
                    )
                )
            add(_IN)
            if inputs.pillbox:
                add(
                    _block(
                        [
                            f'<label for="id_capacity_{n}">{w["capacity"]}</label><input '
                            f'type="number" name="capacity" id="id_capacity_{n}" min="1" '
                            'max="9" required>',
                            f'<label for="id_ca_{n}">{w["ca"]}</label><input type="number" '
                            f'name="ca_drm" id="id_ca_{n}" min="0" max="9" required>',
                            f'<label for="id_nca_{n}">{w["nca"]}</label><input type="number" '
                            f'name="nca_drm" id="id_nca_{n}" min="0" max="9" required>',
                        ]
                    )
                )
            add(_IN)
            for key, name, label, choices in (
                ("unit", "unit", "unit", inputs.units),
                ("belt", "belt", "belt", inputs.belts),
            ):
                if choices:
                    options = "".join(
                        f'<option value="{_e(value)}">{_e(words)}</option>'
                        for value, words in choices
                    )
                    add(
                        _block(
                            [
                                f'<label for="id_{key}_{n}">{w[label]}</label>',
                                f'<select name="{name}" id="id_{key}_{n}" required>'
                                f"{options}</select>",
                            ]
                        )
                    )
                add(_IN)
            if inputs.trench_variants:
                add(
                    _block(
                        [
                            f'<label for="id_trench_{n}">{w["trench"]}</label>',
                            f'<select name="trench" id="id_trench_{n}">',
                            f'  <option value="">{w["own"]}</option>',
                            f'  <option value="connected">{w["connected"]}</option>',
                            f'  <option value="replaces_3s_foxhole">{w["replaces"]}</option>',
                            "</select>",
                        ]
                    )
                )
            add(_IN)
            if inputs.detonating_unit:
                add(
                    _block(
                        [
                            f'<label for="id_detonating_{n}">{w["detonating"]}</label>',
                            f'<input type="text" name="detonating_unit" id="id_detonating_{n}" '
                            'maxlength="60" required>',
                        ]
                    )
                )
            add(_IN)
            if inputs.under_construction:
                add(
                    _block(
                        [
                            '<fieldset class="inline">',
                            f"  <legend>{w['uc_legend']}</legend>",
                            '  <label><input type="checkbox" name="under_construction"> '
                            f"{w['uc']}</label>",
                            f'  <label for="id_hexes_{n}">{w["hexes"]}</label>',
                            f'  <input type="text" name="hexes" id="id_hexes_{n}" '
                            'maxlength="200" size="12">',
                            '  <label><input type="checkbox" name="hexes_confirmed"> '
                            f"{w['confirmed']}</label>",
                            "</fieldset>",
                        ]
                    )
                )
            add(_IN)
            if can_overrule:
                add(
                    _block(
                        [
                            f'<label for="id_override_{n}">{w["override"]}</label>',
                            f'<input type="text" name="override_reason" id="id_override_{n}" '
                            'maxlength="200">',
                        ]
                    )
                )
            add(
                f'{_IN}{_IN}<button type="submit">{w["buy"]}</button>'
                "\n            </form>\n            "
            )
        add("\n          </td>\n        </tr>\n      ")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


# The table's words, translated once per table.
_WORDS = {
    "offered": "Not available to the players now:",
    "refused": "Not available now:",
    "how_many": "How many",
    "size": "Size",
    "factors": "Factors",
    "capacity": "Capacity",
    "ca": "CA DRM",
    "nca": "NCA DRM",
    "unit": "Unit",
    "belt": "Mine Belt",
    "trench": "Trench",
    "own": "on its own",
    "connected": "connected to an on-map trench",
    "replaces": "replacing an on-map 3S foxhole",
    "detonating": "Detonating unit",
    "uc_legend": "Under Construction (50 %, placed next time frame)",
    "uc": "Under Construction",
    "hexes": "Placement hexes",
    "confirmed": (
        "Every hex is Russian-controlled and at least 8 hexes from every German-controlled hex"
    ),
    "override": "Referee: buy past a limit because",
    "buy": "Buy",
}
