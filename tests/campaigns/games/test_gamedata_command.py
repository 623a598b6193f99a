import json

import pytest
from django.core.management import CommandError, call_command

from campaigns.games.registry import GAMES_DIR


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("gamedata", *args, stdout=out)
    return out.getvalue()


def test_list_names_every_module_with_its_version_and_campaign_games():
    out = run("list")
    assert "red_factories  v4  Red Factories — 8 campaign game(s)" in out
    assert "slaughter_at_ponyri" in out and "defiant_russia" in out and "cherkassy_pocket" in out


def test_show_prints_the_calendar_of_each_campaign_game():
    out = run("show", "red_factories")
    assert "RB CG III" in out and "17 Oct 1942 – 15 Nov 1942 (30)" in out


def test_show_json_uses_the_documented_keys():
    data = json.loads(run("show", "slaughter_at_ponyri", "--json"))
    assert set(data) == {
        "key",
        "version",
        "position",
        "name",
        "period_kind",
        "sides",
        "campaign_games",
        "data",
    }
    assert data["sides"][1] == {"key": "russian", "name": {"en": "Russian", "ja": "ソ連軍"}}
    assert data["campaign_games"][0]["periods"][5]["key"] == "CG-6"


def test_show_an_unknown_module_lists_the_known_ones():
    with pytest.raises(CommandError, match="known: red_factories"):
        run("show", "squad_leader")


def test_validate_accepts_a_good_file():
    assert "valid (defiant_russia v2)" in run(
        "validate", str(GAMES_DIR / "defiant_russia" / "module.json")
    )


def test_validate_names_the_path_of_the_bad_field(tmp_path):
    data = json.loads((GAMES_DIR / "red_factories" / "module.json").read_text(encoding="utf-8"))
    data["campaign_games"][4]["first_day"] = "23.10.1942"
    file = tmp_path / "module.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"campaign_games\[4\]\.first_day: must be a date"):
        run("validate", str(file))


@pytest.mark.parametrize("content", ["{", None])
def test_validate_reports_unreadable_files(tmp_path, content):
    file = tmp_path / "module.json"
    if content is not None:
        file.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON|cannot read"):
        run("validate", str(file))


def test_validate_checks_a_data_file_together_with_its_module(tmp_path):
    import shutil

    folder = tmp_path / "red_factories"
    shutil.copytree(GAMES_DIR / "red_factories", folder)
    assert "valid (red_factories v4)" in run("validate", str(folder / "rg_charts.json"))
    data = json.loads((folder / "campaign_games.json").read_text(encoding="utf-8"))
    data["campaign_games"]["rb-cg-1"]["initial_ob"]["soviet"]["rgs"][0]["rg"] = "Z9"
    (folder / "campaign_games.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"initial_ob\.soviet\.rgs\[0\]\.rg: RG 'Z9'"):
        run("validate", str(folder / "campaign_games.json"))


def test_validate_needs_the_module_beside_a_data_file(tmp_path):
    file = tmp_path / "tables.json"
    file.write_text('{"version": "1", "source": "x"}', encoding="utf-8")
    with pytest.raises(CommandError, match="module.json beside it"):
        run("validate", str(file))
