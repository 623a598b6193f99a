"""EMAIL_URL: the mail server a club server sends password resets through."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.email_url import SMTP, parse_email_url
from tests.config.test_settings_from_environment import PRODUCTION, manage


def test_smtp_with_starttls_names_host_port_and_credentials():
    assert parse_email_url("smtp://club:s3cret@mail.example.org:587/?tls=1") == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "club",
        "EMAIL_HOST_PASSWORD": "s3cret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


def test_smtps_means_implicit_tls_on_port_465_by_default():
    settings = parse_email_url("smtps://club:pw@mail.example.org")
    assert settings["EMAIL_USE_SSL"] is True
    assert settings["EMAIL_USE_TLS"] is False
    assert settings["EMAIL_PORT"] == 465


def test_a_plain_smtp_url_without_credentials_uses_port_25():
    settings = parse_email_url("smtp://localhost")
    assert settings["EMAIL_HOST"] == "localhost"
    assert settings["EMAIL_PORT"] == 25
    assert settings["EMAIL_HOST_USER"] == settings["EMAIL_HOST_PASSWORD"] == ""


def test_percent_encoded_user_and_password_are_decoded():
    settings = parse_email_url("smtp://club%40example.org:p%40ss%3Aword@mail.example.org:2525")
    assert settings["EMAIL_HOST_USER"] == "club@example.org"
    assert settings["EMAIL_HOST_PASSWORD"] == "p@ss:word"
    assert settings["EMAIL_PORT"] == 2525


def test_a_timeout_is_read_in_seconds():
    assert parse_email_url("smtp://h/?timeout=10")["EMAIL_TIMEOUT"] == 10


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("consolemail://", "django.core.mail.backends.console.EmailBackend"),
        ("locmemmail://", "django.core.mail.backends.locmem.EmailBackend"),
        ("dummymail://", "django.core.mail.backends.dummy.EmailBackend"),
    ],
)
def test_the_other_schemes_pick_a_backend(url, backend):
    assert parse_email_url(url) == {"EMAIL_BACKEND": backend}


@pytest.mark.parametrize(
    "url",
    [
        "imap://mail.example.org",
        "smtp://mail.example.org/?tls=1&ssl=1",
        "smtp:///?tls=1",
        "smtp://mail.example.org:notaport",
        "smtp://mail.example.org/?timeout=soon",
    ],
)
def test_a_wrong_url_is_refused_at_start_up(url):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        parse_email_url(url)


def _email_settings(**env: str) -> list[str]:
    code = (
        "from django.conf import settings as s;"
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL)"
    )
    result = manage("shell", "--verbosity", "0", "-c", code, **PRODUCTION, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_without_email_url_messages_go_to_the_console():
    assert _email_settings()[0] == "django.core.mail.backends.console.EmailBackend"


def test_email_url_and_the_sender_come_from_the_environment():
    assert _email_settings(
        EMAIL_URL="smtp://club:pw@mail.example.org:587/?tls=1",
        DEFAULT_FROM_EMAIL="desk@example.org",
    ) == [SMTP, "mail.example.org", "587", "True", "desk@example.org"]


def test_the_smtp_password_is_not_a_setting_of_its_own_url():
    code = "from django.conf import settings as s; print(hasattr(s, 'EMAIL_URL'))"
    result = manage(
        "shell", "--verbosity", "0", "-c", code, **PRODUCTION, EMAIL_URL="smtp://u:pw@h"
    )
    assert result.stdout.strip() == "False"
