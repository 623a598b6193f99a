"""The perimeter page's side sections written as HTML in Python (as ``campaigns.roster.html``
writes the roster's rows).

The markup of the ``side`` partial of ``templates/refit/perimeters/page.html`` (a side's area,
markers, pockets, units and, for who may act for it, its forms), escaped the same way: the
template drew a side with its forms in ~0.5 ms (some sixty tags and variables). Tested to the
byte against the partial (``tests/refit/perimeters/test_side_html.py``), every branch, en and
ja.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.history.html import escaper
from campaigns.templatetags.nav import fast_url

_FORM = 'hx-target="#perimeter" hx-swap="outerHTML"'


def sides_html(
    sides: Sequence[dict[str, Any]],
    *,
    campaign_pk: int,
    state_version: int,
    selected: str,
    kinds: Sequence[tuple[Any, Any]],
    csrf: str,
) -> SafeString:
    """Every side's ``<section>`` as the partial draws it, one after another (each with the
    loop's line breaks around it). ``csrf``: what ``{% csrf_token %}`` writes
    (``campaigns.history.html.csrf_input``)."""
    escape = escaper()
    return mark_safe(  # noqa: S308 — every value below is escaped
        "".join(
            side_html(
                s,
                campaign_pk=campaign_pk,
                state_version=state_version,
                selected=selected,
                kinds=kinds,
                csrf=csrf,
                escape=escape,
            )
            for s in sides
        )
    )


def _joined(values: Sequence[Any], sep: str, escape: Callable[[Any], str]) -> str:
    """The ``join`` filter: each value escaped, the separator too."""
    return escape(sep).join(escape(v) for v in values)


def side_html(
    s: dict[str, Any],
    *,
    campaign_pk: int,
    state_version: int,
    selected: str,
    kinds: Sequence[tuple[Any, Any]],
    csrf: str,
    escape: Callable[[Any], str],
) -> str:
    """One side (a ``sides`` entry of ``views._context``) as the partial's loop draws it."""
    key = escape(s["key"])
    version = escape(state_version)
    sel = escape(selected)
    edit = s["can_edit"]
    out = [
        f'\n  <section id="side-{key}">\n    <h3>{escape(s["name"])}</h3>\n'
        f"    <p>{_('Perimeter Area: %(size)s hexes') % {'size': escape(s['area_size'])}}</p>\n"
        f"    <p>{_('Map-edge markers (11.6053)')}: "
    ]
    edges = s["edge_markers"]
    out.append(
        "; ".join(f"{escape(start)} → {escape(target)}" for start, target in edges)
        if edges
        else "—"
    )
    out.append("</p>\n    <ul>\n      ")
    remove = _("Remove")
    for m in s["markers"]:
        illegal = ' class="illegal"' if m["reasons"] else ""
        out.append(f"\n      <li{illegal}>{escape(m['notation'])}")
        if m["kind"] == "pocket":
            out.append(f" ({_('pocket')})")
        out.append("\n        ")
        if m["path"]:
            out.append(f'<span class="muted">[{escape(m["path"])}]</span>')
        out.append("\n        ")
        out += [f"<br>{escape(reason)}" for reason in m["reasons"]]
        out.append("\n        ")
        if edit:
            url = escape(fast_url("perimeters:remove_marker", campaign_pk, s["key"], m["position"]))
            out.append(
                f'<form method="post" action="{url}" class="inline" hx-post="{url}" {_FORM}>'
                f'{csrf}<input type="hidden" name="version" value="{version}">'
                f'<button type="submit" class="link">{remove}</button></form>'
            )
        out.append("\n      </li>\n      ")
    if not s["markers"]:
        out.append(f"<li>{_('No markers yet.')}</li>\n      ")
    out.append(f"\n    </ul>\n    <p>{_('Pockets')}: ")
    pockets = s["pockets"]
    out.append(
        "; ".join(f"#{escape(p['number'])} {_joined(p['hexes'], ' ', escape)}" for p in pockets)
        if pockets
        else "—"
    )
    out.append("</p>\n    ")
    if edit:
        out.append(_forms(s, campaign_pk, version, sel, kinds, csrf, escape))
    out.append("\n  </section>\n  ")
    return "".join(out)


