import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona", ["german", "outsider", None])
def test_anyone_may_browse_the_games(client, people, persona):
    if persona:
        client.force_login(people[persona])
    html = client.get(reverse("campaigns:games")).content.decode()
    for name in ("Red Factories", "Slaughter at Ponyri", "Defiant Russia", "Cherkassy Pocket"):
        assert name in html


def test_a_game_page_shows_every_campaign_game_and_its_calendar(client):
    html = client.get(reverse("campaigns:game", args=["red_factories"])).content.decode()
    assert html.count('class="game-section"') == 8
    assert "RO CG III — A Party in Our Street" in html
    assert "30 Dec 1942" in html


def test_game_pages_speak_japanese(client):
    html = client.get(
        reverse("campaigns:game", args=["slaughter_at_ponyri"]), headers={"Accept-Language": "ja"}
    ).content.decode()
    assert "妨害された予定表" in html and "CG-6：1943年7月9日 午後" in html


def test_an_unknown_game_is_not_found(client):
    assert client.get(reverse("campaigns:game", args=["squad_leader"])).status_code == 404


@pytest.fixture
def rf_with_data(monkeypatch):
    """Red Factories with a small set of data files, whatever the real files hold today."""
    from dataclasses import replace

    from campaigns.games import views as game_views
    from campaigns.games.registry import get_module
    from campaigns.games.schema import check_files
    from tests.campaigns.games.test_schema import files

    data = files()
    data["rg_charts"]["sides"]["german"]["groups"][0].update(
        name={"en": "StuG B Pltn", "ja": "StuG B 小隊"},
        units="StuG III (B)",
        full=3,
        depleted=2,
        cpp_cost=4,
        period_max={"RB": 2, "RO": 1},
    )
    data["tables"]["dice_tables"][0]["modifiers"] = [
        {"id": "single-hex", "value": 2, "when": {"en": "single-hex building"}}
    ]
    data["historical_drm"] = {
        "version": "1",
        "source": "seed",
        "values": [{"date": "1942-10-17", "value": None, "unknown": True}],
    }
    rf = get_module("red_factories")
    module = replace(rf, files=data, dice_tables=check_files(rf, data))
    monkeypatch.setattr(game_views, "get_module", lambda key: module)
    return module


def test_the_tabs_follow_the_data_a_module_has(client, rf_with_data):
    html = client.get(reverse("campaigns:game", args=["red_factories"])).content.decode()
    for section in ("rg-charts", "tables", "steps", "data"):
        assert reverse("campaigns:game_section", args=["red_factories", section]) in html


def test_an_unknown_section_is_not_found(client):
    response = client.get(reverse("campaigns:game_section", args=["cherkassy_pocket", "nope"]))
    assert response.status_code == 404


def test_the_rg_chart_page_shows_each_row_in_the_active_language(client, rf_with_data):
    url = reverse("campaigns:game_section", args=["red_factories", "rg-charts"])
    html = client.get(url).content.decode()
    assert "StuG B Pltn" in html and "StuG III (B)" in html and "3/2" in html
    ja = client.get(url, headers={"Accept-Language": "ja"}).content.decode()
    assert "StuG B 小隊" in ja


def test_the_tables_page_shows_rows_as_printed_and_signed_modifiers(client, rf_with_data):
    url = reverse("campaigns:game_section", args=["red_factories", "tables"])
    html = client.get(url).content.decode()
    assert "≤4" in html and "5+" in html
    assert "<strong>+2</strong> single-hex building" in html


def test_the_initial_ob_names_its_rgs(client, rf_with_data):
    html = client.get(reverse("campaigns:game", args=["red_factories"])).content.decode()
    assert "2 ×</td><td>I3 x" in html


def test_unknown_values_are_shown_as_unknown(client, rf_with_data):
    url = reverse("campaigns:game_section", args=["red_factories", "data"])
    html = client.get(url).content.decode()
    assert "<h2>Historical DRM chart</h2>" in html  # the file's title, not its name
    assert "historical_drm.json" not in html
    assert '<span class="unknown">unknown</span>' in html


def test_data_text_is_escaped(client, rf_with_data):
    rf_with_data.files["tables"]["charts"][0]["note"] = "<script>alert(1)</script>"
    url = reverse("campaigns:game_section", args=["red_factories", "tables"])
    html = client.get(url).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(
    "module_key", ["red_factories", "slaughter_at_ponyri", "defiant_russia", "cherkassy_pocket"]
)
def test_every_page_of_every_games_real_data_renders(client, module_key, language):
    from campaigns.games.registry import get_module
    from campaigns.games.views import game_tabs

    tabs = dict(game_tabs(get_module(module_key)))
    assert "tables" in tabs and "steps" in tabs
    for section in tabs:
        url = reverse("campaigns:game_section", args=[module_key, section])
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code == 200, (module_key, section)
        assert f'<html lang="{language}">' in response.content.decode()


def test_the_real_rf_chart_shows_the_stuka_row_and_its_cg_maxima(client):
    url = reverse("campaigns:game_section", args=["red_factories", "rg-charts"])
    html = client.get(url).content.decode()
    assert 'id="german-S1"' in html and 'id="soviet-I3"' in html
    assert html.count('<tr id="german-') == 27
    assert html.count('<tr id="soviet-') == 26
