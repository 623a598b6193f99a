"""The app shell's own answers: the web manifest, with the app's name in the reader's language."""

import json

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

# The colours of static/css/app.css (--accent, --paper).
THEME_COLOR = "#8a2c1d"
BACKGROUND_COLOR = "#fbfaf7"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web manifest (what a phone shows when the app is added to its home screen)."""
    data = {
        "name": _("Campaign Desk"),
        "short_name": _("Campaign Desk"),
        "description": _("Bookkeeping and referee assistant for ASL campaign games."),
        "lang": get_language(),
        "start_url": reverse("campaigns:list"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return HttpResponse(
        json.dumps(data, ensure_ascii=False), content_type="application/manifest+json"
    )


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403. In a revealed campaign the reason is the reveal, not the member's role: every member
    may read everything there, and nobody may change anything but notes."""
    from django.shortcuts import render

    from campaigns.models import Campaign

    match = request.resolver_match
    campaign_id = match.kwargs.get("campaign_id") if match else None
    revealed = (
        isinstance(campaign_id, int)
        and request.user.is_authenticated
        and Campaign.objects.filter(
            pk=campaign_id, revealed_at__isnull=False, memberships__user=request.user
        ).exists()
    )
    return render(request, "403.html", {"revealed": revealed}, status=403)
