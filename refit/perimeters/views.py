"""The perimeter page of a campaign (11.605–11.6066): the map with control, units, markers and
the computed areas; forms to enter them; escape rolls; the reduced map as PDF.

Perimeters are public: every member sees the page; its computation uses the units declared by
both sides plus, for a side's player, that side's own undeclared units (the referee: all).
Acting on a side (its units, markers, pockets, escapes) needs ``access.side_actor`` on a public
page (403 for the other members); control, fires and water may be changed by players and the
referee, not observers (``access.recorder``). Every form
posts the version of the row it showed; with HTMX a form answers with the ``#perimeter``
partial of the page.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.history.html import csrf_input
from campaigns.oid import oid
from campaigns.state import StateError
from refit.models import PerimeterState
from refit.perimeters import (
    changes,
    escapes,
    forms,
    initial_ssr,
    positions,
    reasons,
    recording,
)
from refit.perimeters import state as perimeter
from refit.perimeters.drawing import picture, statuses, svg_map, view_box
from refit.perimeters.html import sides_html
from refit.rules.hexgrid import HexError
from refit.rules.perimeter.board import MAIN, MMC, VEHICLE, Marker

# The map's markup (~320 KiB) is put in after the template is drawn, where the template drew
# this mark: passed through the template's nested blocks and tags, the text was copied at each
# (~1.5 ms a page). The mark is random per process: no text of a page can hold it otherwise.
_MAP_MARK = f"<!--perimeter-map-{secrets.token_hex(16)}-->"


def _render(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """``render``, the map's markup spliced in after the rest is drawn (``_MAP_MARK``), as
    UTF-8 bytes: the map's markup is kept encoded (``_map_markup``), the page's text around it
    encoded alone. (Put into the page's text, the map — ASCII — was widened to the page's
    two bytes a character, the page holding an arrow or a dash, then encoded: ~1.5 ms.)"""
    shapes = context["map_shapes"]
    context["map_shapes"] = mark_safe(_MAP_MARK)  # noqa: S308 — a fixed comment
    html = render_to_string(template, context, request)
    head, mark, tail = html.partition(_MAP_MARK)
    if not mark:
        return HttpResponse(html)
    return HttpResponse(b"".join((head.encode(), shapes, tail.encode())))


def _state(viewer: Viewer) -> PerimeterState:
    """The open Refit Phase's perimeter, started and saved if it has not been: for a change
    (a POST) only."""
    state = perimeter.current_state(viewer.campaign)
    if state is None:
        raise Http404
    return state


def _shown(viewer: Viewer, request: HttpRequest) -> tuple[PerimeterState, dict[str, Any], bool]:
    """The perimeter and unit rows for reading, and whether it is the open Refit Phase's (the
    only one that takes changes): a GET never writes (an unsaved start until the first change
    saves it). Once no phase is open (the CG is over) it is a recorded one, read-only: the one
    ``?perimeter=`` names (the perimeter history), else the last."""
    found = perimeter.open_state(viewer.campaign)
    if found is not None:
        return (*found, True)
    token = request.GET.get("perimeter", "")
    state = perimeter.past_state(viewer.campaign, token)
    if state is None:
        if token:
            raise Http404
        # No perimeter was ever saved: the CG's initial control, unsaved (a GET never writes).
        state = PerimeterState(
            campaign=viewer.campaign,
            index=viewer.campaign.period_index,
            control=perimeter.initial_control(viewer.campaign),
        )
    return state, perimeter.unit_rows(state), False


def _side_name(viewer: Viewer, side: str) -> str:
    from django.utils.translation import get_language

    return viewer.campaign.side(side).name.in_language(get_language())


def _context(
    request: HttpRequest, viewer: Viewer, preview: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The page's context; with a ``preview`` (``control``: the control markers a form would
    save) the map and areas are those of that control, computed and not saved."""
    campaign = viewer.campaign
    state, rows, is_open = _shown(viewer, request)
    if preview is not None:
        state.control = preview["control"]  # this request's copy only: never saved
    terrain = perimeter.terrain_of(campaign)
    computation = perimeter.compute(viewer, state, terrain, rows)
    hexmap, result = computation.hexmap, computation.result
    selected = None
    if request.GET.get("hex"):
        try:
            selected = hexmap.hex(request.GET["hex"])
        except HexError:
            selected = None
    try:
        zoom = max(1, min(4, int(request.GET.get("zoom", "1"))))
    except ValueError:
        zoom = 1
    sides = []
    for side in perimeter.sides(campaign):
        side_result = result.sides[side]
        row = rows.get(side)
        can_edit = is_open and viewer.can_act_for_side(side)
        checks = []
        for position, entry in enumerate(state.markers):
            if entry["side"] != side:
                continue
            check = next(
                (c for c in side_result.checks if _same(hexmap, c.marker, entry)),
                None,
            )
            checks.append(
                {
                    "position": position,
                    "notation": perimeter.notation(entry),
                    "kind": entry.get("kind", MAIN),
                    "reasons": [reasons.reason_text(hexmap, r) for r in check.reasons]
                    if check
                    else [],
                    "path": " ".join(hexmap.name(h) for h in check.path) if check else "",
                }
            )
        sides.append(
            {
                "key": side,
                "name": _side_name(viewer, side),
                "can_edit": can_edit,
                "edge_markers": [
                    (
                        hexmap.name(m.hex),
                        hexmap.name(m.target) if m.target else _("off the map"),
                    )
                    for m in side_result.edge_markers
                ],
                "markers": checks,
                "loops": [hexmap.names(loop) for loop in side_result.loops],
                "area_size": len(side_result.perimeter_area),
                "pockets": [
                    {"number": p.number, "kind": p.kind, "hexes": hexmap.names(p.hexes)}
                    for p in side_result.pockets
                ],
                "non_ground": [
                    (position, p)
                    for position, p in enumerate(state.non_ground)
                    if p["side"] == side
                ],
                "derived_non_ground": [
                    (" ".join(hexmap.names(p.hexes)), p.label)
                    for p in computation.board.non_ground_pockets[len(state.non_ground) :]
                    if p.side == side
                ],
                "upper_units": _upper_units(computation, side),
                "units": list(row.units) if row and viewer.can_see_side(side) else [],
                "declared": bool(row and row.declared),
                "units_version": row.version if row else 1,
                "stacks": _stacks(computation, side),
            }
        )
    side_keys = list(perimeter.sides(campaign))
    # After the CG's end, the perimeter read (the history's choice): every link of the page
    # (zoom, hexes, the reduced map) keeps it, with or without JavaScript.
    token = "" if is_open or state.pk is None else oid(state.pk)
    links = f"&amp;zoom={zoom}" + (f"&amp;perimeter={token}" if token else "")
    selected_name = hexmap.name(selected) if selected else ""
    kinds = forms.UnitsForm.base_fields["kind"].choices  # no form built: only its choices
    return {
        "viewer": viewer,
        "campaign": campaign,
        "state": state,
        "terrain_version": terrain.version if terrain else 1,
        "map_name": campaign.game.files["maps"]["maps"][perimeter.map_key(campaign)]["name"],
        "view_box": view_box(hexmap),
        # UTF-8 bytes, spliced in by ``_render`` (svg_map escapes every text it writes).
        "map_shapes": _map_markup(computation, state, side_keys, zoom, links),
        "zoom": zoom,
        "perimeter_token": token,
        "zoom_width": zoom * 100,
        "selected": selected_name,
        "sides": sides,
        "sides_html": sides_html(
            sides,
            campaign_pk=campaign.pk,
            state_version=state.version,
            selected=selected_name,
            kinds=kinds,
            # Only a side's forms write it (as {% csrf_token %} does only where it is drawn).
            csrf=csrf_input(get_token(request)) if any(s["can_edit"] for s in sides) else "",
        ),
        "side_keys": side_keys,
        "result": result,
        "nml": hexmap.names(result.nml) if len(result.nml) < 400 else [],
        "nml_count": len(result.nml),
        "areas": [
            {
                "number": a.number,
                "type": a.type,
                "hexes": hexmap.names(a.hexes),
                "became_nml": a.became_nml,
                "units": [u.id for u in a.units],
            }
            for a in result.isolated_areas
        ],
        "eliminated": [(u.id, hexmap.name(u.hex)) for u in result.smc_eliminated],
        "shortage": [(u.id, hexmap.name(u.hex)) for u in result.ammunition_shortage],
        "must_escape": [(u.id, hexmap.name(u.hex)) for u in result.must_escape],
        "may_escape": [(u.id, hexmap.name(u.hex)) for u in result.may_escape],
        "warnings": [reasons.reason_text(hexmap, r) for r in result.warnings],
        "escapes": state.escapes,
        # The sides whose OB the viewer may apply an escape result to (campaigns.access).
        "ob_sides": [
            key for key in perimeter.sides(campaign) if is_open and viewer.can_act_for_side(key)
        ],
        "can_change_map": is_open and viewer.can_record,
        "can_overrule": is_open and viewer.can_overrule,
        # After the CG's end: each Refit Phase's recorded perimeter, read-only (issue 22).
        "is_open": is_open,
        "history": [] if is_open else perimeter.history(campaign, state),
        "hex_help": forms.HEX_HELP,
        # The initial SSRs the app cannot draw: the referee enters their control (issue 17).
        "initial_ssrs": initial_ssr.referee_entered(campaign, state),
        "preview": preview,
        # The field the map's clicks add to: what the preview was asked for, or the hex chosen.
        "initial_hexes": preview["text"] if preview else hexmap.name(selected) if selected else "",
    }


