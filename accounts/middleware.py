from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers
from django_htmx.http import HttpResponseClientRedirect

from accounts.time_zones import zone_for


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


class UserTimeZoneMiddleware:
    """Times are shown in a signed-in user's saved zone (else the server's, settings.TIME_ZONE).

    Runs after AuthenticationMiddleware. Every template's ``|date`` and ``timezone.localtime()``
    (the PDF's printed stamp) then use it; stored times stay UTC.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        name = getattr(user, "time_zone", "") if user and user.is_authenticated else ""
        timezone.activate(zone_for(name, settings.TIME_ZONE))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


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


class PrivatePagesMiddleware:
    """Nothing answered to a signed-in user is kept by a cache: ``Cache-Control: private,
    no-store`` (Django's never-cache set: also no-cache, must-revalidate, max-age=0).

    A signed-in user's pages show what their role lets them see (a side's secrets, the
    referee's), and Back with JavaScript off must ask the server again rather than show a
    stale step. Applied here, after AuthenticationMiddleware, so a new view cannot forget it;
    static files (answered by WhiteNoise before this runs) and pages for visitors who are not
    signed in (sign-in, sign-up, the public game browser) stay cacheable.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
        return response
