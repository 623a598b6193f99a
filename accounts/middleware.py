from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils import translation
from django_htmx.http import HttpResponseClientRedirect


class UserLanguageMiddleware:
    """A signed-in user's saved language wins over the browser's Accept-Language.

    Runs after LocaleMiddleware (which picked the cookie or browser language) and after
    AuthenticationMiddleware (so request.user is known).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user and user.is_authenticated else ""
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language:
            response.headers.setdefault("Content-Language", language)
        return response


class HtmxLoginRedirectMiddleware:
    """When a session has expired, send the whole page to sign-in, not just an HTMX fragment.

    Without this, htmx follows login_required's redirect and swaps the sign-in page into
    whatever part of the page made the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            getattr(request, "htmx", False)
            and response.status_code == 302
            and response["Location"].startswith(resolve_url(settings.LOGIN_URL))
        ):
            return HttpResponseClientRedirect(response["Location"])
        return response