_DRAWN_KEPT = 2  # map markups (~0.25–0.45 MiB each) kept per computation: at most ~14 MiB


def _map_markup(
    computation: perimeter.Computation,
    state: PerimeterState,
    side_keys: list[str],
    zoom: int,
    links: str,
) -> bytes:
    """The map's markup (``svg_map``) as UTF-8, drawn once per computation, zoom and link suffix
    and kept on the computation (``Computation.drawn``): all it reads besides the zoom and the
    links — the map, the sides, the result, the state's fires and markers — is in the
    computation's key (``perimeter.compute``), so a kept markup is never another state's nor
    another viewer's (the units drawn are the computation's own)."""
    key = (zoom, links, tuple(side_keys))
    drawn = computation.drawn
    found = drawn.get(key)
    if found is not None:
        return found
    hexmap, result = computation.hexmap, computation.result
    placed = perimeter.markers(state, hexmap)
    fires = set(perimeter.known_hexes(hexmap, state.fires))
    found = svg_map(
        hexmap,
        statuses(hexmap, result),
        side_keys,
        control=result.board.control,
        fires=fires,
        overlay=picture(hexmap, result, placed, fires, with_hexes=False),
        zoom=zoom,
        href=links,
    ).encode()
    while len(drawn) >= _DRAWN_KEPT:
        drawn.pop(next(iter(drawn), None), None)  # the oldest (another thread may race us)
    drawn[key] = found
    return found


