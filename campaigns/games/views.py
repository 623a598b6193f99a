"""Browse the game modules' data. Game data is public: no campaign, no secrets."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from campaigns.games.display import for_players, id_names
from campaigns.games.registry import GameModule, all_modules, get_module

# Files with a page of their own; every other file of a module is shown on the "data" tab.
SECTIONS = {
    "overview": (_("Overview"), ("campaign_games",)),
    "rg-charts": (_("RG charts"), ("rg_charts",)),
    "tables": (_("Tables"), ("tables",)),
    "steps": (_("Steps"), ("refit_steps", "turn_sequence")),
    "data": (_("Other data"), ()),
}
OWN_PAGE = {stem for _label, stems in SECTIONS.values() for stem in stems}


def _module(module_key: str) -> GameModule:
    try:
        return get_module(module_key)
    except KeyError:
        raise Http404 from None


def game_tabs(module: GameModule) -> list[tuple[str, str]]:
    """The sections this module has data for (the overview always)."""
    other = [stem for stem in module.files if stem not in OWN_PAGE]
    return [
        (key, label)
        for key, (label, stems) in SECTIONS.items()
        if key == "overview"
        or any(stem in module.files for stem in stems)
        or (key == "data" and other)
    ]


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "campaigns/games/list.html", {"modules": all_modules()})


@require_safe
def game_detail(request: HttpRequest, module_key: str, section: str = "overview") -> HttpResponse:
    module = _module(module_key)
    tabs = game_tabs(module)
    if section not in dict(tabs):
        raise Http404
    files = module.files
    context = {"module": module, "tabs": tabs, "section": section}
    if section == "overview":
        definitions = files.get("campaign_games", {}).get("campaign_games", {})
        context["campaign_games"] = [(cg, definitions.get(cg.key)) for cg in module.campaign_games]
        context["rg_names"] = {
            side: {group["id"]: group["name"] for group in chart.get("groups", [])}
            for side, chart in files.get("rg_charts", {}).get("sides", {}).items()
        }
    elif section == "rg-charts":
        context["charts"] = [
            (module.side(side), chart) for side, chart in files["rg_charts"]["sides"].items()
        ]
        context["cg_keys"] = [cg for cg in module.campaign_games]
    elif section == "tables":
        names = id_names(module, files["tables"])
        context["dice_tables"] = files["tables"].get("dice_tables", [])
        context["charts"] = for_players(files["tables"].get("charts", []), names)
    elif section == "steps":
        context["step_files"] = [
            (stem, files[stem]["steps"])
            for stem in ("refit_steps", "turn_sequence")
            if stem in files
        ]
    else:
        context["other_files"] = [
            (stem, for_players(data, id_names(module, data)))
            for stem, data in files.items()
            if stem not in OWN_PAGE
        ]
    return render(request, f"campaigns/games/{section}.html", context)
