"""``{{ row.pk|oid }}``: a row's opaque id for markup (element ids, form values); a builtin
library (config.settings TEMPLATES), so no template loads it. See campaigns.oid."""

from django import template

from campaigns.oid import oid as opaque

register = template.Library()


@register.filter
def oid(value: int | str) -> str:
    return opaque(value)