def _upper_units(computation: perimeter.Computation, side: str) -> list[dict[str, Any]]:
    """The side's MMC off ground level that no non-ground pocket holds: each offered as one
    action, "in a pocket" (11.6057), for the cases the data cannot decide (stairwells)."""
    hexmap = computation.hexmap
    held = {h for p in computation.board.non_ground_pockets if p.side == side for h in p.hexes}
    return [
        {"id": u.id, "hex": hexmap.name(u.hex), "level": u.level}
        for u in computation.board.units
        if u.side == side and u.kind == MMC and u.level != 0 and u.hex not in held
    ]


def _stacks(computation: perimeter.Computation, side: str) -> list[dict[str, Any]]:
    """The side's isolated units by Location (hex and level): one escape form each, the whole
    stack ticked (11.6063: a stack makes one Escape DR; an AFV alone may use its own)."""
    hexmap, isolated = computation.hexmap, computation.result.isolated
    found: dict[tuple[Any, int], list[Any]] = {}
    for unit in computation.board.units:
        if unit.side == side and unit.hex in isolated:
            found.setdefault((unit.hex, unit.level), []).append(unit)
    return [
        {
            "key": f"{hexmap.name(h)}-{level}",
            "location": hexmap.name(h) + (f" [{level}]" if level else ""),
            "units": [u.id for u in units],
            "alone_afv": len(units) == 1 and units[0].kind == VEHICLE,
            # A pre-fill the player corrects: each MMC taken as a squad (2 HS), SMC none.
            "hs": max(1, 2 * sum(1 for u in units if u.kind == MMC)),
        }
        for (h, level), units in sorted(
            found.items(), key=lambda item: (hexmap.name(item[0][0]), item[0][1])
        )
    ]


