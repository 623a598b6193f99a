from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import LanguageForm, SignupForm, TimeZoneForm


def _safe_next(request: HttpRequest, candidate: str | None, fallback: str) -> str:
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return fallback


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    next_url = _safe_next(request, request.POST.get("next") or request.GET.get("next"), "")
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save(commit=False)
            user.language = translation.get_language() or ""
            user.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the interface language; remembered on the account and in a cookie."""
    form = LanguageForm(request.POST)
    next_url = _safe_next(request, request.POST.get("next"), "/")
    response = HttpResponseRedirect(next_url)
    if not form.is_valid():
        return response
    language = form.cleaned_data["language"]
    if request.user.is_authenticated and request.user.language != language:
        request.user.language = language
        request.user.save(update_fields=["language"])
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def time_zone(request: HttpRequest) -> HttpResponse:
    """Choose the zone times are shown in (saved on the account)."""
    form = TimeZoneForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request, _("Times are now shown in %(zone)s.") % {"zone": _zone_name(request)}
        )
        return redirect("time_zone")
    return render(request, "registration/time_zone.html", {"form": form})


def _zone_name(request: HttpRequest) -> str:
    return request.user.time_zone or settings.TIME_ZONE
