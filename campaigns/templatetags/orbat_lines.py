"""``{% orbat_line row %}``: a line of the order of battle not being edited, written in Python
(campaigns.orbat.html) with the page's ``can_record``, ``labels`` and CSRF token."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from campaigns.history.html import csrf_input, escaper
from campaigns.orbat.html import line_html

register = template.Library()


@register.simple_tag(takes_context=True)
def orbat_line(context: template.Context, row: Any) -> SafeString:
    kept = context.render_context.get("orbat_line")
    if kept is None:  # once per page: the CSRF input and the page's escaper
        kept = context.render_context["orbat_line"] = (
            csrf_input(context.get("csrf_token")),
            escaper(),
        )
    csrf, escape = kept
    return line_html(
        row,
        can_record=bool(context.get("can_record")),
        labels=context["labels"],
        csrf=csrf,
        escape=escape,
    )