def _same(hexmap: Any, marker: Marker, entry: dict[str, Any]) -> bool:
    return (
        hexmap.name(marker.hex) == entry["hex"]
        and marker.target is not None
        and hexmap.name(marker.target) == entry["target"]
        and (hexmap.name(marker.via) if marker.via else "") == (entry.get("via") or "")
        and marker.kind == entry.get("kind", MAIN)
    )


@require_safe
@login_required
@vary_on_headers("HX-Request")
def page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=perimeter.has_perimeters)
    template = "refit/perimeters/page.html"
    if request.htmx and request.htmx.target == "selection":
        # A hex click: only what it changes (the highlight, the line saying which hex, the
        # forms' hex fields), not the whole map; nothing is computed.
        return render(request, template + "#selection", _selection(request, viewer))
    if request.htmx:
        template += "#perimeter"
    return _render(request, template, _context(request, viewer))


def _selection(request: HttpRequest, viewer: Viewer) -> dict[str, Any]:
    hexmap = perimeter.base_map(viewer.campaign)
    try:
        selected = hexmap.name(hexmap.hex(request.GET.get("hex", "")))
    except HexError:
        selected = ""
    context = {"selected": selected, "side_keys": list(perimeter.sides(viewer.campaign))}
    if "hexes" in request.GET:
        context["initial_field"] = True
        # The initial control's field (sent along with each hex click while it is shown):
        # the clicked hex is added to what was typed, so hexes are picked one after another.
        typed = request.GET["hexes"].split()
        context["initial_hexes"] = " ".join(
            typed if not selected or selected in typed else [*typed, selected]
        )
    return {**context, "oob": True}


def _act(
    request: HttpRequest,
    viewer: Viewer,
    form_class: type,
    action: Callable[[PerimeterState, Any], str | None],
) -> HttpResponse:
    """Validate the form, run the change, say what happened; answer with the page's partial
    (HTMX) or a redirect to the page."""
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form: %(errors)s") % {"errors": _errors(form)})
    else:
        state = _state(viewer)
        try:
            done = action(state, form.cleaned_data)
        except StateError as error:
            messages.error(request, str(error))
        else:
            if done:
                messages.success(request, done)
    if request.htmx:
        return _render(request, "refit/perimeters/page.html#perimeter", _context(request, viewer))
    url = reverse("perimeters:page", args=[viewer.campaign.pk])
    # Only a checked hex name goes back into the address (is_valid() left out any other).
    selected = form.cleaned_data.get("selected", "")
    return redirect(f"{url}?{urlencode({'hex': selected})}" if selected else url)


def _errors(form: Any) -> str:
    return "; ".join(f"{field}: {' '.join(errors)}" for field, errors in form.errors.items())


