"""The form renderer (``FORM_RENDERER``): Django's template renderer, with the common widgets,
field labels and error lists written in Python.

Django draws every widget, label and error list with a template of its own (an ``<input>``,
each ``<option>`` of a select): ~0.3 ms each, the most of a page with a form
(docs/performance.md, "layout"). ``FastTemplates.render`` writes the same HTML, byte for byte,
for Django's own templates of

* the ``<input>`` widgets (text, number, email, url, password, hidden, checkbox, date, datetime,
  time, search, tel, color, file) and the hidden inputs of a ``MultipleHiddenInput``;
* ``<select>`` (single and multiple) with its options and option groups, and ``<textarea>``;
* radio buttons and checkbox lists (``RadioSelect``, ``CheckboxSelectMultiple``);
* a field's ``<label>`` and an error list (``<ul class="errorlist">``);

each value turned into text exactly as the template language does (localised, escaped unless
marked safe, ``stringformat:'s'`` where the template says so). Anything else — another
template, an app's override of one of these, a value the template language would treat
specially (a callable, an attribute named ``items``) — is drawn by the templates as before.
tests/config/test_form_renderer.py compares the two on many widgets, values and attributes
(Hypothesis) and on every form of the app's main pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.timezone import template_localtime

_DJANGO_FORMS = Path(django.forms.__file__).resolve().parent / "templates"
_W = "django/forms/widgets/"


class _Fallback(Exception):
    """Something the Python drawing does not reproduce: the template draws it."""


def _text(value: Any) -> str:
    """``{{ value }}``: as ``django.template.base.render_value_in_context`` (autoescape on)."""
    if callable(value):
        raise _Fallback  # the template language would call it
    value = template_localtime(value, use_tz=None)
    value = localize(value, use_l10n=None)
    if not issubclass(type(value), str):
        value = str(value)
    return conditional_escape(value)


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}`` (the filter is ``is_safe``: safe text stays safe)."""
    if callable(value):
        raise _Fallback
    try:
        new = "%s" % (str(value) if isinstance(value, tuple) else value)
    except (ValueError, TypeError):
        new = ""
    if isinstance(value, SafeData):
        new = mark_safe(new)  # noqa: S308 - as the template language does for is_safe filters
    return _text(new)


def _attrs(attrs: Mapping[str, Any]) -> str:
    """``django/forms/widgets/attrs.html`` (and ``django/forms/attrs.html``)."""
    if not isinstance(attrs, dict) or "items" in attrs:
        raise _Fallback  # ``attrs.items`` would read the key
    out = []
    for name, value in attrs.items():
        if callable(value):
            raise _Fallback
        if value is not False:
            out.append(" " + _text(name))
            if value is not True:
                out.append('="' + _formatted(value) + '"')
    return "".join(out)


def _get(widget: Mapping[str, Any], key: str) -> Any:
    """``widget.key`` where the widget's context always has the key."""
    if not isinstance(widget, dict) or key not in widget:
        raise _Fallback
    value = widget[key]
    if callable(value):
        raise _Fallback
    return value


def _maybe(mapping: Any, key: str) -> Any:
    """``mapping.key`` where a missing key reads as "" (the template's unknown variable)."""
    if not isinstance(mapping, dict):
        raise _Fallback
    value = mapping.get(key, "")
    if callable(value):
        raise _Fallback
    return value


def _input(widget: Mapping[str, Any]) -> str:
    """``input.html``, without its closing newline."""
    html = '<input type="' + _text(_get(widget, "type")) + '" name="' + _text(_get(widget, "name"))
    html += '"'
    value = _get(widget, "value")
    if value != None:  # noqa: E711 - the template's ``!= None``
        html += ' value="' + _formatted(value) + '"'
    return html + _attrs(_get(widget, "attrs")) + ">"


def _input_option(option: Mapping[str, Any]) -> str:
    """``input_option.html`` (radio and checkbox options), with its closing newline."""
    wrap = _get(option, "wrap_label")
    html = ""
    if wrap:
        element_id = _maybe(_get(option, "attrs"), "id")
        html += "<label" + (' for="' + _text(element_id) + '"' if element_id else "") + ">"
    html += _input(option) + "\n"
    if wrap:
        html += " " + _text(_get(option, "label")) + "</label>"
    return html + "\n"


def _select_option(option: Mapping[str, Any]) -> str:
    """``select_option.html``, with its closing newline."""
    return (
        '<option value="'
        + _formatted(_get(option, "value"))
        + '"'
        + _attrs(_get(option, "attrs"))
        + ">"
        + _text(_get(option, "label"))
        + "</option>\n"
    )


_OPTIONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    _W + "select_option.html": _select_option,
    # radio_option.html and checkbox_option.html include input_option.html, then a newline.
    _W + "radio_option.html": lambda option: _input_option(option) + "\n",
    _W + "checkbox_option.html": lambda option: _input_option(option) + "\n",
}
_OPTION_INCLUDES = {
    _W + "select_option.html": [_W + "attrs.html"],
    _W + "radio_option.html": [_W + "input_option.html", _W + "input.html", _W + "attrs.html"],
    _W + "checkbox_option.html": [_W + "input_option.html", _W + "input.html", _W + "attrs.html"],
}


