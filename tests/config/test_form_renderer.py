"""The form renderer (config/form_renderer.py) draws the common widgets, labels and error lists
in Python: the HTML must be byte for byte what Django's templates draw — on many widgets,
values and attributes (Hypothesis), and on every page and form of the app."""

import datetime
import re
from decimal import Decimal

import pytest
from django import forms
from django.conf import settings
from django.db import transaction
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.test import Client, override_settings
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from config.form_renderer import FastTemplates

FAST = FastTemplates()
SLOW = DjangoTemplates()
SLOW_NAME = "django.forms.renderers.DjangoTemplates"

# --- widgets, values, attributes ----------------------------------------------------------

texts = st.text(alphabet=st.sampled_from(list("ab Z0&<>\"'é日\n%s{}")), max_size=8)
scalars = st.one_of(
    texts,
    st.integers(-10_000, 10_000_000),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-1e6, max_value=1e6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.dates(),
    st.datetimes(timezones=st.just(datetime.UTC)),
    st.sampled_from([gettext_lazy("Side"), mark_safe("<b>safe</b>"), "", 0, (1, 2)]),
)
attr_values = st.one_of(st.booleans(), st.none(), scalars)
attr_names = st.sampled_from(["id", "class", "placeholder", "data-x", "min", "step", "required"])
attrs = st.dictionaries(attr_names, attr_values, max_size=4)
labels = st.one_of(texts, st.integers(0, 5), st.just(gettext_lazy("German")))
flat_choices = st.lists(st.tuples(st.one_of(texts, st.integers(0, 9)), labels), max_size=4)
choices = st.one_of(
    flat_choices,
    st.lists(st.one_of(st.tuples(texts, flat_choices), st.tuples(texts, labels)), max_size=3),
)

INPUTS = [
    forms.TextInput,
    forms.NumberInput,
    forms.EmailInput,
    forms.URLInput,
    forms.HiddenInput,
    forms.DateInput,
    forms.DateTimeInput,
    forms.TimeInput,
    forms.SearchInput,
    forms.TelInput,
    forms.ColorInput,
    forms.FileInput,
    forms.Textarea,
]
CHOICES = [forms.Select, forms.SelectMultiple, forms.RadioSelect, forms.CheckboxSelectMultiple]


def both(widget, name, value, attributes):
    fast = widget.render(name, value, attrs=attributes, renderer=FAST)
    slow = widget.render(name, value, attrs=attributes, renderer=SLOW)
    assert fast == slow
    return fast


@hypothesis_settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(INPUTS),
    name=texts,
    value=st.one_of(st.none(), scalars),
    widget_attrs=attrs,
    render_attrs=st.one_of(st.none(), attrs),
    localized=st.booleans(),
    language=st.sampled_from(["en", "ja"]),
)
@example(forms.TextInput, 'a"<', "x&y", {"required": True, "disabled": False}, None, False, "en")
@example(forms.TextInput, "n", mark_safe("<i>"), {"data-x": mark_safe("<b>")}, None, False, "en")
@example(forms.NumberInput, "n", Decimal("1234.5"), {"step": 0.5}, {"min": 1.5}, True, "ja")
def test_inputs_and_textareas(kind, name, value, widget_attrs, render_attrs, localized, language):
    widget = kind(attrs=widget_attrs)
    widget.is_localized = localized
    with translation.override(language), timezone.override("Asia/Tokyo"):
        html = both(widget, name, value, render_attrs)
    assert html.startswith(("<input", "<textarea"))


@hypothesis_settings(max_examples=100, deadline=None)
@given(value=st.one_of(st.none(), st.booleans(), texts), widget_attrs=attrs)
def test_checkboxes_and_passwords(value, widget_attrs):
    both(forms.CheckboxInput(attrs=widget_attrs), "c", value, None)
    both(forms.PasswordInput(attrs=widget_attrs, render_value=True), "p", value, None)
    both(forms.PasswordInput(attrs=widget_attrs), "p", value, None)
    both(forms.NullBooleanSelect(attrs=widget_attrs), "n", value, None)


@hypothesis_settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(CHOICES),
    widget_choices=choices,
    value=st.one_of(st.none(), scalars, st.lists(st.one_of(texts, st.integers(0, 9)), max_size=3)),
    widget_attrs=attrs,
    render_attrs=st.one_of(st.none(), attrs),
    language=st.sampled_from(["en", "ja"]),
)
@example(forms.Select, [("g", [(1, "a"), (2, "b")]), (3, "c")], 2, {"id": "x"}, None, "en")
@example(forms.RadioSelect, [("g", [(1, "a")]), (3, "c")], 3, {"id": "r", "class": "k"}, {}, "ja")
def test_selects_radios_and_checkbox_lists(
    kind, widget_choices, value, widget_attrs, render_attrs, language
):
    widget = kind(attrs=widget_attrs, choices=widget_choices)
    with translation.override(language):
        both(widget, "choice", value, render_attrs)


@hypothesis_settings(max_examples=100, deadline=None)
@given(values=st.lists(st.one_of(texts, st.integers(0, 99)), max_size=4), widget_attrs=attrs)
def test_multiple_hidden_inputs(values, widget_attrs):
    both(forms.MultipleHiddenInput(attrs=widget_attrs), "h", values, None)


