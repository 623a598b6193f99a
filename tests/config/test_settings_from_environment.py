"""The settings a club server runs with: read from the environment, safe by default."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DJANGO_SECRET_KEY": "k" * 20 + "production-secret-key-with-enough-entropy-9f8e7d6c5b4a",
    "DJANGO_DEBUG": "0",
    "ALLOWED_HOSTS": "campaigns.example.org",
    "DATABASE_URL": "sqlite:///:memory:",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE"))}
    clean.pop("ALLOWED_HOSTS", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_collectstatic_gathers_what_the_pages_link_with_production_settings(tmp_path):
    """The guide's `collectstatic`: with debug off the pages link to WhiteNoise's hashed names,
    so every file a page links to must be in the manifest."""
    import json

    result = manage("collectstatic", "--noinput", DJANGO_STATIC_ROOT=str(tmp_path), **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = json.loads((tmp_path / "staticfiles.json").read_text(encoding="utf-8"))["paths"]
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    linked = set(re.findall(r"{% static '([^']+)' %}", base))
    assert linked and linked <= set(manifest), linked - set(manifest)
    for name in linked:
        assert (tmp_path / manifest[name]).is_file()


def test_without_a_secret_key_production_refuses_to_start():
    env = {**PRODUCTION, "DJANGO_SECRET_KEY": ""}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_database_url_selects_postgresql():
    code = (
        "from django.conf import settings; db = settings.DATABASES['default'];"
        "print(db['ENGINE'], db['NAME'], db['HOST'], db['PORT'])"
    )
    env = {
        **PRODUCTION,
        "DATABASE_URL": "postgres://club:secret@db.internal:5433/campaigns",
    }
    result = manage("shell", "--verbosity", "0", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "campaigns",
        "db.internal",
        "5433",
    ]


@pytest.mark.parametrize(("value", "expected"), [("1", "True"), ("", "False"), ("no", "False")])
def test_debug_comes_from_the_environment(value, expected):
    env = {**PRODUCTION, "DJANGO_DEBUG": value}
    result = manage(
        "shell",
        "--verbosity",
        "0",
        "-c",
        "from django.conf import settings; print(settings.DEBUG)",
        **env,
    )
    assert result.stdout.strip() == expected, result.stderr


def test_the_time_zone_comes_from_the_environment():
    code = "from django.conf import settings; print(settings.TIME_ZONE)"
    result = manage("shell", "--verbosity", "0", "-c", code, **PRODUCTION)
    assert result.stdout.split() == ["UTC"], result.stderr
    tokyo = {**PRODUCTION, "DJANGO_TIME_ZONE": "Asia/Tokyo"}
    result = manage("shell", "--verbosity", "0", "-c", code, **tokyo)
    assert result.stdout.split() == ["Asia/Tokyo"], result.stderr


def test_the_deployment_guide_names_every_variable_the_settings_read():
    import re

    settings_text = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r'(?:environ\.get|env_bool|env_list)\(\s*"([A-Z_]+)"', settings_text)) | {
        "DATABASE_URL"
    }  # read by dj_database_url.config()
    guide = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    assert not {name for name in read if f"`{name}`" not in guide}
    # The guide's environment file sets what a club server behind its proxy needs.
    for line in (
        "DJANGO_BEHIND_PROXY=1",
        "CSRF_TRUSTED_ORIGINS=https://",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header Host $http_host;",
        "EnvironmentFile=/etc/campaign-desk.env",
        "pg_dump",
        "fonts-ipaexfont-gothic",
    ):
        assert line in guide, line
