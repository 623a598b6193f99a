"""The perimeter rules' refusals and warnings (``Reason``s of ``refit.rules.perimeter``) in the
reader's words, hexes by their names."""

from __future__ import annotations

from itertools import islice

from django.utils.translation import gettext, gettext_lazy

from campaigns.games.rules import Reason
from refit.rules.hexgrid import HexMap

LISTED = 12  # hex names a sentence lists before it counts the rest

REASONS = {
    "off_map": gettext_lazy("A hex of this marker is not on the map (%(rule)s)."),
    "no_target": gettext_lazy(
        "A marker points at another hex holding a friendly marker (%(rule)s)."
    ),
    "not_a_hexrow": gettext_lazy("Not a straight or alternate hexrow (%(rule)s)."),
    "not_anchored": gettext_lazy(
        "Not in a ground-level Location with a friendly MMC or control marker (%(rule)s)."
    ),
    "target_unmarked": gettext_lazy("%(hex)s holds no friendly perimeter marker (%(rule)s)."),
    "blocked": gettext_lazy(
        "The hexrow crosses an enemy non-SMC unit or control marker in %(hex)s (%(rule)s)."
    ),
    "overlaps": gettext_lazy("The hexrow overlaps another friendly hexrow in %(hex)s (%(rule)s)."),
    "inside_perimeter": gettext_lazy(
        "%(hex)s is already inside the Perimeter Area: a pocket may not contain it (%(rule)s)."
    ),
    "not_closed": gettext_lazy("Not yet part of a closed loop (%(rule)s)."),
    "required_edge": gettext_lazy(
        "The %(side)s Perimeter Area must include %(edges)s map-edge hexes (%(rule)s)."
    ),
    "strategic_outside": gettext_lazy(
        "Strategic Locations outside both Perimeter Areas keep their control: %(hexes)s "
        "(%(rule)s). The perimeters are probably not as large as they may be."
    ),
}


def reason_text(hexmap: HexMap, reason: Reason) -> str:
    """A marker's refusal or a result's warning as a sentence, hexes by their names."""
    params = {
        key: hexmap.name(value) if isinstance(value, tuple) else value
        for key, value in reason.params.items()
    }
    if "hexes" in reason.params:
        hexes = reason.params["hexes"]
        # A map of control markers has hundreds: the first few named, and how many.
        first = ", ".join(hexmap.name(h) for h in islice(hexes, LISTED))
        params["hexes"] = first
        if len(hexes) > LISTED:
            params["hexes"] = gettext("%(first)s … (%(count)s hexes in all)") % {
                "first": first,
                "count": len(hexes),
            }
    return reason.sentence(REASONS, params)