def _option(option: Any, own: Callable[[str], bool]) -> str:
    name = _get(option, "template_name")
    if name not in _OPTIONS or not own(name) or not all(map(own, _OPTION_INCLUDES[name])):
        raise _Fallback
    return _OPTIONS[name](option)


def _select(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``select.html``."""
    widget = context["widget"]
    html = '<select name="' + _text(_get(widget, "name")) + '"' + _attrs(_get(widget, "attrs"))
    html += ">"
    for group_name, group_choices, _index in _get(widget, "optgroups"):
        if group_name:
            html += '\n  <optgroup label="' + _text(group_name) + '">'
        for option in group_choices:
            html += "\n  " + _option(option, own)
        if group_name:
            html += "\n  </optgroup>"
    return html + "\n</select>"


def _multiple_input(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``multiple_input.html`` (radio buttons, checkbox lists)."""
    widget = context["widget"]
    attrs = _get(widget, "attrs")
    element_id = _maybe(attrs, "id")
    css = _maybe(attrs, "class")
    html = "<div" + (' id="' + _text(element_id) + '"' if element_id else "")
    html += (' class="' + _text(css) + '"' if css else "") + ">"
    for group, options, _index in _get(widget, "optgroups"):
        if group:
            html += "\n  <div><label>" + _text(group) + "</label>"
        for option in options:
            html += "<div>\n    " + _option(option, own) + "</div>"
        if group:
            html += "\n  </div>"
    return html + "\n</div>"


def _textarea(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``textarea.html``."""
    widget = context["widget"]
    value = _get(widget, "value")
    return (
        '<textarea name="'
        + _text(_get(widget, "name"))
        + '"'
        + _attrs(_get(widget, "attrs"))
        + ">\n"
        + (_text(value) if value else "")
        + "</textarea>"
    )


def _multiple_hidden(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``multiple_hidden.html``: the hidden inputs, one after the other (``{% spaceless %}``
    leaves nothing between them)."""
    html = ""
    for sub in _get(context["widget"], "subwidgets"):
        if _get(sub, "template_name") != _W + "hidden.html" or not own(_W + "hidden.html"):
            raise _Fallback
        html += _input(sub)
    return html


def _label(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``django/forms/label.html``."""
    if context.get("use_tag"):
        tag = _text(context.get("tag", ""))
        label = _text(context.get("label", ""))
        return "<" + tag + _attrs(context.get("attrs")) + ">" + label + "</" + tag + ">"
    return _text(context.get("label", ""))


def _errors(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    """``django/forms/errors/list/default.html`` (it includes ``ul.html``)."""
    errors = context["errors"]
    if not errors:
        return ""
    field_id = getattr(errors, "field_id", None)
    if callable(field_id):
        raise _Fallback
    html = '<ul class="' + _text(context.get("error_class", "")) + '"'
    if field_id:
        html += ' id="' + _text(field_id) + '_error"'
    return html + ">" + "".join("<li>" + _text(error) + "</li>" for error in errors) + "</ul>"


def _plain_input(context: Mapping[str, Any], own: Callable[[str], bool]) -> str:
    return _input(context["widget"])


_INPUTS = "checkbox color date datetime email file hidden number password search tel text time url"
# What each template draws in Python, and the templates it includes (all must be Django's own).
_DRAW: dict[str, tuple[Callable[[Mapping[str, Any], Callable[[str], bool]], str], list[str]]] = {
    **{
        f"{_W}{name}.html": (_plain_input, [_W + "input.html", _W + "attrs.html"])
        for name in _INPUTS.split()
    },
    _W + "select.html": (_select, [_W + "attrs.html"]),
    _W + "textarea.html": (_textarea, [_W + "attrs.html"]),
    _W + "radio.html": (_multiple_input, [_W + "multiple_input.html"]),
    _W + "checkbox_select.html": (_multiple_input, [_W + "multiple_input.html"]),
    _W + "multiple_hidden.html": (_multiple_hidden, [_W + "multiwidget.html"]),
    "django/forms/label.html": (_label, ["django/forms/attrs.html"]),
    "django/forms/errors/list/default.html": (_errors, ["django/forms/errors/list/ul.html"]),
}


class FastTemplates(DjangoTemplates):
    """Django's ``DjangoTemplates`` renderer; the templates listed in ``_DRAW`` (while they are
    Django's own, not overridden by an app) drawn in Python with the same HTML."""

    def __init__(self) -> None:
        super().__init__()
        self._own: dict[str, bool] = {}

    def is_django_own(self, template_name: str) -> bool:
        """Is ``template_name`` Django's own file (not an app's template of that name)?"""
        own = self._own.get(template_name)
        if own is None:
            origin = Path(self.get_template(template_name).origin.name).resolve()
            own = self._own[template_name] = origin == _DJANGO_FORMS / template_name
        return own

    def render(self, template_name: str, context: Any, request: Any = None) -> str:
        draw = _DRAW.get(template_name)
        if draw is not None and request is None and isinstance(context, dict):
            function, includes = draw
            if self.is_django_own(template_name) and all(map(self.is_django_own, includes)):
                try:
                    # As ``BaseRenderer.render``, which strips what the template drew.
                    return function(context, self.is_django_own).strip()
                except _Fallback:
                    pass
        return super().render(template_name, context, request)
