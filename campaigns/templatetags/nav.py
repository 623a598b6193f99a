"""The campaign's tabs and the site's header links, written in Python: every page draws them,
and a ``{% url %}`` and a ``{% translate %}`` per link were ~1 ms of each page
(docs/performance.md, "layout").

``campaign_url`` reverses a campaign's URL once per URL name (and side), then fills in the
campaign's id: the text around the id depends only on the URL patterns and the script prefix,
which key the memo, so it cannot go stale.
"""

from __future__ import annotations

import re

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import localized

register = template.Library()

# Ids no row has: reversed once in the place of the integer arguments, then split around.
_SENTINEL = 8_675_309_008_675_309
_URLS: dict[tuple, tuple[str, ...] | str | None] = {}


def fast_url(name: str, *args: int | str) -> str:
    """``reverse(name, args=args)``, the URL pattern reversed once per name and string arguments
    (a side's key: a few fixed words, never what a user typed), the integer arguments (ids, each
    an ``<int:…>``) filled in after. A URL with an id written otherwise (an opaque id) is
    reversed every time."""
    return _fast_url(_where(), name, args)


def _where() -> tuple[str, str]:
    """What a reversed URL depends on besides its name and arguments."""
    return (get_urlconf(settings.ROOT_URLCONF), get_script_prefix())


def _fast_url(where: tuple[str, str], name: str, args: tuple) -> str:
    words = tuple(arg if isinstance(arg, str) else None for arg in args)
    if not all(w is None or w.isidentifier() for w in words):
        return reverse(name, args=args)  # not a fixed word: not memoised
    key = (where, name, words)
    parts = _URLS.get(key, "")
    if parts == "":
        sentinels = [
            str(_SENTINEL + index) for index, arg in enumerate(args) if not isinstance(arg, str)
        ]
        try:
            url = reverse(
                name, args=[_SENTINEL + i if w is None else w for i, w in enumerate(words)]
            )
        except NoReverseMatch:  # an id written otherwise (an opaque id, campaigns.oid)
            url = ""
        pieces = re.split("|".join(sentinels), url) if sentinels else [url]
        found = re.findall("|".join(sentinels), url) if sentinels else []
        parts = _URLS[key] = tuple(pieces) if url and found == sentinels else None
    ids = [arg for arg in args if not isinstance(arg, str)]
    if parts is None or not all(type(i) is int and i >= 0 for i in ids):
        return reverse(name, args=args)
    return "".join(piece + (str(ids[n]) if n < len(ids) else "") for n, piece in enumerate(parts))


def campaign_url(name: str, campaign_id: int, *more: int | str) -> str:
    """The URL ``name`` of the campaign (its id first), as ``fast_url``."""
    return fast_url(name, campaign_id, *more)


@register.simple_tag(name="fast_url")
def fast_url_tag(name: str, *args: int | str) -> str:
    """``{% fast_url 'campaigns:scenario' campaign.pk row.pk %}``: ``{% url … %}``, reversed
    once per name (``fast_url``)."""
    return fast_url(name, *args)


def site_url(name: str) -> str:
    """``reverse(name)`` for a URL without arguments, memoised as ``campaign_url``."""
    key = (_where(), name)
    url = _URLS.get(key)
    if url is None:
        url = _URLS[key] = reverse(name)
    return url  # type: ignore[return-value]


@register.simple_tag(name="site_url")
def site_url_tag(name: str) -> str:
    """``{% site_url 'login' %}``: ``{% url 'login' %}``, reversed once."""
    return site_url(name)


def _link(url: str, label: str, current: bool) -> str:
    here = ' aria-current="page"' if current else ""
    return f'<a href="{conditional_escape(url)}"{here}>{conditional_escape(label)}</a>'


@register.simple_tag(takes_context=True)
def campaign_tabs(context: template.Context) -> SafeString:
    """The campaign's tabs (``campaigns/_campaign_nav.html``), for the ``viewer`` and the page's
    ``tab`` (and ``tab_side``) in the context: the pages the campaign's game has, each side's
    secret pages for those who may see them."""
    viewer = context["viewer"]
    campaign = context["campaign"]
    tab = context.get("tab")
    tab_side = context.get("tab_side")
    files = campaign.game.files
    pk = campaign.pk
    where = _where()
    links: list[str] = []

    def add(name: str, label: str, key: str | None) -> None:
        links.append(_link(_fast_url(where, name, (pk,)), label, key is not None and tab == key))

    add("campaigns:detail", _("Overview"), "overview")
    if files.get("turn_sequence"):
        add("shortgames:turn", _("Turn"), "turn")
        add("shortgames:units", _("Units"), "units")
        add("shortgames:points", _("Points"), "points")
        add("shortgames:victory", _("Victory"), "victory")
        if campaign.module in ("defiant_russia", "cherkassy_pocket"):
            add("shortgames:combat", _("Combat dice"), "combat")
        if campaign.module == "cherkassy_pocket":
            add("shortgames:tables", _("Referee tables"), "tables")
        add("campaigns:calendar", _("Calendar"), "calendar")
    else:
        add("campaigns:calendar", _("Calendar"), "calendar")
        add("campaigns:scenarios", _("Scenarios"), "scenarios")
        add("campaigns:cvp", _("CVP"), "cvp")
        add("campaigns:cg_victory", _("CG victory"), "cg_victory")
    if files.get("refit_steps"):
        add("refit:overview", _("Refit Phase"), "refit")
    if files.get("maps"):
        add("perimeters:page", _("Perimeters"), "perimeters")
    add("campaigns:dice_log", _("Dice log"), "dice")
    my_sides = viewer.visible_sides()
    if not files.get("turn_sequence"):
        language = get_language()
        for key in my_sides:
            name = localized(campaign.side(key).name, language)
            here = tab_side == key
            for url_name, label, page in (
                ("campaigns:roster", _("%(side)s roster"), "roster"),
                ("campaigns:ledger", _("%(side)s ledger"), "ledger"),
                ("campaigns:orbat", _("%(side)s OB"), "orbat"),
            ):
                url = _fast_url(where, url_name, (pk, key))
                links.append(_link(url, label % {"side": name}, tab == page and here))
            if files.get("rg_charts"):
                url = _fast_url(where, "purchases:page", (pk, key))
                label = _("%(side)s purchases") % {"side": name}
                links.append(_link(url, label, tab == "purchases" and here))
    if files.get("historical_drm") and my_sides:
        add("campaigns:histdrm", _("Historical DRM"), "histdrm")
    add("rosters:index", _("Sheets"), "sheets")
    add("campaigns:history", _("History"), "history")
    if not viewer.campaign_has_referee:
        add("campaigns:corrections", _("Corrections"), "corrections")
    add("campaigns:members", _("Members"), "members")
    add("campaigns:reveal", _("The end"), "reveal")
    add("campaigns:export", _("Export"), None)
    return mark_safe("\n    ".join(links))  # noqa: S308 - each link's text escaped by _link