@require_POST
@login_required
@vary_on_headers("HX-Request")
def control(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)

    def act(state: PerimeterState, data: dict) -> str:
        names = changes.set_control(
            viewer,
            state,
            by=request.user,
            version=data["version"],
            text=data["hexes"],
            side=data["side"],
        )
        return _("Control markers changed in %(hexes)s.") % {"hexes": " ".join(names)}

    return _act(request, viewer, forms.ControlForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def preview_control(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The map and areas as the control form would leave them, nothing saved: the initial
    control typed by the referee (issue 17) seen before it is saved. Answers the page (or its
    ``#perimeter`` block with HTMX), the typed hexes kept in the form."""
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)
    form = forms.ControlForm(request.POST)
    preview = None
    if not form.is_valid():
        messages.error(request, _("Check the form: %(errors)s") % {"errors": _errors(form)})
    else:
        state, _rows, is_open = _shown(viewer, request)
        access.require(is_open)  # a recorded perimeter (the CG over) takes no control
        data = form.cleaned_data
        try:
            control, names = changes.controlled(
                viewer, state, text=data["hexes"], side=data["side"]
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            preview = {
                "control": control,
                "text": data["hexes"],
                "count": len(names),
                "side": data["side"],
                "side_name": _side_name(viewer, data["side"]) if data["side"] else "",
            }
    template = "refit/perimeters/page.html"
    if request.htmx:
        template += "#perimeter"
    return _render(request, template, _context(request, viewer, preview))


@require_POST
@login_required
@vary_on_headers("HX-Request")
def water(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)

    def act(state: PerimeterState, data: dict) -> str:
        names = changes.set_water(
            viewer.campaign,
            by=request.user,
            version=data["version"],
            text=data["hexes"],
            water=data["water"],
        )
        return _("Water obstacles changed in %(hexes)s.") % {"hexes": " ".join(names)}

    return _act(request, viewer, forms.WaterForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def fires(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)

    def act(state: PerimeterState, data: dict) -> str:
        names = changes.set_fires(
            state,
            by=request.user,
            version=data["version"],
            text=data["hexes"],
            burning=data["burning"],
        )
        return _("Fires changed in %(hexes)s.") % {"hexes": " ".join(names)}

    return _act(request, viewer, forms.FireForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def units(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        if data["remove"]:
            names = positions.remove_units(
                state, side, by=request.user, version=data["version"], text=data["hexes"]
            )
            return _("Units removed from %(hexes)s.") % {"hexes": " ".join(names)}
        names = positions.add_units(
            state,
            side,
            by=request.user,
            version=data["version"],
            text=data["hexes"],
            kind=data["kind"],
            label=data["label"],
            level=data["level"] or 0,
        )
        return _("Units placed in %(hexes)s.") % {"hexes": " ".join(names)}

    return _act(request, viewer, forms.UnitsForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def declare(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        positions.declare_units(state, side, by=request.user, version=data["version"])
        return _("The units are declared: everyone's computation uses them now.")

    return _act(request, viewer, forms.VersionForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def add_marker(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        entry = changes.add_marker(
            state,
            side,
            by=request.user,
            version=data["version"],
            origin=data["origin"],
            via=data["via"],
            target=data["target"],
            kind=data["kind"],
        )
        return _("Marker %(marker)s placed.") % {"marker": perimeter.notation(entry)}

    return _act(request, viewer, forms.MarkerForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def remove_marker(request: HttpRequest, campaign_id: int, side: str, position: int) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        changes.remove_marker(
            state, side, by=request.user, version=data["version"], position=position
        )
        return _("Marker removed.")

    return _act(request, viewer, forms.VersionForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def propose(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        count = changes.propose_markers(
            viewer, state, side, by=request.user, version=data["version"]
        )
        if not count:
            return _("No legal loop found from the map-edge markers; place markers by hand.")
        return _("%(count)s markers proposed; adjust them as you see fit.") % {"count": count}

    return _act(request, viewer, forms.VersionForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def add_pocket(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        changes.add_non_ground_pocket(
            state,
            side,
            by=request.user,
            version=data["version"],
            text=data["hexes"],
            label=data["label"],
        )
        return _("Non-ground pocket entered.")

    return _act(request, viewer, forms.PocketForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def remove_pocket(request: HttpRequest, campaign_id: int, side: str, position: int) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        changes.remove_non_ground_pocket(
            state, side, by=request.user, version=data["version"], position=position
        )
        return _("Non-ground pocket removed.")

    return _act(request, viewer, forms.VersionForm, act)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def escape(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=perimeter.has_perimeters
    )

    def act(state: PerimeterState, data: dict) -> str:
        # The stack's ticked units (one form per Location), or a typed "a; b" list.
        ticked = [u.strip() for u in request.POST.getlist("unit") if u.strip()]
        unit_ids = ticked + [u.strip() for u in data["units"].split(";") if u.strip()]
        entry = escapes.roll_escape(
            viewer,
            state,
            side,
            by=request.user,
            version=data["version"],
            unit_ids=unit_ids,
            attempt=data,
        )
        return _("Escape DR %(final)s: %(outcome)s.") % {
            "final": entry["final"],
            "outcome": outcome_label(entry),
        }

    return _act(request, viewer, forms.EscapeForm, act)


def outcome_label(entry: dict[str, Any]) -> str:
    key = escapes.outcome_key(entry)
    text = {
        "eliminated": _("eliminated"),
        "abandoned": _("abandoned"),
        "escaped": _("escaped"),
    }[key]
    extras = []
    if entry.get("replaced"):
        extras.append(_("replaced"))
    if entry.get("casualty_reduced"):
        extras.append(_("casualty reduced"))
    if entry.get("heat_of_battle"):
        extras.append(_("Heat of Battle"))
    return ", ".join([text, *extras])


@require_POST
@login_required
@vary_on_headers("HX-Request")
def record(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)

    def act(state: PerimeterState, data: dict) -> str:
        recording.record(viewer, state, by=request.user, version=data["version"])
        return _("This Refit Phase's perimeter is kept in the campaign history.")

    return _act(request, viewer, forms.VersionForm, act)
