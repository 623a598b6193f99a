"""The roller's own random value (verifiable dice): a hidden ``dice_client`` field that
``static/js/dice-client.js`` adds to every form a page sends (and to every HTMX request). The
dice service mixes it into the rolls the request makes (``campaigns.dice.services.client_value``);
without JavaScript there is none, and the rolls rest on the server's committed seed alone."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from campaigns.dice.services import client_value

FIELD = "dice_client"


class DiceClientMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not _is_form(request):
            return self.get_response(request)
        with client_value(request.POST.get(FIELD, "")):
            return self.get_response(request)


def _is_form(request: HttpRequest) -> bool:
    return (request.content_type or "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    )
