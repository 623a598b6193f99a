"""The initial perimeter SSRs the app cannot draw (RB CG II II.2, RB CG IV IV.2, RO CG II II.2,
RO CG III III.2, RF CG I): their lines do not fit the configured map grids (docs/rules-
decisions.md, issue 17), so the referee enters the initial control. The perimeter page shows
each such SSR's text beside a control form pre-filled with the hexes it names that the grid has
(the names it lacks are listed); nothing is drawn from a guess. Reads only."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from campaigns.games.registry import localized
from campaigns.models import Campaign
from refit.models import PerimeterState
from refit.perimeters.state import base_map, has_initial_control
from refit.rules.hexgrid import HexError


def referee_entered(campaign: Campaign, state: PerimeterState) -> list[dict[str, Any]]:
    """For the campaign's first perimeter when the data give no initial control: each initial
    perimeter SSR with its text in the reader's language, the hexes it names on this map and
    those the map's grid lacks."""
    if has_initial_control(campaign):
        return []
    earlier = PerimeterState.objects.filter(campaign=campaign)
    if state.pk is not None:
        earlier = earlier.exclude(pk=state.pk)
    if earlier.exists():
        return []
    cgs = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    ssrs = cgs.get(campaign.campaign_game, {}).get("ssrs", [])
    hexmap = base_map(campaign)
    joined = len(hexmap.sections) > 1
    found = []
    for ssr in ssrs:
        effects = [e for e in ssr.get("effects", []) if e.get("kind") == "initial_perimeter"]
        if not effects:
            continue
        # RF CG I's SSRs are its map groups' ("RB II.2"): the joined map prefixes the names.
        prefix = ssr["id"].split(" ")[0] if joined and " " in ssr["id"] else ""
        on_map, missing = [], []
        for name in effects[0].get("hexes", []):
            try:
                on_map.append(hexmap.name(hexmap.hex(prefix + name)))
            except HexError:
                missing.append(prefix + name)
        found.append(
            {
                "id": ssr["id"],
                "text": localized(ssr.get("text", {}), get_language()),
                "hexes": " ".join(on_map),
                "missing": missing,
            }
        )
    return found
