from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


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