def _forms(
    s: dict[str, Any],
    campaign_pk: int,
    version: str,
    sel: str,
    kinds: Sequence[tuple[Any, Any]],
    csrf: str,
    escape: Callable[[Any], str],
) -> str:
    """What the side shows to who may act for it: its forms, its units, its pockets."""
    side = s["key"]
    key = escape(side)
    units_version = escape(s["units_version"])
    hidden = f'{csrf}<input type="hidden" name="version" value="{version}">'

    def url(name: str, *args: Any) -> str:
        return escape(fast_url(f"perimeters:{name}", campaign_pk, side, *args))

    def selected_field(iid: str) -> str:
        return f'<input type="hidden" id="{iid}" name="selected" value="{sel}">'

    def hex_field(iid: str, iname: str, size: str = "") -> str:
        return f'<input id="{iid}" name="{iname}" value="{sel}"{size} required>'

    marker = url("add_marker")
    propose = url("propose")
    add_units = url("units")
    out = [
        f'\n    <form method="post" action="{marker}" hx-post="{marker}" {_FORM}>'
        f"\n      {hidden}{selected_field(f'sel-marker-{key}')}"
        f"\n      <label>{_('Marker in')} "
        f"{hex_field(f'origin-marker-{key}', 'origin', ' size=' + chr(34) + '6' + chr(34))}"
        "</label>"
        f'\n      <label>– <input name="via" size="6" placeholder="{_("first hex")}"></label>'
        '\n      <label>→ <input name="target" size="6" required></label>'
        f'\n      <label>{_("Kind")} <select name="kind"><option value="main">'
        f'{_("Perimeter (11.6054)")}</option><option value="pocket">{_("Pocket (11.6056)")}'
        "</option></select></label>"
        f'\n      <button type="submit">{_("Place")}</button>'
        "\n    </form>"
        f'\n    <form method="post" action="{propose}" class="inline" hx-post="{propose}" {_FORM}>'
        f"\n      {hidden}"
        f'\n      <button type="submit">{_("Propose a perimeter")}</button>'
        "\n    </form>"
        f"\n    <h4>{_('Units')}"
        + (
            f' <span class="muted">({_("declared")})</span>'
            if s["declared"]
            else f' <span class="muted">({_("secret until declared")})</span>'
        )
        + "</h4>\n    <p>"
    ]
    units = s["units"]
    out.append(
        ", ".join(
            escape(u["id"]) + (f" [{escape(u['level'])}]" if u.get("level") else "") for u in units
        )
        if units
        else "—"
    )
    options = "".join(
        f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in kinds
    )
    out.append(
        f'</p>\n    <form method="post" action="{add_units}" hx-post="{add_units}" {_FORM}>'
        f'\n      {csrf}<input type="hidden" name="version" value="{units_version}">'
        f"{selected_field(f'sel-units-{key}')}"
        f"\n      <label>{_('Hexes')} {hex_field(f'hexes-units-{key}', 'hexes')}</label>"
        f'\n      <label>{_("Kind")} <select name="kind">{options}</select></label>'
        f'\n      <label>{_("Name")} <input name="label" size="8"></label>'
        f'\n      <label>{_("Level")} <input name="level" type="number" min="-1" max="4" '
        'value="0" size="2"></label>'
        f'\n      <button type="submit">{_("Add")}</button>'
        f'\n      <button type="submit" name="remove" value="on">{_("Remove units there")}</button>'
        "\n    </form>\n    "
    )
    if not s["declared"]:
        declare = url("declare")
        out.append(
            f'\n    <form method="post" action="{declare}" class="inline" hx-post="{declare}" '
            f"{_FORM}>"
            f'\n      {csrf}<input type="hidden" name="version" value="{units_version}">'
            f'\n      <button type="submit">{_("Declare these units")}</button>'
            "\n    </form>\n    "
        )
    out.append(f"\n    <h4>{_('Non-ground pockets (11.6057)')}</h4>\n    <ul>")
    remove = _("Remove")
    for position, p in s["non_ground"]:
        gone = url("remove_pocket", position)
        out.append(
            f"<li>{_joined(p['hexes'], ' ', escape)} ({escape(p['label'])})"
            f'\n      <form method="post" action="{gone}" class="inline" hx-post="{gone}" '
            f'{_FORM}>{hidden}<button type="submit" class="link">{remove}</button></form></li>'
        )
    out.append("</ul>\n    ")
    derived = s["derived_non_ground"]
    if derived:
        out.append(
            f"<p>{_('Derived (ground level held by the other side or burning)')}: "
            + "; ".join(f"{escape(hexes)} ({escape(label)})" for hexes, label in derived)
            + "</p>"
        )
    out.append("\n    ")
    pocket = url("add_pocket")
    for u in s["upper_units"]:
        unit, level = escape(u["id"]), escape(u["level"])
        words = _("%(unit)s cannot reach ground level: a pocket") % {"unit": unit}
        out.append(
            f'\n    <form method="post" action="{pocket}" class="inline" hx-post="{pocket}" '
            f"{_FORM}>"
            f'\n      {hidden}<input type="hidden" name="hexes" value="{escape(u["hex"])}">'
            f'<input type="hidden" name="label" value="{level}">'
            f'\n      {unit} [{level}] <button type="submit">{words}</button>'
            "\n    </form>\n    "
        )
    out.append(
        f'\n    <form method="post" action="{pocket}" hx-post="{pocket}" {_FORM}>'
        f"\n      {hidden}"
        f"\n      <label>{_('Hexes')} {hex_field(f'hexes-pocket-{key}', 'hexes')}</label>"
        f'\n      <label>{_("Levels")} <input name="label" value="1" size="3"></label>'
        f'\n      <button type="submit">{_("Add")}</button>'
        "\n    </form>\n    "
    )
    if s["stacks"]:
        out.append(f"\n    <h4>{_('Escape (11.6063)')}</h4>\n    ")
        escape_url = url("escape")
        for stack in s["stacks"]:
            location = _("The stack in %(location)s") % {"location": escape(stack["location"])}
            boxes = "".join(
                f'<label><input type="checkbox" name="unit" value="{escape(unit_id)}" checked> '
                f"{escape(unit_id)}</label> "
                for unit_id in stack["units"]
            )
            afv = (
                f'<label><input type="checkbox" name="afv"> {_("Mobile AFV")}</label>'
                if stack["alone_afv"]
                else ""
            )
            out.append(
                f'\n    <form method="post" action="{escape_url}" hx-post="{escape_url}" '
                f'{_FORM} id="escape-{key}-{escape(stack["key"])}">'
                f"\n      {hidden}"
                f"\n      <fieldset><legend>{location}</legend>"
                f"\n      {boxes}"
                "\n      </fieldset>"
                f'\n      <label>{_("HS equivalents")} <input name="hs_equivalents" '
                f'type="number" min="0" max="12" value="{escape(stack["hs"])}" size="2"></label> '
                f'<span class="help">{_("A squad counts 2, a half-squad 1.")}</span>'
                f'\n      <label>{_("Leader DRM")} <input name="leader_drm" type="number" '
                'value="0" size="2"></label>'
                f'\n      <label>{_("PP over IPC")} <input name="pp_over_ipc" type="number" '
                'min="0" value="0" size="2"></label>'
                f"\n      {afv}"
                f'\n      <label><input type="checkbox" name="encircled"> {_("Encircled")}</label>'
                f'\n      <label><input type="checkbox" name="captured_afv"> {_("Captured AFV")}'
                "</label>"
                f'\n      <button type="submit">{_("Roll to escape")}</button>'
                "\n    </form>\n    "
            )
        out.append("\n    ")
    out.append("\n    ")
    return "".join(out)
