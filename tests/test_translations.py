"""Every user-facing string is in the Japanese catalogue, and translated."""

import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
SOURCES = ("accounts", "campaigns", "refit", "rosters", "config", "templates")


def msgids(po: Path) -> dict[str, str]:
    """msgid -> msgstr (or msgstr[0]) for every non-header entry."""
    entries: dict[str, str] = {}
    text = po.read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        if "#, fuzzy" in block and 'msgid ""\nmsgstr ""' not in block:
            raise AssertionError(f"fuzzy entry in {po.name}:\n{block}")
        msgid = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        msgstr = re.search(r'^msgstr(?:\[0\])? ((?:".*"\n?)+)', block, re.M)
        if not msgid or not msgstr:
            continue
        key = "".join(re.findall(r'"(.*)"', msgid.group(1)))
        if key:
            entries[key] = "".join(re.findall(r'"(.*)"', msgstr.group(1)))
    return entries


def test_every_catalogue_entry_is_translated():
    untranslated = [msgid for msgid, msgstr in msgids(CATALOGUE).items() if not msgstr]
    assert untranslated == []


def test_placeholders_survive_translation():
    for msgid, msgstr in msgids(CATALOGUE).items():
        for placeholder in re.findall(r"%\(\w+\)s|\{\{ ?\w+ ?\}\}", msgid):
            assert placeholder.replace(" ", "") in msgstr.replace(" ", ""), (msgid, msgstr)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs gettext's xgettext")
def test_the_catalogue_holds_every_string_in_the_code(tmp_path, monkeypatch, settings):
    """Run makemessages on a copy of the sources; it must find nothing the catalogue lacks."""
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "locale").mkdir()
    monkeypatch.chdir(tmp_path)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("makemessages", locale=["ja"], verbosity=0, no_location=True)
    found = set(msgids(tmp_path / "locale" / "ja" / "LC_MESSAGES" / "django.po"))
    missing = found - set(msgids(CATALOGUE))
    assert missing == set(), "run: make messages-update, then translate"


# One Japanese word for the referee (docs/translations.md, "Words"): 審判, never レフェリー.
REFEREE = "審判"
OTHER_REFEREE_WORDS = ("レフェリー", "レフリー")


def test_the_referee_has_one_japanese_name_in_the_catalogue():
    catalogue = msgids(CATALOGUE)
    other = [
        msgstr for msgstr in catalogue.values() if any(w in msgstr for w in OTHER_REFEREE_WORDS)
    ]
    assert other == []
    unnamed = [
        msgid
        for msgid, msgstr in catalogue.items()
        if "referee" in msgid.lower() and REFEREE not in msgstr
    ]
    assert unnamed == []


def test_the_referee_has_one_japanese_name_in_code_and_game_data():
    """Japanese written in the code (rules' refusals) and in the game data files."""
    found = [
        str(path.relative_to(ROOT))
        for name in SOURCES
        for path in (ROOT / name).rglob("*")
        if path.suffix in (".py", ".html", ".json", ".txt")
        and any(word in path.read_text(encoding="utf-8") for word in OTHER_REFEREE_WORDS)
    ]
    assert found == []