class Everything(forms.Form):
    name = forms.CharField(max_length=3, label='Name <&> "quoted"')
    count = forms.IntegerField(min_value=1, help_text="Help")
    when = forms.DateField(required=False)
    notes = forms.CharField(widget=forms.Textarea, required=False)
    side = forms.ChoiceField(choices=[("german", "German"), ("soviet", "Soviet")])
    sides = forms.MultipleChoiceField(
        choices=[("Axis", [("german", "German")]), ("soviet", "Soviet")],
        widget=forms.CheckboxSelectMultiple,
    )
    radio = forms.ChoiceField(choices=[(1, "One"), (2, "Two")], widget=forms.RadioSelect)
    agree = forms.BooleanField()
    hidden = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self):
        raise forms.ValidationError(["Whole form <wrong>", mark_safe("<em>safe</em>")])


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"name": "toolong&<", "count": "0", "when": "x", "side": "x", "radio": "3", "sides": ["x"]},
        {"name": "ok", "count": "3", "side": "soviet", "radio": "2", "sides": ["german"]},
    ],
)
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_whole_form_with_labels_and_errors(data, language):
    with translation.override(language):
        fast = Everything(data, renderer=FAST, prefix="f")
        slow = Everything(data, renderer=SLOW, prefix="f")
        drawn = [
            (str(f), f.label_tag(), f.legend_tag(), str(f.errors), f.as_field_group(), str(s))
            for f, s in zip(fast, slow, strict=True)
        ]
        expected = [
            (str(s), s.label_tag(), s.legend_tag(), str(s.errors), s.as_field_group(), str(s))
            for s in slow
        ]
        assert drawn == expected
        assert str(fast.non_field_errors()) == str(slow.non_field_errors())
        assert fast.as_div() == slow.as_div() and fast.as_p() == slow.as_p()
        assert fast.as_table() == slow.as_table() and fast.as_ul() == slow.as_ul()
        if data:
            assert "errorlist" in str(fast.non_field_errors())


def test_an_overridden_template_is_drawn_by_it(monkeypatch):
    """An app's own template of one of these names wins, as with Django's renderer."""
    renderer = FastTemplates()
    monkeypatch.setattr(renderer, "_own", {"django/forms/widgets/text.html": False})
    called = []
    monkeypatch.setattr(
        DjangoTemplates, "render", lambda self, name, context, request=None: called.append(name)
    )
    forms.TextInput().render("x", "y", renderer=renderer)
    assert called == ["django/forms/widgets/text.html"]


def test_the_setting_names_the_renderer():
    assert settings.FORM_RENDERER == "config.form_renderer.FastTemplates"
    assert isinstance(get_default_renderer(), FastTemplates)


# --- every page of the app, with both renderers ----------------------------------------------

RANDOM = [
    re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(rb'("X-CSRFToken": ")[^"]+'),
    re.compile(rb'(name="token" value=")[^"]+'),
    re.compile(rb'(type="hidden" name="token" value=")[^"]+'),
]


def page(client, method, url):
    response = client.get(url) if method == "GET" else client.post(url, {})
    content = b"" if response.streaming else response.content
    for pattern in RANDOM:
        content = pattern.sub(rb"\1X", content)
    return response.status_code, content


@pytest.mark.django_db(transaction=False)
def test_every_page_and_refused_form_is_the_same_with_both_renderers(monkeypatch):
    """Every URL of the app (tests/url_world.py), GET and an empty POST (forms with errors), as
    the German player and the referee."""
    from config import form_renderer
    from tests.url_world import build_world, url_for, url_patterns

    asked, by_template = [], []
    fast_render, slow_render = FastTemplates.render, DjangoTemplates.render
    monkeypatch.setattr(
        FastTemplates,
        "render",
        lambda self, name, *args, **kw: asked.append(name) or fast_render(self, name, *args, **kw),
    )
    monkeypatch.setattr(
        DjangoTemplates,
        "render",
        lambda self, name, *args, **kw: (
            by_template.append((type(self), name)) or slow_render(self, name, *args, **kw)
        ),
    )
    world = build_world()
    compared = forms_seen = 0
    for who in ("german", "referee"):
        client = Client()
        client.force_login(world.people[who])
        for pattern in url_patterns():
            if not pattern.name or pattern.name.endswith(("export", "pdf", "live")):
                continue
            url = url_for(world, pattern)
            if ".pdf" in url:  # no form, and stamped with the time it was made
                continue
            for method in ("GET", "POST"):
                drawn = []
                for renderer in ("config.form_renderer.FastTemplates", SLOW_NAME):
                    get_default_renderer.cache_clear()
                    with override_settings(FORM_RENDERER=renderer), transaction.atomic():
                        client.force_login(world.people[who])  # a POST may have signed out
                        drawn.append(page(client, method, url))
                        transaction.set_rollback(True)
                get_default_renderer.cache_clear()
                assert drawn[0] == drawn[1], f"{method} {url} as {who}"
                compared += 1
                forms_seen += drawn[0][1].count(b"<input") + drawn[0][1].count(b"<select")
    assert compared > 500 and forms_seen > 50, (compared, forms_seen)
    # The Python drawing drew them all: labels, error lists, inputs, selects; none of the
    # widgets it draws fell back to its template on the app's pages.
    drawn = [name for name in asked if name in form_renderer._DRAW]
    assert {"django/forms/label.html", "django/forms/errors/list/default.html"} <= set(drawn)
    assert {"django/forms/widgets/select.html", "django/forms/widgets/hidden.html"} <= set(drawn)
    fell_back = {name for kind, name in by_template if kind is FastTemplates}
    assert not fell_back & set(form_renderer._DRAW), fell_back
    assert len(drawn) > 500, (len(drawn), sorted(set(drawn)))
