"""Browse the game modules' data. Game data is public: no campaign, no secrets."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.games.registry import all_modules, get_module


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "games/list.html", {"modules": all_modules()})


@require_GET
def game_detail(request: HttpRequest, module_key: str) -> HttpResponse:
    try:
        module = get_module(module_key)
    except KeyError:
        raise Http404 from None
    return render(request, "games/detail.html", {"module": module})
