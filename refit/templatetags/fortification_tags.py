"""``{% fortification_lines %}``, ``{% fortification_items %}``: the fortification page's record
lines and its purchase table's rows, with their forms (refit.fortifications.html)."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString

from refit.fortifications.html import items_body, line_urls, lines_body

register = template.Library()


@register.simple_tag(takes_context=True)
def fortification_lines(context, lines) -> SafeString:
    """The lines of the record's page ``lines``: the set-up Location form for who may write it,
    "Take back" on the open Refit Phase's own purchases for who may buy."""
    campaign_id, side = context["campaign"].pk, context["side"].key
    reph = context.get("reph")
    return lines_body(
        lines,
        can_edit=bool(context.get("can_edit")),
        removable_index=reph.index if context.get("can_buy") and reph else None,
        location_url=line_urls(campaign_id, side, "location"),
        remove_url=line_urls(campaign_id, side, "remove"),
        reph_pk=reph.pk if reph else None,
        csrf_input=CsrfTokenNode().render(context),
    )


@register.simple_tag(takes_context=True)
def fortification_items(context, items, buy_url: str) -> SafeString:
    """The Fortification Purchase Table's rows with the page's buy forms."""
    reph = context.get("reph")
    return items_body(
        items,
        buy_url=buy_url,
        reph_pk=reph.pk if reph else None,
        token=context.get("token", ""),
        csrf_input=CsrfTokenNode().render(context),
        can_overrule=context["viewer"].can_overrule,
    )
