"""``{% purchase_chart_rows %}``, ``{% purchase_rg_rows %}``, ``{% purchase_record_rows %}``: the
purchase page's RG chart rows and RGs, the RG Purchase Record's rows (refit.purchases.html)."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString

from refit.purchases.html import chart_body, record_body, rg_rows_body

register = template.Library()


@register.simple_tag(takes_context=True)
def purchase_chart_rows(context, chart, buy_url: str) -> SafeString:
    """The rows of ``chart`` with the page's forms: its Refit Phase, token and CSRF input."""
    return chart_body(
        chart,
        map_groups=context["map_groups"],
        buy_url=buy_url,
        reph_pk=context["reph"].pk,
        token=context["token"],
        csrf_input=CsrfTokenNode().render(context),
        can_overrule=context["viewer"].can_overrule,
    )


@register.simple_tag(takes_context=True)
def purchase_rg_rows(context, rgs) -> SafeString:
    """The rows of this Refit Phase's RGs with their forms."""
    return rg_rows_body(rgs, reph_pk=context["reph"].pk, csrf_input=CsrfTokenNode().render(context))


@register.simple_tag(takes_context=True)
def purchase_record_rows(context, rows) -> SafeString:
    """The RG Purchase Record's rows, each with its notes form for who may write them."""
    return record_body(
        rows,
        can_edit=context["can_edit"],
        notes_url=context["notes_url"],
        rows_page=context["rows_page"],
        csrf_input=CsrfTokenNode().render(context),
    )
