"""``fast_url`` (campaigns/templatetags/nav.py) must give exactly what ``reverse`` gives, for
every URL the templates and the campaign's tabs reverse through it, whatever the ids, and under
another script prefix or URLconf."""

import re
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import NoReverseMatch, clear_script_prefix, reverse, set_script_prefix

from campaigns.templatetags import nav

ROOT = Path(__file__).resolve().parents[2]


def names_used() -> set[str]:
    names = set(
        re.findall(r'"([a-z_]+:[a-z_]+)"', (ROOT / "campaigns/templatetags/nav.py").read_text())
    )
    for template in (ROOT / "templates").rglob("*.html"):
        names |= set(re.findall(r"{% (?:fast|site)_url '([a-z_:]+)'", template.read_text()))
    return names


SHAPES = [(), (0,), (7,), (7, "german"), (123456789, "soviet"), (7, 3), (7, 0), (12, 34, 56)]


def reversible(name):
    for shape in SHAPES:
        try:
            reverse(name, args=shape)
        except NoReverseMatch:
            continue
        yield shape


@pytest.mark.parametrize("name", sorted(names_used()))
def test_fast_url_is_reverse(name):
    shapes = list(reversible(name))
    assert shapes, name
    for shape in shapes:
        assert nav.fast_url(name, *shape) == reverse(name, args=shape)
        if not shape:
            assert nav.site_url(name) == reverse(name)


def test_the_names_are_found():
    assert {"campaigns:detail", "campaigns:roster", "login"} <= names_used()


def test_another_script_prefix_gets_its_own_urls():
    plain = nav.fast_url("campaigns:roster", 5, "german")
    set_script_prefix("/desk/")
    try:
        assert nav.fast_url("campaigns:roster", 5, "german") == "/desk" + plain
        assert nav.site_url("login") == reverse("login") == "/desk/accounts/login/"
    finally:
        clear_script_prefix()
    assert nav.fast_url("campaigns:roster", 5, "german") == plain


def test_what_it_cannot_fill_in_is_reversed_as_given():
    assert nav.fast_url("campaigns:detail", "5") == reverse("campaigns:detail", args=["5"])
    with pytest.raises(NoReverseMatch):
        nav.fast_url("campaigns:detail", -1)
    with pytest.raises(NoReverseMatch):
        nav.fast_url("campaigns:roster", 5, "no such/side")


@override_settings(ROOT_URLCONF="tests.campaigns.test_fast_url")
def test_another_urlconf_is_its_own_key():
    assert nav.fast_url("campaigns:detail", 5) == "/elsewhere/5/"


from django.urls import include, path  # noqa: E402

from campaigns.views import campaign_detail  # noqa: E402

urlpatterns = [
    path(
        "elsewhere/",
        include(([path("<int:campaign_id>/", campaign_detail, name="detail")], "campaigns")),
    )
]
